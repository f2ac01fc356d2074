// CSV cells that a spreadsheet would run as formulas, made safe and read back: the one rule of
// every CSV the project writes (the figure downloads, the experiments' CSVs) and of the C++ side
// (core/cli/csv.hpp csv_safe_text). A cell whose first character after any apostrophes is
// = + - @ tab or CR gets one more leading apostrophe ('=1+1); a plain number (-0.5) stays one.
// restoredText removes that apostrophe, so that restoredText(safeText(s)) === s for every s.

const FORMULA = /^'*[=+\-@\t\r]/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** @param {string} s */
export const safeText = (s) => (FORMULA.test(s) && !NUMBER.test(s) ? `'${s}` : s);

/** @param {string} s */
export const restoredText = (s) => (s.startsWith("'") && FORMULA.test(s) ? s.slice(1) : s);
