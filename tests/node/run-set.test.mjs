// The run set (web/src/run/run-set.js) under Node with a fake pool and fake models: no worker, no
// wasm, no DOM. What the demos and the experiments page rely on: each run's status (idle,
// learning, done, budget, stalled, refused); a goal of `until` steps or of a held-out accuracy
// target within a budget; one drawing queue that delivers every run's metrics and draws once;
// settled() resolves when nothing trains any more.
import test from 'node:test';
import assert from 'node:assert/strict';
import { RunSet } from '../../web/src/run/run-set.js';
import { CompareRuns } from '../../web/src/run/compare-runs.js';
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
  async reset() {
    this.info = { ...this.info, step: 0 };
    return this.info;
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

test('lanes: at most `lanes` runs hold a model at once; remove() lets the next one build', async () => {
  const pool = fakePool();
  const set = new RunSet(pool, { drawMs: 5, lanes: 2 });
  const runs = [1, 2, 3, 4].map((k) => set.add({ seq_len: 8 }, { key: String(k) }));
  await Promise.all([runs[0].built, runs[1].built]);
  await tick();
  assert.equal(pool.created.length, 2, 'two lanes: two models');
  assert.deepEqual(
    runs.map((r) => r.status),
    ['idle', 'idle', 'building', 'building'],
  );
  await set.remove(runs[0]);
  await runs[2].built;
  assert.equal(runs[2].status, 'idle');
  assert.equal(runs[3].status, 'building', 'still waiting: the lanes are taken');
  await set.remove(runs[3]); // a waiting run can leave
  await runs[3].built;
  assert.equal(pool.created.length, 3);
  await set.dispose();
});

test('train(): one run towards its own goal (a run that is done trains on); settled(run) waits for it alone; reset()', async () => {
  const set = new RunSet(fakePool(), { drawMs: 5 });
  const a = set.add({ seq_len: 8 });
  const b = set.add({ seq_len: 8 });
  await set.built();
  await set.train(a, { until: 10 });
  assert.equal(a.status, 'learning');
  assert.equal(b.status, 'idle', 'the other run does not train');
  const aDone = set.settled(a);
  a.ctl.model.report(10);
  a.ctl.model.stop('done');
  await aDone;
  assert.equal(a.status, 'done');
  await set.train(a, { until: 0 });
  assert.equal(a.status, 'learning', 'done, and trained on without a limit');
  assert.equal(a.ctl.model.until, 0);
  await a.ctl.model.pause();
  assert.equal(a.status, 'idle');
  await set.reset();
  assert.equal(a.step, 0);
  assert.equal(a.status, 'idle');
  await set.dispose();
});

/** A comparison's view that records what it is asked to draw (panels/compare-view.js draws it). */
function fakeView(names) {
  const log = { metrics: [], said: [], labels: [], fresh: [] };
  return {
    log,
    names,
    inspected: { attention: false, predictions: false, heads: false },
    fresh: (i, info) => log.fresh.push([i, info.step]),
    metrics: (i, b) => log.metrics.push([i, b.step]),
    showInspection() {},
    heads() {},
    label: (playing) => log.labels.push(playing),
    say: (t) => log.said.push(t),
    reset() {},
    restyle() {},
    dispose() {},
  };
}

test('a comparison trains its runs on the run set: to `steps`, one drawing queue, Play again once all are done', async () => {
  const view = fakeView(['none', 'rope']);
  const cmp = new CompareRuns(new RunSet(fakePool()), view, {
    configs: [{ seq_len: 8 }, { seq_len: 8 }],
    steps: 20,
    autoplay: true,
  });
  cmp.set.drawMs = 5;
  cmp.setVisible(true);
  await cmp.init();
  assert.deepEqual(view.log.fresh, [
    [0, 0],
    [1, 0],
  ]);
  await tick();
  assert.deepEqual(
    cmp.runs.map((r) => [r.status, r.ctl.model.until]),
    [
      ['learning', 20],
      ['learning', 20],
    ],
  );
  for (const r of cmp.runs) r.ctl.model.report(20);
  for (const r of cmp.runs) r.ctl.model.stop('done');
  await cmp.set.settled();
  await tick(20);
  assert.deepEqual(view.log.metrics, [
    [0, 20],
    [1, 20],
  ]);
  assert.equal(cmp.wantPlay, false, 'every run reached its steps: Play again');
  assert.equal(view.log.labels.at(-1), false);
  cmp.play(); // trains on, without a limit
  await tick();
  assert.deepEqual(
    cmp.runs.map((r) => r.ctl.model.until),
    [0, 0],
  );
  await cmp.dispose();
});

test('a comparison with a run the engine refuses says which run and why', async () => {
  const cmp = new CompareRuns(new RunSet(fakePool()), fakeView(['heads=2', 'heads=3']), {
    configs: [{ heads: 2 }, { heads: 3 }],
    steps: 20,
    autoplay: false,
  });
  await assert.rejects(cmp.init(), /^Error: heads=3: this combination cannot train: heads must divide d_model$/);
  await cmp.dispose();
});

test('turns: at most that many runs train at once, in the order they were added; each that settles hands its turn on; a pause holds the rest', async () => {
  const set = new RunSet(fakePool(), { drawMs: 5, turns: 2 });
  const runs = ['a', 'b', 'c', 'd', 'e', 'f'].map((key) => set.add({ seq_len: 8 }, { key }));
  await set.built();
  const training = () => runs.filter((r) => r.ctl.model?.playing).map((r) => r.key);
  await set.play({ until: 10 });
  assert.deepEqual(training(), ['a', 'b'], 'the first two, in the order added');
  runs[0].ctl.model.report(10);
  runs[0].ctl.model.stop('done');
  await tick();
  assert.equal(runs[0].status, 'done');
  assert.deepEqual(training(), ['b', 'c'], 'a settled: its turn goes to c');
  runs[1].ctl.model.report(4);
  runs[1].ctl.model.stop('non-finite loss');
  await tick();
  assert.deepEqual(training(), ['c', 'd'], 'a stalled run hands its turn on too');
  await set.pause();
  runs[2].ctl.model.report(10);
  runs[2].ctl.model.stop('done');
  await tick();
  assert.deepEqual(training(), [], 'paused: no run starts');
  await set.play({ until: 10 });
  assert.deepEqual(training(), ['d', 'e'], 'play again: the next two');
  await set.remove(runs[3]);
  await tick();
  assert.deepEqual(training(), ['e', 'f'], 'a removed run hands its turn on');
  await set.dispose();
});
