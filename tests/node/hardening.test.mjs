// Bad input at the wasm boundary and in the worker's session host, under Node: hostile model
// files and configs throw Errors with readable messages and the module stays usable; a live
// session's optimizer fields change through Session.configure (others are refused); the worker's
// chunk size adapts to the measured time per step so that the page stays responsive.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, sessionWith } from './load.mjs';
import { ModuleSession, TARGET_MS } from '../../web/src/worker/session.js';

let m;
before(async () => {
  m = await loadModule('simd');
});

const TINY = { task: 'copy', d_model: 16, heads: 2, layers: 1, ffn: 16, batch: 2, seq_len: 8, eval_every: 0, seed: 3 };

const withSession = (config, f) => sessionWith(m, config, f);

test('checkConfig(): non-finite and out-of-range numbers name the field', () => {
  const err = (text) => JSON.parse(m.checkConfig(text)).error;
  // JSON cannot hold infinity: 1e999 is refused by the parser, with where it stopped.
  assert.match(err('{"task":"copy","lr":1e999}'), /^config: not valid JSON.*1e999/);
  assert.match(err('{"task":"copy","memory_limit_mb":0}'), /^memory_limit_mb: 0 is out of range/);
  assert.match(err('{"task":"copy","rope_base":"big"}'), /^rope_base: 'big' is not allowed/);
  assert.match(err('{"task":"copy","vocab":"ten"}'), /^vocab: 'ten' is not allowed; expected a whole number/);
  assert.match(err('{"task":"copy","position":"rope","d_model":18,"heads":2}'), /^heads: .*even/);
  assert.match(err('{"task":"copy","batch":4096,"seq_len":4096,"d_model":1024}'), /^memory: .*memory_limit_mb/);
  // A model whose file no loader would read back (the page's import included) is refused up front.
  assert.match(
    err('{"task":"copy","d_model":512,"heads":8,"layers":8,"ffn":2048,"batch":1}'),
    /^model size: d_model=512, layers=8, ffn=2048 .*above the limit of 256 MiB/,
  );
});

test('Session.load(): truncated and corrupted model files throw, the module lives on', () => {
  const bytes = withSession(TINY, (s) => {
    s.trainChunk(2);
    return s.save();
  });
  for (const n of [0, 7, 8, 100, bytes.length - 1]) {
    assert.throws(() => m.Session.load(bytes.slice(0, n)), /^Error: model file/, `first ${n} bytes`);
  }
  const corrupt = bytes.slice();
  corrupt[3] = 0x7f; // a header length of petabytes
  assert.throws(() => m.Session.load(corrupt), /model file/);
  assert.throws(() => m.Session.loadWith(bytes, '{"heads": 3}'), /d_model: 16 is not divisible by heads = 3/);
  const s = m.Session.load(bytes); // still works after all that
  try {
    assert.equal(s.stepsDone(), 2);
  } finally {
    s.delete();
  }
});

test('Session.configure(): optimizer fields change live, training continues from the same step', () => {
  withSession({ ...TINY, lr: 1, clip: 0 }, (s) => {
    JSON.parse(s.trainChunk(3));
    const config = JSON.parse(s.configure('{"lr": 0.001, "clip": 1, "warmup": 0}'));
    assert.equal(config.lr, 0.001);
    assert.equal(config.clip, 1);
    assert.equal(s.stepsDone(), 3);
    const { steps } = JSON.parse(s.trainChunk(2));
    assert.equal(steps.at(-1).step, 5);
    assert.ok(Math.abs(steps.at(-1).lr - 0.001) < 1e-9);
    assert.equal(JSON.parse(s.info()).config.lr, 0.001);
    assert.throws(() => s.configure('{"d_model": 32}'), /configure: 'd_model' cannot change/);
    assert.throws(() => s.configure('{"lr": -1}'), /lr: -1 is out of range/);
    assert.throws(() => s.configure('not json'), /configure: not valid JSON/);
    assert.equal(JSON.parse(s.info()).config.lr, 0.001); // unchanged by the refused calls
  });
});

test('worker ModuleSession: configure() also changes what reset() rebuilds', () => {
  const h = ModuleSession.create(m, TINY);
  try {
    h.configure({ lr: 0.002 });
    h.reset();
    assert.equal(h.info().config.lr, 0.002);
  } finally {
    h.dispose();
  }
});

test('worker ModuleSession: chunk size adapts to the time per step (the page stays responsive)', () => {
  const h = ModuleSession.create(m, TINY);
  try {
    assert.equal(h.chunkSize(), 1, 'the first chunk is one step, which measures the time per step');
    h.msPerStep = 80; // slow steps: one per chunk
    assert.equal(h.chunkSize(), 1);
    h.msPerStep = 0.001; // fast steps: capped
    assert.equal(h.chunkSize(), 2000);
    h.msPerStep = 1;
    assert.equal(h.chunkSize(), TARGET_MS); // about TARGET_MS of work per chunk: a few messages per second
    assert.ok(TARGET_MS >= 50 && TARGET_MS <= 100);
    h.speed = 5; // a fixed speed caps it
    assert.equal(h.chunkSize(), 5);
    h.speed = 0;
    h.until = 2; // never past `until`
    assert.equal(h.chunkSize(), 2);
    h.until = 0;
    h.msPerStep = 1e6; // a measured chunk pulls the estimate back towards reality
    h.trainChunk(3);
    assert.ok(h.msPerStep < 1e6 && h.msPerStep > 0);
  } finally {
    h.dispose();
  }
});
