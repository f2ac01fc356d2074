// The "Accuracy against length" panel's pure parts (web/src/panels/lengths-panel.js): which
// lengths it evaluates, and how the engine's refusals are grouped for the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lengthsFor, refusals, FACTORS } from '../../web/src/panels/lengths-panel.js';

test('lengths: L to 4L in steps of L/4, rounded, without repeats', () => {
  assert.equal(FACTORS.length, 13);
  assert.deepEqual(lengthsFor(16), [16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64]);
  assert.deepEqual(lengthsFor(8), [8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32]);
  assert.deepEqual(lengthsFor(2), [2, 3, 4, 5, 6, 7, 8]); // 2.5 -> 3, 3.5 -> 4: repeats dropped
  assert.deepEqual(lengthsFor(1), [1, 2, 3, 4]);
});

test('refusals: one entry per distinct reason, with the lengths it covers, in order', () => {
  const points = [
    { length: 16, accuracy: 1, loss: 0.1 },
    { length: 20, accuracy: null, loss: null, reason: 'learned positions exist only for lengths up to 16' },
    { length: 24, accuracy: null, loss: null, reason: 'learned positions exist only for lengths up to 16' },
    { length: 28, accuracy: null, loss: null, reason: "task 'sort': sequence length T = 28 is outside [2, 24]" },
  ];
  assert.deepEqual(refusals(points), [
    { lengths: [20, 24], reason: 'learned positions exist only for lengths up to 16' },
    { lengths: [28], reason: "task 'sort': sequence length T = 28 is outside [2, 24]" },
  ]);
  assert.deepEqual(refusals(points.slice(0, 1)), []);
  // A reason that names its own length is one reason for all of them, worded for the first.
  const named = [20, 24].map((length) => ({
    length,
    accuracy: null,
    loss: null,
    reason: `up to 16, and this sequence has ${length} tokens`,
  }));
  assert.deepEqual(refusals(named), [{ lengths: [20, 24], reason: 'up to 16, and this sequence has 20 tokens' }]);
});
