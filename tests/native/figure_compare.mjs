// tests/native/figure_compare.mjs FIGURE.json FIGURE.svg|FIGURE.csv — exit 0 when the page's figure
// builder (web/src/charts/figure-svg.js), given the numbers `attnplay inspect --format json` wrote,
// draws the very SVG `attnplay inspect --format svg` wrote (gradient ids aside), or writes the same
// CSV as `--format csv` (every cell the same text, or the same number: the two print a number each
// their own way, 1e-7 and 1e-07): the CLI and the playground's Download give the same figure.
// Otherwise prints the first difference and exits 1.
import { readFileSync } from 'node:fs';
import { figureSVG, figureCSV } from '../../web/src/charts/figure-svg.js';

const [jsonFile, svgFile] = process.argv.slice(2);
const d = JSON.parse(readFileSync(jsonFile, 'utf8'));
const figure = {
  kind: 'heatmap',
  title: d.title,
  xLabel: d.x_label,
  yLabel: d.y_label,
  quantity: d.quantity,
  note: d.note,
  matrix: d.values.map((r) => r.map((v) => (v === null ? -Infinity : v))),
  rowLabels: d.row_labels ?? undefined,
  colLabels: d.col_labels ?? undefined,
  lo: d.range[0],
  hi: d.range[1],
  diverging: d.diverging,
  side: d.side ? { label: d.side.label, values: d.side.values } : undefined,
};
if (svgFile.endsWith('.csv')) {
  /** RFC 4180 with LF line ends (tests/data/csv-vectors.json): the cells of each line. @param {string} t */
  const rows = (t) => {
    if (!t.endsWith('\n') || /\r\n$/.test(t)) throw new Error('CSV lines must end with LF');
    const out = [];
    let row = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < t.length; i++) {
      const c = t[i];
      if (quoted) {
        if (c === '"' && t[i + 1] === '"') {
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
        out.push(row);
        row = [];
        cell = '';
      } else cell += c;
    }
    return out;
  };
  const page = rows(figureCSV(figure)),
    cli = rows(readFileSync(svgFile, 'utf8'));
  const same = (/** @type {string} */ a, /** @type {string} */ b) =>
    a === b || (a !== '' && b !== '' && Number(a) === Number(b));
  if (page.length !== cli.length) {
    console.error(`${cli.length} lines, the page writes ${page.length}`);
    process.exit(1);
  }
  for (const [i, r] of page.entries())
    for (let j = 0; j < Math.max(r.length, cli[i].length); j++)
      if (!same(r[j] ?? '', cli[i][j] ?? '') || r.length !== cli[i].length) {
        console.error(`line ${i + 1}, cell ${j + 1} differs:\n  page: ${r[j]}\n  cli:  ${cli[i][j]}`);
        process.exit(1);
      }
  console.log(`the same CSV (${cli.length} lines)`);
  process.exit(0);
}
const norm = (s) =>
  s
    .replace(/id="[^"]*"/g, 'id=""')
    .replace(/url\(#[^)]*\)/g, 'url(#)')
    .split('\n');
const page = norm(figureSVG(figure));
const cli = norm(readFileSync(svgFile, 'utf8'));
for (let i = 0; i < Math.max(page.length, cli.length); i++)
  if (page[i] !== cli[i]) {
    console.error(`line ${i + 1} differs:\n  page: ${page[i]}\n  cli:  ${cli[i]}`);
    process.exit(1);
  }
console.log(`the same SVG (${cli.length} lines)`);
