// The experiments page's numbers (web/src/pages/experiments/format.js): a mean and its sd are
// written to the same precision, the sd's second significant digit, so that a table's rows read
// alike ("67.00 ± 0.40" next to "44.0 ± 2.5", never "67 ± 0.402"); bytes in one unit; accuracies
// in percent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { meanSd, fmt } from '../../web/src/pages/experiments/format.js';

test('mean ± sd share one precision, set by the sd', () => {
  assert.equal(meanSd('eval_loss', { mean: 67, sd: 0.402 }), '67.00 ± 0.40');
  assert.equal(meanSd('eval_loss', { mean: 44, sd: 2.5 }), '44.0 ± 2.5');
  assert.equal(meanSd('eval_loss', { mean: 70.5, sd: 2.14 }), '70.5 ± 2.1');
  assert.equal(meanSd('eval_bpc', { mean: 1.92, sd: 0.031 }), '1.920 ± 0.031');
  assert.equal(meanSd('steps_per_s', { mean: 1234.5, sd: 56 }), '1,235 ± 56');
});

test("bytes in the mean's unit, accuracies in percent, no sd: the mean alone", () => {
  assert.equal(meanSd('peak_memory_bytes', { mean: 40.3e6, sd: 0 }), '40.3 ± 0.0 MB');
  assert.equal(meanSd('peak_memory_bytes', { mean: 512000, sd: 1200 }), '512.0 ± 1.2 KB');
  assert.equal(meanSd('eval_accuracy', { mean: 0.5, sd: 0.02 }), '50.0% ± 2.0');
  assert.equal(meanSd('eval_loss', { mean: 1.5, sd: NaN }), fmt('eval_loss', 1.5));
  assert.equal(meanSd('eval_loss', null), '–');
});
