// The message table's probe part in Simplified Chinese (common/messages.js says how the table works):
// the strings of the probe demo (demos/probe/).
// Its keys are those of probe.en.js; tests/node/course.test.mjs checks both.

/** @type {Record<string, string>} */
export default {};
