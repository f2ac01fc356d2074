// The widget's step(n) queue (web/src/widgets/step-queue.js): one step(n) runs, at most one waits,
// later calls join the waiting one up to MAX_WAITING steps and are refused beyond it; cancel()
// drops the waiting steps. The worker is a stand-in whose step calls resolve when the test says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_WAITING, StepQueue } from '../../web/src/widgets/step-queue.js';

/** A stand-in for run.train: records each n, resolves (true, or false = cancelled) on demand. */
function worker() {
  const calls = [];
  const run = (n) => new Promise((resolve) => calls.push({ n, resolve }));
  return { calls, run };
}
const settle = () => new Promise((r) => setImmediate(r));

test('one runs, one waits: calls made meanwhile add up in the waiting one', async () => {
  const w = worker();
  const q = new StepQueue(w.run);
  const a = q.add(10000);
  const b = q.add(6000);
  const c = q.add(4000);
  assert.deepEqual(
    w.calls.map((x) => x.n),
    [10000],
    'only the first goes to the worker',
  );
  assert.equal(q.waiting.n, 10000);
  assert.equal(q.add(1), null, 'past MAX_WAITING: refused');
  assert.equal(MAX_WAITING, 10000);
  w.calls[0].resolve(true);
  assert.equal(await a, true);
  await settle();
  assert.deepEqual(
    w.calls.map((x) => x.n),
    [10000, 10000],
    'the waiting sum runs as one step(n)',
  );
  assert.equal(q.waiting, null);
  w.calls[1].resolve(true);
  assert.deepEqual([await b, await c], [true, true]);
  await settle();
  assert.equal(q.busy, false);
});

test('three step(10000): the third is refused; cancel drops the waiting one', async () => {
  const w = worker();
  const q = new StepQueue(w.run);
  const first = q.add(10000);
  const second = q.add(10000);
  assert.equal(q.add(10000), null);
  q.cancel();
  assert.equal(await second, false, 'the waiting call resolves false');
  w.calls[0].resolve(false); // the worker's pause halted the running one
  assert.equal(await first, false);
  await settle();
  assert.equal(w.calls.length, 1, 'nothing more reaches the worker');
  assert.equal(q.busy, false);
  // After a cancel the queue works as new.
  const again = q.add(5);
  assert.equal(w.calls.at(-1).n, 5);
  w.calls.at(-1).resolve(true);
  assert.equal(await again, true);
});

test('a failing step (the model went away) frees the queue', async () => {
  const q = new StepQueue(() => Promise.reject(new Error('model disposed')));
  assert.equal(await q.add(3), false);
  await settle();
  assert.equal(q.busy, false);
});

test('idle() resolves once the running and the waiting steps are done (setConfig waits for it)', async () => {
  const w = worker();
  const q = new StepQueue(w.run);
  let idle = false;
  await q.idle(); // nothing queued: at once
  q.add(5);
  q.add(3);
  q.idle().then(() => (idle = true));
  await settle();
  assert.equal(idle, false, 'not while the first runs');
  w.calls[0].resolve(true);
  await settle();
  assert.equal(idle, false, 'not while the waiting ones run');
  assert.deepEqual(
    w.calls.map((x) => x.n),
    [5, 3],
  );
  w.calls[1].resolve(true);
  await settle();
  assert.equal(idle, true);
  assert.equal(q.busy, false);
});
