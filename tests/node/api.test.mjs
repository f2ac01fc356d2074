// The wasm module's JS API under Node (the CommonJS flavour, through load.mjs): the registry,
// config checking and its messages, a Session's life (create, train, evaluate, inspect, save,
// load), and that every bad input throws a JS Error with a readable message while the module
// stays usable. Every Session is deleted (try/finally), as pages must.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, sessionWith } from './load.mjs';

let m;
before(async () => {
  m = await loadModule('simd');
});

const withSession = (config, f) => sessionWith(m, config, f);

const parse = (s) => JSON.parse(s);

test('registry(): tasks, encodings, normalizations and the config schema', () => {
  const r = parse(m.registry());
  for (const k of ['tasks', 'positions', 'normalizations', 'config']) assert.ok(r[k].length > 0, k);
  const copy = r.tasks.find((t) => t.name === 'copy');
  assert.ok(copy.defaults.vocab > 1); // the prose is the page's data (registry.test.mjs), not the module's
  for (const e of [...r.positions, ...r.normalizations]) {
    assert.equal(typeof e.title, 'string', e.name);
    assert.equal(typeof e.formula, 'string', e.name);
    assert.ok(Array.isArray(e.options), e.name);
  }
  const keys = r.config.map((f) => f.key);
  for (const k of [
    'task',
    'position',
    'normalization',
    'd_model',
    'heads',
    'layers',
    'ffn',
    'lr',
    'seed',
    'seq_len',
    'batch',
  ])
    assert.ok(keys.includes(k), k);
  for (const f of r.config)
    assert.ok(['int', 'float', 'bool', 'enum', 'string'].includes(f.kind), `${f.key}: ${f.kind}`);
});

test('checkConfig(): fills in task defaults, and explains what is wrong', () => {
  const ok = parse(m.checkConfig('{"task":"copy"}'));
  assert.equal(ok.ok, true);
  assert.equal(ok.config.vocab, 10);
  assert.equal(ok.config.position, 'learned');
  const bad = (config) => {
    const r = parse(m.checkConfig(typeof config === 'string' ? config : JSON.stringify(config)));
    assert.equal(r.ok, false, JSON.stringify(config));
    return r.error;
  };
  assert.match(bad({ task: 'copy', d_model: 30, heads: 4 }), /^d_model: 30 is not divisible by heads = 4/);
  assert.match(bad({ task: 'nope' }), /task: unknown name 'nope'; valid names are: copy, reverse/);
  assert.match(bad({ task: 'copy', bogus: 1 }), /unknown field 'bogus'; valid fields are: task,/);
  assert.match(bad({ task: 'copy', vocab: 500 }), /field 'vocab' = 500 is invalid; allowed: an integer in \[2, 64\]/);
  assert.match(bad({ task: 'copy', seed: 1.5 }), /seed: 1.5 is not a whole number/);
  assert.match(bad({ task: 'copy', lr: 'x' }), /lr: 'x' is not a (finite )?number/);
  assert.match(
    bad({ position: 'none', placement: 'layerwise' }),
    /placement: 'layerwise' applies to absolute encodings/,
  );
  assert.match(bad('not json'), /config: not valid JSON/);
});

test('a bad config throws a JS Error from the Session constructor, and the module lives on', () => {
  assert.throws(
    () => new m.Session('{"task":"copy","heads":3}'),
    (e) => e instanceof Error && /not divisible by heads = 3/.test(e.message),
  );
  assert.throws(() => new m.Session('nope'), /config: not valid JSON/);
  withSession({ task: 'copy' }, (s) => assert.equal(s.stepsDone(), 0));
});

