// The experiments page's grid links refused in words, without a browser (moved from
// tests/browser/experiments.test.mjs, which keeps one page that shows such a refusal as text): a
// grid above the bound, an axis that is not a setting, steps out of range, a part that is not a
// grid's, a value above its field's maximum and an oversized link. Each link goes the way the page
// reads it (grid-builder.js): hashToSpec, then gridRuns on the engine's registry.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule } from './load.mjs';
import { buildProperties } from '../../web/src/state/properties.js';
import { hashToSpec, gridRuns } from '../../web/src/pages/experiments/grid-state.js';
import REGISTRY from '../../web/src/state/registry.gen.js';

let registry;
let props;
before(async () => {
  const m = await loadModule('simd');
  registry = REGISTRY;
  props = buildProperties(registry);
});

/** What the page says of a link's grid: the link's error, or why its grid cannot be trained ('' when it can). */
function refusal(hash) {
  const read = hashToSpec(hash);
  if ('error' in read) return read.error;
  return gridRuns(read.spec, props, registry).errors.join('; ');
}

test('a grid above the bound and tampered links are refused in words', () => {
  const cases = [
    [
      '#task=copy&a=position&av=none,rope,learned,sinusoidal,alibi,t5_bias&b=seq_len&bv=4,6,8,10,12,16&metric=acc1&seeds=2&steps=30',
      /6 × 6 cells × 2 seeds = 72 runs; a grid in the browser trains at most 36/,
    ],
    [
      '#task=copy&a=bogus&av=1,2&b=seq_len&bv=8&metric=acc1&seeds=1&steps=30',
      /the first axis "bogus" is not a setting a grid can vary/,
    ],
    [
      '#task=copy&a=position&av=none&b=seq_len&bv=8&metric=acc1&seeds=1&steps=99999999',
      /steps "99999999" is not a whole number from 1 to 3000/,
    ],
    [
      '#task=copy&a=position&av=none&b=seq_len&bv=8&metric=acc1&seeds=1&steps=30&%3Cimg%3E=1',
      /"<img>", which is not part of a grid/,
    ],
    [
      '#task=copy&a=position&av=none&b=seq_len&bv=99999&metric=acc1&seeds=1&steps=30',
      /seq_len=99999: above the maximum/,
    ],
    [`#task=copy&a=position&av=${'x'.repeat(700)}`, /at most 600 are read/],
  ];
  for (const [hash, words] of cases) assert.match(refusal(hash), words, hash.slice(0, 80));
  // A grid within the bound trains: nothing to refuse.
  assert.equal(refusal('#task=copy&a=position&av=none,rope&b=seq_len&bv=6,8&metric=acc1&seeds=1&steps=30'), '');
});
