// The threaded wasm build (build/wasm-threads: SIMD + pthreads on worker_threads) under Node:
// training on 2 threads gives BIT-IDENTICAL losses and model files to the single-threaded SIMD
// build for the same seed, the thread count is checked (at most the workers the module started
// with; the other builds have no threads), and bad input gets the same Error messages as in the
// SIMD build (core/bindings/wasm_eh_threads.cpp: typed catch clauses work under -pthread).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, sessionWith } from './load.mjs';

// Big enough that the GEMMs, the attention GEMMs and the row normalizations split (a causal
// model: the triangles too), small enough to train in a second.
const CONFIG = {
  task: 'random',
  vocab: 32,
  seq_len: 64,
  batch: 8,
  d_model: 32,
  heads: 4,
  layers: 2,
  ffn: 64,
  causal: true,
  position: 'learned',
  dropout: 0.1,
  eval_every: 0,
  seed: 5,
  steps: 100,
};

const threaded = await loadModule('threads', { pthreadPoolSize: 1 });
after(() => threaded.unrefThreads?.()); // let Node exit while the pthread workers idle

/** The losses of `steps` steps and the model file after them. */
function trainWith(m, steps) {
  return sessionWith(m, CONFIG, (s) => {
    const losses = JSON.parse(s.trainChunk(steps)).steps.map((/** @type {{loss: number}} */ x) => x.loss);
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
  const one = trainWith(simd, 6),
    two = trainWith(threaded, 6);
  assert.deepEqual(two.losses, one.losses);
  assert.ok(Buffer.from(two.bytes).equals(Buffer.from(one.bytes)), 'the model files differ');
  threaded.setThreads(1); // and back: the same again
  assert.deepEqual(trainWith(threaded, 6).losses, one.losses);
});

test('the thread count is checked: at most the pool + 1, and no threads in the other builds', async () => {
  // Refused with its reason, and the setting is unchanged.
  threaded.setThreads(2);
  assert.throws(
    () => threaded.setThreads(3),
    /^Error: threads: 3 is more than the 2 this module started workers for; use 1\.\.2$/,
  );
  assert.throws(() => threaded.setThreads(0), /^Error: threads: 0 is out of range; use 1\.\.16$/);
  assert.equal(threaded.threads(), 2);
  threaded.setThreads(1);
  const simd = await loadModule('simd');
  assert.throws(() => simd.setThreads(0), /threads: 0 is out of range; use 1\.\.16/);
  assert.throws(() => simd.setThreads(2), /this build has no threads/);
  simd.setThreads(1);
  assert.equal(simd.threads(), 1);
});

/** What calling f(module) did: its result, or the thrown value's class and message. */
function outcome(m, f) {
  try {
    return { returned: f(m) };
  } catch (e) {
    return { threw: e?.constructor?.name, message: e?.message };
  }
}

// Each throws a C++ std::invalid_argument (or a JSON error) inside the engine, caught by its
// typed handlers (bindings.cpp's guarded and check_config, and the engine's own catch clauses).
// Under -pthread these once let the exception through as a bare WebAssembly.Exception.
const BAD_INPUT = {
  'an invalid config field': (m) => new m.Session(JSON.stringify({ ...CONFIG, heads: 3 })),
  'an unknown task': (m) => new m.Session(JSON.stringify({ ...CONFIG, task: 'nope' })),
  'a config that is not JSON': (m) => new m.Session('nope'),
  'checkConfig of an invalid field (returns the message)': (m) => m.checkConfig(JSON.stringify({ ...CONFIG, lr: -1 })),
  'a truncated model file': (m) => m.Session.load(new Uint8Array([1, 2, 3])),
  'a live change of a fixed field': (m) => sessionWith(m, CONFIG, (s) => s.configure('{"d_model": 64}')),
  'a token outside the vocabulary': (m) => sessionWith(m, CONFIG, (s) => s.run('[1, 2, 300]')),
};

test('bad input gets the same clear Error from the threaded build as from the SIMD build', async () => {
  const simd = await loadModule('simd');
  threaded.setThreads(2);
  for (const [what, f] of Object.entries(BAD_INPUT)) {
    const one = outcome(simd, f),
      two = outcome(threaded, f);
    assert.ok(one.threw === 'Error' || /"ok":false/.test(one.returned), `${what}: the SIMD build accepted it`);
    assert.ok(one.message !== '' && (one.message ?? one.returned).length > 10, `${what}: no message`);
    assert.deepEqual(two, one, what);
  }
  assert.throws(
    () => new threaded.Session(JSON.stringify({ ...CONFIG, heads: 3 })),
    /^Error: d_model: 32 is not divisible by heads = 3/,
  );
  // and the module lives on: it still trains bit-identically
  assert.deepEqual(trainWith(threaded, 3).losses, trainWith(simd, 3).losses);
  threaded.setThreads(1);
});
