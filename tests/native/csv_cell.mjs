// tests/native/csv_cell.mjs FILE ROW COLUMN — prints one cell of a CSV (RFC 4180, read by the
// page's own reader): ROW 1 is the first row after the header. Exits 1 naming what is missing.
import { readFileSync } from 'node:fs';
import { parseCsv, csvObjects } from '../../web/src/common/csv.js';

const [file, row, column] = process.argv.slice(2);
const rows = csvObjects(parseCsv(readFileSync(file, 'utf8'), file));
const r = rows[Number(row) - 1];
if (!r || !(column in r)) {
  console.error(`csv_cell: ${file} has no row ${row} with a column ${column}`);
  process.exit(1);
}
process.stdout.write(r[column]);
