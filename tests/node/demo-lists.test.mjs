// The demos' lists of encodings and normalizations (web/src/demos/lists.js): from the registry's
// flags, every registered encoding, so that a new one appears in the demos without an edit.
import test from 'node:test';
import assert from 'node:assert/strict';
import { demoLists, probeModels } from '../../web/src/demos/lists.js';

const names = [
  'none',
  'learned',
  'sinusoidal',
  'rope',
  'alibi',
  't5_bias',
  'shaw',
  'contextual1',
  'contextual2',
  'urpe',
  'xpos',
  'fire',
];
const norms = [
  'softmax',
  'l2',
  'relu2',
  'swish_l2',
  'exp',
  'sigmoid',
  'softmax1',
  'sink',
  'topk',
  'stick_breaking',
  'cosine',
  'linear',
  'performer',
];
const rowOne = ['softmax', 'topk', 'cosine', 'linear', 'performer'];
const registry = (flags) => ({
  positions: names.map((name) => ({
    name,
    extrapolates: name !== 'learned',
    logits_only: false,
    ...(flags && { biases_logits: false }),
  })),
  normalizations: norms.map((name) => ({ name, row_sum: rowOne.includes(name) ? 'one' : 'varies' })),
});

test("the page's registry: every encoding in the permutation and extrapolation demos, the probe grid 8 × 6", () => {
  const l = demoLists();
  assert.ok(l.permutation.length >= 20 && !l.permutation.includes('none'));
  assert.deepEqual(l.extrapolation, ['none', ...l.permutation]);
  assert.deepEqual(l.extrapolationDefault, ['none', 'learned', 'sinusoidal', 'rope', 'alibi', 't5_bias']);
  assert.equal(l.probePositions.length * l.probeNormalizations.length, 48, 'the bidirectional probe grid is 8 × 6');
  assert.deepEqual(l.probeNormalizations, ['softmax', 'l2', 'relu2', 'sigmoid', 'softmax1', 'sink']);
  assert.deepEqual(l.probeCausalNormalizations, ['stick_breaking'], 'a column with the causal mask only');
  assert.equal(probeModels(l), 144, "the probe page's description: 8 × 6 × 3 seeds");
});

test('with the flags: a new encoding appears in the permutation and extrapolation demos', () => {
  const r = registry(true);
  r.positions.push({ name: 'brand_new', extrapolates: true, logits_only: true, biases_logits: true });
  const l = demoLists(r);
  assert.ok(l.permutation.includes('brand_new'));
  assert.ok(!l.permutation.includes('none'), 'the permutation demo checks encodings against none');
  assert.ok(l.extrapolation.includes('brand_new'));
  assert.deepEqual(l.extrapolationDefault, ['none', 'learned', 'sinusoidal', 'rope', 'alibi', 't5_bias']);
});

test('names the registry does not have are dropped', () => {
  const r = registry(true);
  r.positions = r.positions.filter((e) => e.name !== 'xpos');
  r.normalizations = r.normalizations.filter((e) => e.name !== 'sigmoid');
  const l = demoLists(r);
  assert.ok(!l.permutation.includes('xpos'));
  assert.ok(!l.probeNormalizations.includes('sigmoid'));
});

test("the probe columns carry the registry's row-sum property", () => {
  const l = demoLists(registry(true));
  assert.equal(l.rowSum.softmax, 'one');
  assert.equal(l.rowSum.sink, 'varies');
  assert.equal(l.rowSum.stick_breaking, 'varies');
  assert.equal(l.rowSum.topk, 'one');
});
