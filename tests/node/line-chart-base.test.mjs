// The line charts' shared part (web/src/charts/line-chart-base.js) under Node: what both renderers
// (the pages' uPlot LineChart and the widget's LightLineChart) draw comes from here, so these
// checks cover the light chart's data as well as the pages'. No DOM: a renderer that records redraws.
import test from 'node:test';
import assert from 'node:assert/strict';
import { LineChartBase, PINNED_DASH, DRAW_ROWS } from '../../web/src/charts/line-chart-base.js';

class Recorder extends LineChartBase {
  redraws = [];
  redraw(kind) {
    this.redraws.push(kind);
  }
}

const SERIES = () => [
  { key: 'train', label: 'train', color: '#1a73e8' },
  { key: 'eval', label: 'eval', color: '#188038', points: true },
];

test('addDataPoint: series appear when they get data; a repeated x merges; missing keys are gaps', () => {
  const c = new Recorder({ title: 'loss', series: SERIES() });
  assert.deepEqual(
    c.lines().map((l) => l.name),
    ['train'],
    'before any data: the first series, so the legend says what comes',
  );
  c.addDataPoint(1, { train: 2 });
  c.addDataPoint(2, { train: 1.5 });
  c.addDataPoint(2, { eval: 1.7 });
  assert.deepEqual(c.redraws, ['series', 'data', 'series']);
  assert.deepEqual(
    c.lines().map((l) => l.name),
    ['train', 'eval'],
  );
  assert.deepEqual(c.columns(), [
    [1, 2],
    [2, 1.5],
    [null, 1.7],
  ]);
});

test("pin: the run stays under its label, dotted in its series' lighter colour; columns align both runs", () => {
  const c = new Recorder({ title: 'loss', series: SERIES() });
  c.addDataPoint(0, { train: 3 });
  c.addDataPoint(10, { train: 1 });
  c.pin('pinned: position=learned');
  c.addDataPoint(5, { train: 2 });
  const lines = c.lines();
  assert.deepEqual(
    lines.map((l) => [l.name, l.pinned]),
    [
      ['train', false],
      ['train · pinned: position=learned', true],
    ],
  );
  assert.equal(lines[1].color, '#1a73e899', "the series' hue, lighter: colour says which metric");
  assert.notEqual(lines[1].color, lines[0].color);
  assert.deepEqual(lines[1].dash, PINNED_DASH, 'dotted: the line style says which run');
  assert.equal(lines[0].dash, undefined, 'the current run stays solid');
  assert.deepEqual(c.columns(), [
    [0, 5, 10],
    [null, 2, null],
    [3, null, 1],
  ]);
  c.setPinnedLabel('pinned (same settings)');
  assert.equal(c.lines()[1].name, 'train · pinned (same settings)');
  c.unpin();
  assert.equal(c.lines().length, 1);
});

test('reset keeps the pinned run; setLabels renames; a log scale drops values <= 0', () => {
  const c = new Recorder({ title: 'loss', series: SERIES() });
  c.addDataPoint(1, { train: 0 });
  c.addDataPoint(2, { train: 4 });
  c.setLogScale(true);
  assert.deepEqual(c.columns(), [
    [1, 2],
    [null, 4],
  ]);
  c.setLogScale(true);
  assert.equal(c.redraws.filter((k) => k === 'rebuild').length, 1, 'no redraw when the scale does not change');
  c.pin('p');
  c.reset();
  assert.equal(c.pinned.label, 'p');
  c.setLabels({ eval: 'eval @ length 16' });
  assert.equal(c.series[1].label, 'eval @ length 16');
});

test('toCSV: one column per line, the pinned run included, labels quoted', () => {
  const c = new Recorder({ title: 'loss', series: SERIES(), xLabel: 'step' });
  c.addDataPoint(1, { train: 2, eval: 2.5 });
  c.pin('a "quoted" run');
  c.addDataPoint(2, { train: 1 });
  assert.equal(c.toCSV(), '"step","train","train · a ""quoted"" run","eval · a ""quoted"" run"\n1,,2,2.5\n2,1,,\n');
});

