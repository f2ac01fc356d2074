// The threaded wasm build (build/wasm-threads: SIMD + pthreads on worker_threads) under Node:
// training on 2 threads gives BIT-IDENTICAL losses and model files to the single-threaded SIMD
// build for the same seed, and the thread count is checked (at most the workers the module
// started with; the other builds have no threads).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, sessionWith } from './load.mjs';

// Big enough that the GEMMs, the attention GEMMs and the row normalizations split (a causal
// model: the triangles too), small enough to train in a second.
const CONFIG = { task: 'random', vocab: 32, seq_len: 64, batch: 8, d_model: 32, heads: 4, layers: 2,
  ffn: 64, causal: true, position: 'learned', dropout: 0.1, eval_every: 0, seed: 5, steps: 100 };

const threaded = await loadModule('threads', { pthreadPoolSize: 1 });
after(() => threaded.unrefThreads?.());  // let Node exit while the pthread workers idle

/** The losses of `steps` steps and the model file after them. */
function trainWith(m, steps) {
  return sessionWith(m, CONFIG, (s) => {
    const losses = JSON.parse(s.train(steps)).steps.map((/** @type {{loss: number}} */ x) => x.loss);
    return { losses, bytes: s.save() };
  });
}

test('the threaded build trains bit-identically to the SIMD build on 2 threads', async () => {
  const simd = await loadModule('simd');
  assert.equal(threaded.threadsSupported(), true);
  assert.equal(simd.threadsSupported(), false);
  assert.equal(threaded.simdArch(), 'sse4.1');
  threaded.setThreads(2);
  assert.equal(threaded.threads(), 2);
  const one = trainWith(simd, 6), two = trainWith(threaded, 6);
  assert.deepEqual(two.losses, one.losses);
  assert.ok(Buffer.from(two.bytes).equals(Buffer.from(one.bytes)), 'the model files differ');
  threaded.setThreads(1);  // and back: the same again
  assert.deepEqual(trainWith(threaded, 6).losses, one.losses);
});

test('the thread count is checked: at most the pool + 1, and no threads in the other builds', async () => {
  // Refused, and the setting is unchanged. (Known issue: in the threaded build a C++ exception is
  // not caught by the engine's own handlers and reaches JS as a bare WebAssembly.Exception without
  // its message, which is why the playground runs it only when asked, ?threads=1; the SIMD
  // build's messages are checked below.)
  threaded.setThreads(2);
  assert.throws(() => threaded.setThreads(3));
  assert.throws(() => threaded.setThreads(0));
  assert.equal(threaded.threads(), 2);
  threaded.setThreads(1);
  const simd = await loadModule('simd');
  assert.throws(() => simd.setThreads(0), /threads: 0 is out of range; use 1\.\.16/);
  assert.throws(() => simd.setThreads(2), /this build has no threads/);
  simd.setThreads(1);
  assert.equal(simd.threads(), 1);
});
