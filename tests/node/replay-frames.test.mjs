// web/src/run/replay.js without a browser: frames are fetched once and cached, a step the core
// thinned out leaves the cache, a rollback (latest going back) empties it, a new model starts
// over, and nearestIndex finds a thinned step's neighbour.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReplayFrames } from '../../web/src/run/replay.js';
import { nearestIndex } from '../../web/src/common/nearest.js';
import { refusalError } from '../../web/src/common/refusal.js';

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

/**
 * A fake model that trains between requests (issue 44): each request first moves `latest` on and
 * thins the kept steps as `thin` says; a step neither kept nor the latest is refused with the
 * core's code and parameters (core/session/replay.cpp Replay::frame: replay.no_frame).
 */
function training(kept, latest, thin) {
  const src = {
    kept,
    latest,
    fetched: [],
    replayIndex: async () => ({ steps: [...src.kept, src.latest], latest: src.latest }),
    replayFrame: async (step) => {
      thin(src);
      if (!src.kept.includes(step) && step !== src.latest) {
        const steps = src.kept.join(' ');
        const params = { step: String(step), latest: String(src.latest), ...(steps ? { steps } : {}) };
        const code = steps ? 'replay.no_frame' : 'replay.no_frame_latest';
        throw refusalError(`replay: no frame at step ${step} …`, { code, field: '', params });
      }
      src.fetched.push(step);
      return { step };
    },
  };
  return src;
}

test('a step thinned out since the index was read gives the nearest kept frame, not an error', async () => {
  const src = training([0, 1, 2, 3, 4, 6, 8, 9, 12, 16], 20, (s) => {
    s.latest += 7;
    s.kept = s.kept.filter((k) => k === 0 || (k & (k - 1)) === 0); // powers of 2 (and 0) stay
  });
  const r = new ReplayFrames();
  r.setModel(/** @type {any} */ (src));
  await r.refresh();
  const f = await r.frame(9); // gone by the time it is asked for: 8 is the nearest kept step
  assert.equal(f.step, 8);
  assert.deepEqual(r.steps, [0, 1, 2, 4, 8, 16, 27], 'the index the refusal named');
  assert.equal((await r.frame(3)).step, 2, 'a tie goes to the earlier step');
});

test('all() while training: real frames, each once, in step order', async () => {
  let n = 0;
  const power = (/** @type {number} */ k) => k === 0 || (k & (k - 1)) === 0;
  const src = training([0, 1, 2, 3, 4, 5, 6, 7, 8], 9, (s) => {
    if (power(s.latest)) s.kept.push(s.latest); // a step on the grid is kept
    s.latest += 3;
    n += 1;
    if (n % 3 === 0) s.kept = s.kept.filter(power); // thinned every third request
  });
  const r = new ReplayFrames();
  r.setModel(/** @type {any} */ (src));
  for (let round = 0; round < 5; round++) {
    const frames = await r.all();
    const steps = frames.map((f) => f.step);
    assert.ok(steps.length >= 2, `round ${round}: ${steps}`);
    for (let k = 1; k < steps.length; k++) assert.ok(steps[k] > steps[k - 1], `round ${round}: in order: ${steps}`);
    for (const f of frames)
      assert.ok(src.fetched.includes(f.step), `round ${round}: ${f.step} is a frame the model gave`);
  }
});
