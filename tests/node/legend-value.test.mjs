// web/src/charts/legend-value.js without a browser: the pages' chart legend off the chart on a
// chart of lengths (the extrapolation demo): each series' value at the length the legend shows,
// and '–' for a series measured but not at that length (learned positions past their table); at
// the cursor, a value only where the series was measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legendValue } from '../../web/src/charts/legend-value.js';

// x: lengths 16, 32, 64 (a series drawn a little apart: 16.2); learned has a value at 16 only.
const xText = (x) => String(Math.round(x / 16) * 16);
const plot = (idx = null) => ({
  legend: { idx },
  data: [
    [16, 16.2, 32, 32.2, 64, 64.2],
    [1, null, null, null, null, null], // learned
    [null, 0.98, null, 0.9, null, 0.5], // rope
    [null, null, null, null, null, null], // nothing yet
  ],
});

test('off the chart: the length shown, each series there, "–" where it is not defined', () => {
  const value = legendValue(xText);
  const u = plot();
  assert.equal(value(u, null, 0, null), '64', 'the evaluation length shown');
  assert.equal(value(u, null, 1, null), '–', 'learned: not defined at 64 (its value at 16 is not shown)');
  assert.equal(value(u, null, 2, null), '0.5', 'rope at 64');
  assert.equal(value(u, null, 3, null), '', 'a series with no value yet');
});

test('at the cursor: a value only where the series was measured', () => {
  const value = legendValue(xText);
  const u = plot(0);
  assert.equal(value(u, 1, 1, 0), '1');
  assert.equal(value(u, 0.98, 2, 1), '0.98', 'rope at 16.2: the same length');
});

test('a chart of steps (no xText): the latest value of each series', () => {
  const value = legendValue(undefined);
  const u = plot();
  assert.equal(value(u, null, 1, null), '1');
  assert.equal(value(u, null, 2, null), '0.5');
});
