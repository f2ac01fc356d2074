// The message table's extrapolation part in Simplified Chinese (common/messages.js says how the table works):
// the strings of the extrapolation demo (demos/extrapolation/).
// Its keys are those of extrapolation.en.js; tests/node/course.test.mjs checks both.

/** @type {Record<string, string>} */
export default {};
