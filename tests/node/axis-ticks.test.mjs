// An axis tick under a step of 0.001 (charts/format.js smallTick, the uPlot charts' y axis): uPlot's
// own format (Intl, at most 3 fraction digits) wrote the extrapolation demo's loss axis, ticks
// 0.00025 apart, as "0.001, 0, 0, 0". Each tick is written short (an exponent) with the digits its
// step needs; larger steps keep uPlot's format (null).
import test from 'node:test';
import assert from 'node:assert/strict';
import { smallTick } from '../../web/src/charts/format.js';

test('ticks under a step of 0.001 keep the digits their step needs, in a short form', () => {
  assert.deepEqual(
    [0, 0.00025, 0.0005, 0.00075, 0.001].map((v) => smallTick(v, 0.00025)),
    ['0', '2.5e-4', '5.0e-4', '7.5e-4', '1.0e-3'],
  );
  assert.deepEqual(
    [0.0002, 0.0004].map((v) => smallTick(v, 0.0002)),
    ['2e-4', '4e-4'],
  );
  assert.equal(smallTick(3e-7, 1e-7), '3e-7');
  const shown = [0, 0.00025, 0.0005, 0.00075].map((v) => smallTick(v, 0.00025));
  assert.equal(new Set(shown).size, shown.length, 'no two ticks read the same');
});

test('steps of 0.001 and more keep the axis format', () => {
  for (const step of [0.001, 0.25, 1, 500, 0, NaN]) assert.equal(smallTick(0.5, step), null, `step ${step}`);
});
