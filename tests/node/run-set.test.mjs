// The run set (web/src/run/run-set.js) under Node with a fake pool and fake models: no worker, no
// wasm, no DOM. What the demos and the experiments page rely on: each run's status (idle,
// learning, done, budget, stalled, refused); a goal of `until` steps or of a held-out accuracy
// target within a budget; one drawing queue that delivers every run's metrics and draws once;
// settled() resolves when nothing trains any more.
import test from 'node:test';
import assert from 'node:assert/strict';
import { RunSet } from '../../web/src/run/run-set.js';
import { ConfigError } from '../../web/src/client/client.js';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

class FakeModel extends EventTarget {
  constructor(config) {
    super();
    this.info = { config, step: 0 };
    this.playing = false;
  }
  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
  async play({ until }) {
    this.until = until;
    this.playing = true;
    this.emit('state', { playing: true, reason: 'play', step: this.info.step });
  }
  async pause() {
    if (!this.playing) return;
    this.playing = false;
    this.emit('state', { playing: false, reason: 'paused', step: this.info.step });
  }
  /** One step reported, with an evaluation at the training length when acc is given. */
  report(step, acc) {
    this.info.step = step;
    const evals =
      acc === undefined ? [] : [{ step, length: this.info.config.seq_len, token_accuracy: acc, loss: 1 - acc }];
    this.emit('metrics', { steps: [{ step, loss: 0.5 }], evals, step });
  }
  stop(reason) {
    this.playing = false;
    this.emit('state', { playing: false, reason, step: this.info.step });
  }
  async dispose() {
    this.disposed = true;
  }
}

function fakePool() {
  const pool = new EventTarget();
  pool.created = [];
  // As the client does: create() validates, and a refused config rejects with a ConfigError.
  pool.create = async (c) => {
    if (c.heads === 3) throw new ConfigError('heads must divide d_model');
    if (c.fail) throw new Error('out of memory');
    const m = new FakeModel(c);
    pool.created.push(m);
    return m;
  };
  return pool;
}

test('statuses: refused runs say why; a goal of steps ends in done; a refused step is a stall', async () => {
  const seen = [];
  const set = new RunSet(fakePool(), { hooks: { status: (r) => seen.push([r.key, r.status]) }, drawMs: 5 });
  const ok = set.add({ seq_len: 8 }, { key: 'ok' });
  const bad = set.add({ heads: 3 }, { key: 'bad', check: true });
  const oom = set.add({ fail: true }, { key: 'oom' });
  const nan = set.add({ seq_len: 8 }, { key: 'nan' });
  await set.built();
  assert.deepEqual(
    [ok, bad, oom, nan].map((r) => r.status),
    ['idle', 'refused', 'refused', 'idle'],
  );
  assert.equal(bad.error, 'heads must divide d_model');
  assert.equal(oom.error, 'out of memory');
  await set.play({ until: 10 });
  assert.equal(ok.status, 'learning');
  assert.equal(set.playing, true);
  const settled = set.settled();
  ok.ctl.model.report(10);
  ok.ctl.model.stop('done');
  nan.ctl.model.report(4);
  nan.ctl.model.stop('non-finite loss');
  await settled;
  assert.equal(ok.status, 'done');
  assert.equal(nan.status, 'stalled');
  assert.equal(nan.error, 'non-finite loss');
  assert.deepEqual(
    seen.filter(([k]) => k === 'ok').map(([, s]) => s),
    ['idle', 'learning', 'done'],
  );
  await set.dispose();
});

test('a target: a run that reaches it stops as done, one that runs out of steps is budget; a higher budget trains it on', async () => {
  const set = new RunSet(fakePool(), { drawMs: 5 });
  const fast = set.add({ seq_len: 8 });
  const slow = set.add({ seq_len: 8 });
  await set.play({ until: 100, target: 0.95 });
  fast.ctl.model.report(40, 0.5);
  fast.ctl.model.report(60, 0.97);
  await tick();
  assert.equal(fast.status, 'done');
  assert.equal(fast.reachedAt, 60);
  assert.equal(fast.ctl.model.playing, false, 'paused on reaching the target');
  slow.ctl.model.report(100, 0.6);
  slow.ctl.model.stop('done');
  await set.settled();
  assert.equal(slow.status, 'budget');
  assert.deepEqual(set.trainable(), []);
  await set.play({ until: 200, target: 0.95 });
  assert.deepEqual(set.trainable(), [slow]);
  assert.equal(slow.status, 'learning');
  assert.equal(slow.ctl.model.until, 200);
  assert.equal(fast.ctl.model.playing, false, 'a run that is done does not train again');
  await set.dispose();
});

test("one drawing queue: every run's metrics are delivered together, then one draw", async () => {
  const log = [];
  const set = new RunSet(fakePool(), {
    drawMs: 20,
    hooks: { metrics: (r, b) => log.push(['metrics', r.key, b.steps.length, b.step]), draw: () => log.push(['draw']) },
  });
  set.add({ seq_len: 8 }, { key: 'a' });
  set.add({ seq_len: 8 }, { key: 'b' });
  await set.play({ until: 50 });
  await tick(30);
  log.length = 0;
  for (let s = 1; s <= 5; s++) for (const r of set.runs) r.ctl.model.report(s);
  assert.deepEqual(log, [], 'nothing before the flush');
  await tick(40);
  assert.deepEqual(log, [['metrics', 'a', 5, 5], ['metrics', 'b', 5, 5], ['draw']]);
  assert.equal(set.runs[0].lastLoss, 0.5);
  await set.dispose();
});

test('remove and clear dispose the models; dispose ends everything', async () => {
  const pool = fakePool();
  const set = new RunSet(pool, { drawMs: 5 });
  const a = set.add({});
  set.add({});
  await set.built();
  await set.remove(a);
  assert.equal(pool.created[0].disposed, true);
  assert.equal(set.runs.length, 1);
  await set.clear();
  assert.equal(pool.created[1].disposed, true);
  assert.equal(set.runs.length, 0);
  await set.dispose();
});
