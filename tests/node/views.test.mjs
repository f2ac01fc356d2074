// Pure logic of the playground's views under Node: heatmap axis-label thinning, what an attention
// map's colour scale says, why a longer evaluation is missing, and when a run counts as solved.
import test from 'node:test';
import assert from 'node:assert/strict';
import { thinning } from '../../web/src/charts/heatmap.js';
import { scaleNote } from '../../web/src/panels/attention-panel.js';
import { loadMessages, translator } from '../../web/src/common/messages.js';
import { unaddressable, solvedBy, SOLVED } from '../../web/src/pages/playground/run-notes.js';

test('thinning: labels of 2 digits on 10 px cells are drawn every 2nd or 3rd cell, never touching', () => {
  assert.equal(thinning(18, 12), 1, 'wide cells: every label');
  for (const [cell, need] of [
    [10, 16],
    [6, 16],
    [3.5, 20],
    [1, 15],
  ]) {
    const k = thinning(cell, need);
    assert.ok(k * cell >= need, `every ${k} cells of ${cell}px hold ${need}px`);
    assert.ok((k - 1) * cell < need, `and no sparser than needed (${k})`);
  }
});

test("scaleNote: says the range is the map's own maximum, and the row sums when they are not 1", async () => {
  await loadMessages('en', ['widget']);
  const en = translator('en');
  const softmax = { weights: [[1]], logits: [[0]], row_sums: [1, 1, 0.99999] };
  assert.equal(scaleNote(softmax, false, en), "0 to this map's largest weight; rows sum to 1");
  const l2 = { weights: [[1]], logits: [[0]], row_sums: [1.0, 2.87, 1.5] };
  assert.equal(scaleNote(l2, false, en), "0 to this map's largest weight; rows sum to 1.00–2.87");
  assert.match(scaleNote(l2, true, en), /largest \|logit\|/);
});

test('unaddressable: learned positions cannot be evaluated past their table; other encodings can', () => {
  const info = (c) => ({ config: { seq_len: 16, eval_len: 32, max_len: 0, position: 'learned', ...c } });
  assert.match(unaddressable(info({})), /stop at length 16, .*cannot address length 32 \(set max_len ≥ 32/);
  assert.match(unaddressable(info({ max_len: 24 })), /stop at length 24/);
  assert.equal(unaddressable(info({ max_len: 40 })), null);
  assert.equal(unaddressable(info({ position: 'rope' })), null);
  assert.equal(unaddressable(info({ eval_len: 0 })), null, 'no longer evaluation: nothing to explain');
});

test('solvedBy: the first held-out evaluation at the training length reaching the threshold', () => {
  const e = (step, length, acc) => ({
    step,
    length,
    token_accuracy: acc,
    loss: 0,
    sequence_accuracy: 0,
    bits_per_token: 0,
  });
  assert.equal(solvedBy([e(50, 16, 0.5), e(50, 32, 1)], 16), undefined, 'a longer length does not count');
  assert.equal(solvedBy([e(50, 16, 0.98), e(100, 16, SOLVED), e(150, 16, 1)], 16).step, 100);
});
