// The message table's probe part in English (common/messages.js says how the table works):
// the strings of the probe demo (demos/probe/).
// Its keys are those of probe.zh.js; tests/node/course.test.mjs checks both.

/** @type {Record<string, string>} */
export default {};
