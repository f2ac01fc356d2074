// The line charts' shared part (web/src/charts/line-chart-base.js) under Node: what both renderers
// (the pages' uPlot LineChart and the widget's LightLineChart) draw comes from here, so these
// checks cover the light chart's data as well as the pages'. No DOM: a renderer that records redraws.
import test from 'node:test';
import assert from 'node:assert/strict';
import { LineChartBase, PINNED_COLORS } from '../../web/src/charts/line-chart-base.js';

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
  assert.deepEqual(c.lines().map((l) => l.name), ['train'], 'before any data: the first series, so the legend says what comes');
  c.addDataPoint(1, { train: 2 });
  c.addDataPoint(2, { train: 1.5 });
  c.addDataPoint(2, { eval: 1.7 });
  assert.deepEqual(c.redraws, ['series', 'data', 'series']);
  assert.deepEqual(c.lines().map((l) => l.name), ['train', 'eval']);
  assert.deepEqual(c.columns(), [[1, 2], [2, 1.5], [null, 1.7]]);
});

test('pin: the run stays under its label, dashed and in other colours; columns align both runs', () => {
  const c = new Recorder({ title: 'loss', series: SERIES() });
  c.addDataPoint(0, { train: 3 });
  c.addDataPoint(10, { train: 1 });
  c.pin('pinned: position=learned');
  c.addDataPoint(5, { train: 2 });
  const lines = c.lines();
  assert.deepEqual(lines.map((l) => [l.name, l.pinned]), [['train', false], ['train · pinned: position=learned', true]]);
  assert.equal(lines[1].color, PINNED_COLORS[0]);
  assert.deepEqual(lines[1].dash, [6, 3]);
  assert.deepEqual(c.columns(), [[0, 5, 10], [null, 2, null], [3, null, 1]]);
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
  assert.deepEqual(c.columns(), [[1, 2], [null, 4]]);
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