test('create, train, evaluate: the copy task learns within 150 steps', () => {
  withSession({ task: 'copy', seed: 3 }, (s) => {
    const first = parse(s.trainChunk(5));
    assert.deepEqual(
      first.steps.map((x) => x.step),
      [1, 2, 3, 4, 5],
    );
    for (const x of first.steps) {
      assert.ok(Number.isFinite(x.loss) && x.loss > 0);
      assert.equal(x.refused, false);
      for (const k of ['token_accuracy', 'sequence_accuracy', 'bits_per_token', 'grad_norm', 'lr', 'tokens_per_s'])
        assert.equal(typeof x[k], 'number', k);
    }
    assert.equal(s.stepsDone(), 5);
    const rest = parse(s.trainChunk(145));
    assert.equal(s.stepsDone(), 150);
    assert.deepEqual(
      rest.evals.map((e) => e.step),
      [50, 100, 150],
      'evaluates every eval_every = 50 steps',
    );
    const last = rest.steps.at(-1);
    assert.ok(last.loss < 0.3 * first.steps[0].loss, `loss ${first.steps[0].loss} -> ${last.loss}`);
    const ev = parse(s.evaluate(0));
    assert.equal(ev.length, 16);
    assert.equal(ev.step, 150);
    assert.ok(ev.token_accuracy > 0.9, `held-out token accuracy ${ev.token_accuracy}`);
  });
});

test('the inspection views: predictions, attention, positions, info, run', () => {
  withSession({ task: 'copy' }, (s) => {
    s.trainChunk(3);
    const info = parse(s.info());
    assert.equal(info.step, 3);
    assert.equal(info.config.task, 'copy');
    assert.deepEqual(info.vocab.slice(0, 3), ['0', '1', '2']);
    assert.equal(info.per_sequence, false);
    assert.ok(info.parameter_count > 0 && info.parameters.length > 0);

    const p = parse(s.predictions(2, 0));
    assert.equal(p.examples.length, 2);
    const ex = p.examples[0];
    assert.equal(ex.inputs.length, 16);
    for (const k of ['target', 'prediction', 'confidence', 'mask']) assert.equal(ex[k].length, 16, k);
    assert.deepEqual(parse(s.predictions(2, 0)), p, 'the held-out batch is fixed by the seed');

    const a = parse(s.attention(0, 1));
    assert.equal(a.tokens.length, 16);
    assert.equal(a.layers.length, 2);
    assert.equal(a.layers[0].heads.length, 2);
    const head = a.layers[1].heads[0];
    assert.equal(head.weights.length, 16);
    assert.equal(head.weights[0].length, 16);
    for (const sum of head.row_sums) assert.ok(Math.abs(sum - 1) < 1e-4, 'softmax rows sum to 1');
    assert.ok(
      head.weights[0].slice(1).every((w) => w === 0),
      'causal: the first query sees only itself',
    );
    assert.equal(a.probs.length, 16);

    const pos = parse(s.positions(0));
    assert.equal(pos.kind, 'absolute');
    assert.equal(pos.describe.name, 'learned');
    assert.equal(pos.matrix.length, 16);
    assert.equal(pos.matrix[0].length, 32);
    assert.equal(pos.similarity.length, 16);

    const r = parse(s.run('[3, 1, 4, 10, 10, 10]'));
    assert.deepEqual(r.tokens, ['3', '1', '4', '_', '_', '_']);
    assert.equal(r.probs.length, 6);
    assert.equal(r.hidden[0].length, 32);
  });
});

