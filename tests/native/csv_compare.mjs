// tests/native/csv_compare.mjs A.csv B.csv [IGNORE_REGEX] — exit 0 when the two CSVs (RFC 4180)
// have the same header and the same cells, except in columns whose name matches IGNORE_REGEX
// (the timing columns of a sweep). Otherwise prints the first difference and exits 1.
import { readFileSync } from 'node:fs';

/** @param {string} text @returns {string[][]} */
function parse(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i++];
    if (quoted) {
      if (c === '"' && text[i] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

const [a, b, ignore] = process.argv.slice(2);
const ta = parse(readFileSync(a, 'utf8')),
  tb = parse(readFileSync(b, 'utf8'));
const skip = ignore ? new RegExp(ignore) : null;
const fail = (/** @type {string} */ m) => {
  console.error(`csv_compare: ${a} vs ${b}: ${m}`);
  process.exit(1);
};
if (ta.length !== tb.length) fail(`${ta.length} vs ${tb.length} records`);
if (ta[0].join() !== tb[0].join()) fail(`headers differ: ${ta[0].join()} | ${tb[0].join()}`);
for (let r = 1; r < ta.length; r++)
  for (let c = 0; c < ta[0].length; c++)
    if (!(skip && skip.test(ta[0][c])) && ta[r][c] !== tb[r][c])
      fail(`row ${r}, column ${ta[0][c]}: '${ta[r][c]}' vs '${tb[r][c]}'`);
console.log(`csv_compare: ${a} and ${b} agree (${ta.length - 1} rows${skip ? `, ignoring /${ignore}/` : ''})`);