test('CSV: one row per step in step order, when evaluations arrive after later training steps', () => {
  // As the charts panel feeds it: a batch's training steps first, then its evaluations.
  const c = new Recorder({ title: 'loss', series: SERIES(), xLabel: 'step' });
  for (const [from, to, evals] of [
    [1, 60, [50]],
    [61, 130, [100]],
    [131, 150, [150]],
  ]) {
    for (let s = from; s <= to; s++) c.addDataPoint(s, { train: 1 / s });
    for (const e of evals) c.addDataPoint(e, { eval: e / 1000 });
  }
  c.addDataPoint(0, { eval: 9 }); // an evaluation before the first step goes first
  const rows = c
    .toCSV()
    .trim()
    .split('\n')
    .slice(1)
    .map((r) => r.split(','));
  const steps = rows.map((r) => Number(r[0]));
  assert.deepEqual(
    steps,
    Array.from({ length: 151 }, (_, i) => i),
    'each step once, ascending',
  );
  for (const e of [50, 100, 150])
    assert.equal(Number(rows[e][2]), e / 1000, `the evaluation of step ${e} on its step's row`);
  assert.equal(Number(rows[100][1]), 1 / 100, 'and the training value stays on that row');
  assert.equal(rows[0][1], '', 'no training value at step 0');
});

test('drawColumns: a long run is drawn from a bounded number of rows, spikes and evaluations kept', () => {
  const c = new Recorder({ title: 'loss', series: SERIES() });
  const n = 20000;
  for (let s = 1; s <= n; s++) {
    c.addDataPoint(s, { train: s === 12345 ? 50 : 1 + Math.sin(s / 100) });
    if (s % 50 === 0) c.addDataPoint(s, { eval: s });
  }
  const short = new Recorder({ title: 'loss', series: SERIES() });
  for (let s = 1; s <= 100; s++) short.addDataPoint(s, { train: s });
  assert.deepEqual(short.drawColumns(), short.columns(), 'a short run is drawn whole');
  const [xs, train, evals] = c.drawColumns();
  assert.ok(xs.length <= DRAW_ROWS + n / 50, `rows drawn: ${xs.length}`);
  assert.ok(xs.length < n / 4, `rows drawn: ${xs.length} of ${n}`);
  assert.deepEqual(
    xs,
    [...xs].sort((a, b) => a - b),
    'still in step order',
  );
  assert.equal(Math.max(...train.filter((v) => v !== null)), 50, 'the spike at step 12345 survives');
  assert.equal(evals.filter((v) => v !== null).length, n / 50, 'every evaluation point is drawn');
  assert.equal(xs[0], 1);
  assert.equal(xs[xs.length - 1], n);
  assert.equal(c.toCSV().trim().split('\n').length, n + 1, 'CSV keeps every step');
});

test('drawColumns kept incrementally equals drawing the final data afresh, edits to old steps included', () => {
  const grow = new Recorder({ title: 'loss', series: SERIES() });
  const feed = (c, from, to) => {
    for (let s = from; s <= to; s++) {
      c.addDataPoint(s, { train: Math.sin(s * 0.37) * (1 + (s % 97)) });
      if (s % 50 === 0) c.addDataPoint(s - 30, { eval: s / 7 }); // late evaluations, as batches bring them
    }
  };
  for (let s = 1; s <= 30000; s += 250) {
    feed(grow, s, s + 249);
    grow.drawColumns(); // as the page redraws after every batch
  }
  grow.addDataPoint(1234, { eval: 99 }); // an edit far behind the end: the kept buckets start over
  grow.addDataPoint(1234.5, { train: -500 }); // an insert there too
  const fresh = new Recorder({ title: 'loss', series: SERIES() });
  fresh.run = structuredClone(grow.run);
  fresh.shown = new Set(grow.shown);
  assert.deepEqual(grow.drawColumns(), fresh.drawColumns());
  const [xs, train] = grow.drawColumns();
  assert.ok(train.includes(-500) && xs.includes(1234.5), 'the inserted spike is drawn');
  assert.ok(xs.length < 3000, `rows drawn: ${xs.length}`);
});
