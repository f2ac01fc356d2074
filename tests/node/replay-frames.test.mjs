// web/src/run/replay.js without a browser: frames are fetched once and cached, a step the core
// thinned out leaves the cache, a rollback (latest going back) empties it, a new model starts
// over, and nearestIndex finds a thinned step's neighbour.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReplayFrames } from '../../web/src/run/replay.js';
import { nearestIndex } from '../../web/src/common/nearest.js';

/** A fake model whose index the test sets; counts frame requests. */
function source(steps) {
  const src = {
    steps,
    fetched: 0,
    replayIndex: async () => ({ steps: src.steps, latest: src.steps.at(-1) }),
    replayFrame: async (step) => ((src.fetched += 1), { step }),
  };
  return src;
}

test('frames are cached until thinned, rolled back or the model changes', async () => {
  const src = source([0, 1, 2, 4]);
  const r = new ReplayFrames();
  r.setModel(/** @type {any} */ (src));
  assert.deepEqual(await r.refresh(), [0, 1, 2, 4]);
  assert.equal((await r.frame(2)).step, 2);
  await r.frame(2);
  assert.equal(src.fetched, 1, 'the second read comes from the cache');
  assert.equal((await r.all()).length, 4);
  assert.equal(src.fetched, 4);
  src.steps = [0, 2, 8]; // 1 and 4 thinned out
  await r.refresh();
  assert.deepEqual(
    [...r.cache.keys()].sort((a, b) => a - b),
    [0, 2],
  );
  src.steps = [0, 2, 5]; // latest went back: another trajectory
  await r.refresh();
  assert.equal(r.cache.size, 0);
  r.setModel(null);
  assert.deepEqual(await r.refresh(), []);
});

test('nearestIndex picks the closest kept step', () => {
  assert.equal(nearestIndex([0, 1, 2, 4, 8, 16], 5), 3);
  assert.equal(nearestIndex([0, 1, 2, 4, 8, 16], 100), 5);
  assert.equal(nearestIndex([], 3), 0);
});
