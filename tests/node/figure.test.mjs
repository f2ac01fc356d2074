// The figure files without a page (web/src/charts/figure-layout.js, figure-svg.js): the SVG is
// well-formed XML (python3's parser) with one <rect class="cell"> per entry, axis titles and a
// colour bar; text from the data is escaped (a label "<script>" stays text); the JSON holds the
// numbers (masked entries null) and the CSV the matrix with labels, formula-looking text defused.
import test from 'node:test';
import assert from 'node:assert/strict';
import { figureSVG, figureData, figureCSV, csvCell, xmlEscape } from '../../web/src/charts/figure-svg.js';
import { layout, ticks, cellColor } from '../../web/src/charts/figure-layout.js';
import { parseSvg } from './figure-files.mjs';

const T = 5;
const attention = () => {
  const m = Array.from({ length: T }, (_, i) => Array.from({ length: T }, (_, j) => (j <= i ? 1 / (i + 1) : 0)));
  return {
    kind: 'heatmap',
    title: 'Attention weights, layer 1, head 1',
    matrix: m,
    xLabel: 'key',
    yLabel: 'query',
    rowLabels: ['<script>', 'a&b', '"q"', '=1+1', 'x'],
    colLabels: ['<script>', 'a&b', '"q"', '=1+1', 'x'],
    quantity: 'weight',
    lo: 0,
    hi: 1,
    diverging: false,
    note: "0 to this map's largest weight; rows sum to 1",
    side: { label: 'Σ', values: m.map((r) => r.reduce((a, b) => a + b, 0)) },
  };
};

test('heatmap SVG: well-formed, T×T cells, axis titles, a colour bar, data escaped', () => {
  const svg = figureSVG(attention());
  const p = parseSvg(svg);
  assert.equal(p.count['rect.cell'], T * T);
  assert.equal(p.count['rect.colorbar'], 1);
  assert.equal(p.count.linearGradient, 1);
  assert.equal(p.count['text.x-title'], 1);
  assert.equal(p.count['text.y-title'], 1);
  assert.ok(p.texts.includes('key') && p.texts.includes('query'));
  assert.ok(p.texts.includes('<script>'), 'the label is text, as written');
  assert.ok(!svg.includes('<script>'), 'never markup');
  assert.ok(
    p.texts.includes('weight:') && p.texts.includes('0') && p.texts.includes('1'),
    'the scale names its quantity and its ends',
  );
});

test('masked entries are grey and said so; a diverging scale marks 0', () => {
  const f = {
    ...attention(),
    matrix: [
      [1, -Infinity],
      [-2, 2],
    ],
    rowLabels: undefined,
    colLabels: undefined,
    side: undefined,
    lo: -2,
    hi: 2,
    diverging: true,
  };
  const p = parseSvg(figureSVG(f));
  assert.ok(p.texts.includes('grey: masked (−∞)'));
  assert.equal(cellColor(f, -Infinity), 'rgb(218,220,224)');
  assert.equal(cellColor(f, 0), 'rgb(247,247,247)', 'white at 0');
  assert.deepEqual(figureData(f).values, [
    [1, null],
    [-2, 2],
  ]);
});

test('JSON: the numbers, labels, range and row sums behind the map', () => {
  const f = attention();
  const d = figureData(f);
  assert.equal(d.format, 'attnplay-figure');
  assert.equal(d.rows, T);
  assert.equal(d.cols, T);
  assert.deepEqual(d.values, f.matrix);
  assert.deepEqual(d.range, [0, 1]);
  for (const r of d.values) assert.ok(Math.abs(r.reduce((a, b) => a + b, 0) - 1) < 1e-12);
  assert.equal(d.side.label, 'Σ');
});

test('CSV: header of column labels, one row per matrix row, text quoted and defused', () => {
  const lines = figureCSV(attention()).trimEnd().split('\n');
  assert.equal(lines.length, T + 1);
  assert.equal(lines[0], 'query \\ key,<script>,a&b,"""q""","\'=1+1",x,Σ');
  assert.equal(lines[4].split(',')[0], '"\'=1+1"');
  assert.equal(csvCell(-Infinity), '-inf');
  assert.equal(csvCell(null), '');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('@SUM(A1)'), '"\'@SUM(A1)"');
});

test('line plot SVG: one path per series, legend, axis titles, markers; JSON and CSV by x', () => {
  const f = {
    kind: 'lines',
    title: 'score against distance',
    xLabel: 'distance d',
    yLabel: 'score',
    xs: [0, 1, 2, 3],
    series: [
      { label: 'now', values: [1, 0.5, null, 0.2], color: '#1a73e8' },
      { label: 'init', values: [1, 0.9, 0.8, 0.7], color: '#e8710a', dash: [3, 3] },
    ],
    markers: [{ x: 2, label: 'm = 2' }],
  };
  const p = parseSvg(figureSVG(f));
  assert.equal(p.count['path.series'], 2);
  assert.equal(p.count['path.marker'], 1);
  assert.equal(p.count['text.legend'], 2);
  assert.ok(p.texts.includes('distance d') && p.texts.includes('score'));
  assert.deepEqual(figureData(f).series[0].values, [1, 0.5, null, 0.2]);
  assert.equal(figureCSV(f), 'distance d,now,init\n0,1,1\n1,0.5,0.9\n2,,0.8\n3,0.2,0.7\n');
  const bars = parseSvg(figureSVG({ ...f, bars: true, series: [f.series[1]] }));
  assert.equal(bars.count['rect.bar'], 4);
});

test('ticks are round numbers covering the range; xmlEscape drops characters XML forbids', () => {
  assert.deepEqual(ticks(0, 1), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(ticks(-3, 7), [-2, 0, 2, 4, 6]);
  assert.equal(xmlEscape('a\u0001<b>&"\''), 'a&lt;b&gt;&amp;&quot;&apos;');
  const L = layout(attention());
  assert.ok(L.width > 200 && L.height > 200);
});
