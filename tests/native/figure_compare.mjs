// tests/native/figure_compare.mjs FIGURE.json FIGURE.svg — exit 0 when the page's figure builder
// (web/src/charts/figure-svg.js), given the numbers `attnplay inspect --format json` wrote, draws
// the very SVG `attnplay inspect --format svg` wrote (gradient ids aside): the CLI and the
// playground's Download give the same figure. Otherwise prints the first differing line, exits 1.
import { readFileSync } from 'node:fs';
import { figureSVG } from '../../web/src/charts/figure-svg.js';

const [jsonFile, svgFile] = process.argv.slice(2);
const d = JSON.parse(readFileSync(jsonFile, 'utf8'));
const figure = {
  kind: 'heatmap', title: d.title, xLabel: d.x_label, yLabel: d.y_label, quantity: d.quantity, note: d.note,
  matrix: d.values.map((r) => r.map((v) => (v === null ? -Infinity : v))),
  rowLabels: d.row_labels ?? undefined, colLabels: d.col_labels ?? undefined,
  lo: d.range[0], hi: d.range[1], diverging: d.diverging,
  side: d.side ? { label: d.side.label, values: d.side.values } : undefined,
};
const norm = (s) => s.replace(/id="[^"]*"/g, 'id=""').replace(/url\(#[^)]*\)/g, 'url(#)').split('\n');
const page = norm(figureSVG(figure));
const cli = norm(readFileSync(svgFile, 'utf8'));
for (let i = 0; i < Math.max(page.length, cli.length); i++)
  if (page[i] !== cli[i]) {
    console.error(`line ${i + 1} differs:\n  page: ${page[i]}\n  cli:  ${cli[i]}`);
    process.exit(1);
  }
console.log(`the same SVG (${cli.length} lines)`);