test('bad calls on a Session throw readable Errors', () => {
  withSession({ task: 'copy' }, (s) => {
    assert.throws(() => s.run('[1, 2, 300]'), /run: token id 300 is outside the vocabulary \[0, 12\)/);
    assert.throws(() => s.run('[]'), /run: the token list is empty/);
    assert.throws(() => s.run('x'), /ids: not valid JSON/);
    assert.throws(() => s.predictions(0, 0), /predictions: n must be from 1 to 1024/);
    assert.throws(() => s.attention(0, 99), /attention: example must be from 0 to 63/);
    assert.throws(() => s.evaluate(1000), /learned positions do not extrapolate/);
    assert.equal(s.stepsDone(), 0, 'the session is still usable');
  });
  assert.throws(() => m.Session.load(new Uint8Array([1, 2, 3])), /model file: file is 3 bytes, too short/);
  assert.throws(() => m.Session.load('x'), /model file: expected the file's bytes as a Uint8Array/);
});

test('save() then Session.load(): the same model, and training resumes identically', () => {
  withSession({ task: 'reverse', seed: 5, position: 'sinusoidal' }, (s) => {
    s.trainChunk(12);
    const bytes = s.save();
    assert.ok(bytes instanceof Uint8Array && bytes.length > 1000);
    const headerLen = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLen)));
    assert.ok(header.__metadata__?.config, 'the config travels in the safetensors metadata');
    const t = m.Session.load(bytes);
    try {
      assert.equal(t.stepsDone(), 12);
      assert.deepEqual(parse(t.info()).config, parse(s.info()).config);
      assert.equal(t.predictions(3, 0), s.predictions(3, 0));
      assert.equal(t.attention(0, 0), s.attention(0, 0));
      const a = parse(s.trainChunk(3)).steps.map((x) => x.loss);
      const b = parse(t.trainChunk(3)).steps.map((x) => x.loss);
      assert.deepEqual(b, a);
    } finally {
      t.delete();
    }
  });
});

test("the worker's ModuleSession: chunked training, inspect, save/load, handles deleted", async () => {
  const { ModuleSession } = await import('../../web/src/worker/session.js');
  const h = ModuleSession.create(m, { task: 'copy', steps: 40 });
  try {
    h.until = 40;
    let posted = 0;
    while (h.stepsDone() < h.until) {
      const n = h.chunkSize();
      assert.ok(n >= 1 && n <= 40 - h.stepsDone());
      posted += h.trainChunk(n).steps.length;
    }
    assert.equal(posted, 40);
    assert.equal(h.chunkSize(), 0, 'nothing left before `until`');
    const snap = h.inspect({ attention: { example: 2 }, predictions: { n: 3 }, positions: {}, info: true });
    assert.equal(snap.step, 40);
    assert.equal(snap.predictions.examples.length, 3);
    assert.equal(snap.attention.layers.length, 2);
    assert.equal(snap.positions.kind, 'absolute');
    assert.equal(snap.info.config.steps, 40);
    const bytes = h.save();
    h.reset();
    assert.equal(h.stepsDone(), 0, 'reset starts over');
    h.load(bytes);
    assert.equal(h.stepsDone(), 40);
    assert.deepEqual(h.inspect({ predictions: { n: 3 } }).predictions, snap.predictions);
    h.every = 10;
    assert.deepEqual(
      h.trainChunk(25).steps.map((x) => x.step),
      [50, 60, 65],
      'every k-th step, and the last',
    );
  } finally {
    h.dispose();
  }
  assert.equal(h.core, null);
  assert.throws(() => h.info(), /worker: this session was disposed/);
});

test('the masked language model in the wasm module: bidirectional by default, reads the text option, learns', () => {
  const r = parse(m.registry());
  const mlm = r.tasks.find((t) => t.name === 'mlm');
  assert.ok(mlm, 'mlm is in the registry the page reads');
  assert.equal(mlm.defaults.causal, false);
  assert.ok(
    mlm.options.some((o) => o.key === 'text'),
    'it reads the text option, so the page sends its corpus',
  );
  withSession({ task: 'mlm', seq_len: 20, eval_len: 20, seed: 1, steps: 120 }, (s) => {
    const first = parse(s.trainChunk(10));
    const rest = parse(s.trainChunk(110));
    const loss0 = first.steps[0].loss;
    const loss1 = rest.steps[rest.steps.length - 1].loss;
    assert.ok(Number.isFinite(loss1) && loss1 < loss0, `the loss falls: ${loss0} -> ${loss1}`);
  });
});
