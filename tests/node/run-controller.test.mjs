// The run controller (web/src/run/run-controller.js) and its coalescing loop (run/coalesce.js)
// under Node with a fake client and fake models: no worker, no wasm, no DOM. What the
// playground, the widgets and the demos rely on: a refused config creates nothing; a newer
// config overtakes an older one (whose model is disposed); metrics are buffered and flushed;
// training that stops on a refused step is "stalled"; refreshes never overlap and a burst of
// calls costs one more pass; play continues past the configured steps without a limit; the
// refresh keeps within its inspection budget (INSPECT_SHARE of the wall time); the rate and ETA.
import test from 'node:test';
import assert from 'node:assert/strict';
import { RunController, STOP_REASONS, INSPECT_SHARE } from '../../web/src/run/run-controller.js';
import { coalesce } from '../../web/src/run/coalesce.js';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

/** A fake EngineSession (client/session.js): an EventTarget with the methods the controller calls, recording them. */
class FakeModel extends EventTarget {
  constructor(config) {
    super();
    this.info = { config, step: 0 };
    this.calls = [];
    this.playing = false;
    this.disposed = false;
    this.inspections = 0;
    this.inFlight = 0;
    this.maxInFlight = 0;
    this.inspectionMs = 0; // what each inspection reports as the worker's time for it
    this.inspectMs = 0;
    this.inspectAt = 0;
  }
  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
  async play(opts) {
    this.calls.push(['play', opts]);
    this.playing = true;
    this.emit('state', { playing: true, reason: 'play', step: this.info.step });
  }
  async pause() {
    this.calls.push(['pause']);
    this.playing = false;
    this.emit('state', { playing: false, reason: 'paused', step: this.info.step });
  }
  async train(n) {
    this.calls.push(['train', n]);
    this.info.step += n;
  }
  async reset() {
    this.calls.push(['reset']);
    this.info.step = 0;
    return this.info;
  }
  async inspect() {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await tick(5);
    this.inFlight--;
    this.inspections++;
    this.inspectMs += this.inspectionMs;
    this.inspectAt = performance.now();
    return { step: this.info.step, ms: this.inspectionMs };
  }
  async dispose() {
    this.disposed = true;
  }
}

/**
 * A fake client: create refuses `heads: 3` as client.js does (an error carrying `check`, in the
 * one round trip) and can be held back to test overtaking.
 */
function fakeClient() {
  const client = {
    created: [],
    hold: null, // a promise create() waits for
    async create(config) {
      await tick();
      if (config.heads === 3)
        throw Object.assign(new Error('heads must divide d_model'), {
          check: { ok: false, error: 'heads must divide d_model' },
        });
      if (config.fail) throw new Error('out of memory');
      if (client.hold) await client.hold;
      const m = new FakeModel(config);
      client.created.push(m);
      return m;
    },
  };
  return client;
}

/** Views that record every hook call. */
function recordingViews(extra = {}) {
  const log = [];
  const views = {};
  for (const k of [
    'building',
    'checked',
    'failed',
    'adopted',
    'fresh',
    'ready',
    'metrics',
    'state',
    'restored',
    'error',
  ])
    views[k] = (...args) => log.push([k, ...args]);
  views.inspect = async (model, current) => {
    await model.inspect();
    log.push(['inspect', current()]);
  };
  return { views: Object.assign(views, extra), log, names: () => log.map((e) => e[0]) };
}

test('apply: a valid config builds one model and freshens the views, in order', async () => {
  const client = fakeClient();
  const { views, names } = recordingViews();
  const run = new RunController(client, views);
  assert.equal(await run.apply({ heads: 4 }), 'ready');
  assert.equal(client.created.length, 1);
  assert.equal(run.model, client.created[0]);
  assert.deepEqual(names(), ['building', 'checked', 'adopted', 'fresh', 'inspect', 'ready']);
  await run.dispose();
  assert.equal(client.created[0].disposed, true);
});

test('apply: a refused config creates nothing and says why', async () => {
  const client = fakeClient();
  const { views, log } = recordingViews();
  const run = new RunController(client, views);
  assert.equal(await run.apply({ heads: 3 }), 'invalid');
  assert.equal(client.created.length, 0);
  assert.deepEqual(log.find((e) => e[0] === 'checked')[1], { ok: false, error: 'heads must divide d_model' });
});

test('apply: a hook may throw to abort (a widget whose first config is refused)', async () => {
  const run = new RunController(fakeClient(), {
    checked: (c) => {
      if (!c.ok) throw new Error(`cannot train: ${c.error}`);
    },
  });
  await assert.rejects(run.apply({ heads: 3 }), /cannot train: heads must divide d_model/);
});

test('apply: a model that cannot be created goes to `failed`, or throws without it', async () => {
  const { views, log } = recordingViews();
  assert.equal(await new RunController(fakeClient(), views).apply({ fail: true }), 'failed');
  assert.match(log.find((e) => e[0] === 'failed')[1].message, /out of memory/);
  await assert.rejects(new RunController(fakeClient(), {}).apply({ fail: true }), /out of memory/);
});

test('apply: a newer config overtakes an older one; the old model is disposed, the overtaken one too', async () => {
  const client = fakeClient();
  const run = new RunController(client, {});
  await run.apply({ seed: 1 });
  const first = run.model;
  let release;
  client.hold = new Promise((r) => (release = r));
  const slow = run.apply({ seed: 2 });
  await tick(2);
  client.hold = null;
  const fast = run.apply({ seed: 3 });
  assert.equal(await fast, 'ready');
  release();
  assert.equal(await slow, 'stale');
  assert.equal(first.disposed, true);
  assert.equal(run.model.info.config.seed, 3);
  const overtaken = client.created.find((m) => m.info.config.seed === 2);
  assert.equal(overtaken.disposed, true, 'the overtaken model is disposed when it arrives');
  assert.equal(run.model.disposed, false);
});

test('cancel: a pending apply does not replace a model adopted meanwhile (an import)', async () => {
  const client = fakeClient();
  const run = new RunController(client, {});
  const pending = run.apply({ seed: 1 });
  run.cancel();
  const imported = new FakeModel({ seed: 9 });
  await run.adopt(imported, { fresh: false });
  assert.equal(await pending, 'stale');
  assert.equal(run.model, imported);
});

test('metrics: delivered as they come without flushMs; buffered and flushed with it', async () => {
  const direct = recordingViews();
  const run = new RunController(fakeClient(), direct.views);
  await run.apply({});
  run.model.emit('metrics', { steps: [{ step: 1 }], evals: [], step: 1 });
  assert.equal(direct.log.filter((e) => e[0] === 'metrics').length, 1);
  assert.equal(run.step, 1);
  await run.dispose();

  const buffered = recordingViews();
  const run2 = new RunController(fakeClient(), buffered.views, { flushMs: 20 });
  await run2.apply({});
  await run2.play({ steps: 100 });
  for (let s = 1; s <= 5; s++)
    run2.model.emit('metrics', { steps: [{ step: s }], evals: s === 5 ? [{ step: 5 }] : [], step: s });
  assert.equal(buffered.log.filter((e) => e[0] === 'metrics').length, 0, 'nothing before the first flush');
  await tick(45);
  const batches = buffered.log.filter((e) => e[0] === 'metrics').map((e) => e[1]);
  assert.equal(batches.length, 1, 'five batches, one delivery');
  assert.equal(batches[0].steps.length, 5);
  assert.equal(batches[0].evals.length, 1);
  assert.equal(batches[0].step, 5);
  // A stop flushes what is left at once.
  run2.model.emit('metrics', { steps: [{ step: 6 }], evals: [], step: 6 });
  await run2.pause();
  assert.equal(buffered.log.filter((e) => e[0] === 'metrics').length, 2);
  await run2.dispose();
});

test('state: stops for the reasons in STOP_REASONS are not stalls; any other reason is', async () => {
  const { views, log } = recordingViews();
  const run = new RunController(fakeClient(), views);
  await run.apply({});
  for (const reason of STOP_REASONS) {
    run.model.emit('state', { playing: false, reason, step: 3 });
    assert.equal(log.filter((e) => e[0] === 'state').at(-1)[1].stalled, false, reason);
  }
  run.model.emit('state', { playing: false, reason: 'loss is NaN at step 4', step: 4 });
  assert.equal(log.filter((e) => e[0] === 'state').at(-1)[1].stalled, true);
  assert.equal(run.stalled, true);
  await run.reset();
  assert.equal(run.stalled, false, 'a reset starts over');
  await run.dispose();
});

test('events of a model that is no longer the current one are ignored', async () => {
  const { views, log } = recordingViews();
  const run = new RunController(fakeClient(), views);
  await run.apply({ seed: 1 });
  const old = run.model;
  await run.apply({ seed: 2 });
  const before = log.length;
  old.emit('metrics', { steps: [{ step: 1 }], evals: [], step: 1 });
  old.emit('state', { playing: false, reason: 'loss is NaN', step: 1 });
  assert.equal(log.length, before);
  await run.dispose();
});

test('play: until the configured steps, then without a limit; step and reset refresh the views', async () => {
  const run = new RunController(fakeClient(), recordingViews().views);
  await run.apply({});
  const m = run.model;
  await run.play({ steps: 50, every: 5 });
  assert.deepEqual(m.calls.at(-1), ['play', { until: 50, every: 5 }]);
  m.emit('metrics', { steps: [], evals: [], step: 50 });
  await run.play({ steps: 50, speed: 3 });
  assert.deepEqual(m.calls.at(-1), ['play', { until: 0, speed: 3 }], 'past the end, Play continues without limit');
  await run.pause();
  const snaps = m.inspections;
  await run.train(2);
  assert.deepEqual(m.calls.at(-1), ['train', 2]);
  assert.ok(m.inspections > snaps, 'a step refreshes the inspecting views');
  await run.reset();
  assert.equal(run.step, 0);
  await run.dispose();
});

test('refresh: while training, periodic and never overlapping; a burst of calls costs one more pass', async () => {
  const { views } = recordingViews();
  const run = new RunController(fakeClient(), views, { refreshMs: 10 });
  await run.apply({});
  const m = run.model;
  const base = m.inspections;
  await Promise.all([run.refresh(), run.refresh(), run.refresh(), run.refresh()]);
  assert.equal(m.inspections - base, 2, 'the first pass and one more for the three calls during it');
  await run.play({ steps: 100 });
  await tick(60);
  assert.ok(m.inspections - base >= 4, `periodic refreshes while training (${m.inspections - base})`);
  assert.equal(m.maxInFlight, 1, 'one inspect request at a time');
  await run.pause();
  await tick(10);
  const stopped = m.inspections;
  await tick(40);
  assert.ok(m.inspections - stopped <= 1, 'no periodic refresh once stopped');
  await run.dispose();
});

test('refresh: within the inspection budget, by wall time: after an inspection that cost d ms, the next waits 19·d', async () => {
  assert.equal(INSPECT_SHARE, 0.05);
  const { views } = recordingViews();
  const run = new RunController(fakeClient(), views, { refreshMs: 5 });
  await run.apply({});
  const m = run.model;
  m.inspectionMs = 20; // the worker says each inspection took 20 ms: the next one waits >= 380 ms
  await run.play({ steps: 100 });
  const base = m.inspections;
  const t0 = performance.now();
  await tick(900);
  const n = m.inspections - base;
  const wall = performance.now() - t0;
  assert.ok(n >= 1 && n <= 3, `${n} inspections in ${wall.toFixed(0)} ms (at most 1 + 900/380)`);
  assert.ok(run.inspectCost >= 20, `the cost counts the worker's time (${run.inspectCost})`);
  m.inspectionMs = 0; // cheap inspections: refreshMs rules again
  await tick(450); // the pending wait from the last costly one
  const cheap = m.inspections;
  await tick(100);
  assert.ok(m.inspections - cheap >= 3, `cheap refreshes come every refreshMs (${m.inspections - cheap})`);
  await run.dispose();
});

test('progress: steps/s and tokens/s over wall time, and the time left to the configured steps', async () => {
  const run = new RunController(fakeClient(), {});
  await run.apply({ batch: 2, seq_len: 5 });
  assert.deepEqual(run.progress(), { stepsPerS: null, tokensPerS: null, etaS: null });
  await run.play({ steps: 1000 });
  const m = run.model;
  for (let s = 10; s <= 50; s += 10) {
    await tick(100);
    m.emit('metrics', { steps: [], evals: [], step: s });
  }
  const p = run.progress();
  assert.ok(p.stepsPerS > 50 && p.stepsPerS < 110, `about 100 steps/s (${p.stepsPerS})`);
  assert.equal(p.tokensPerS, p.stepsPerS * 10);
  assert.ok(Math.abs(p.etaS - 950 / p.stepsPerS) < 1e-9);
  await run.pause();
  assert.equal(run.progress().etaS, null, 'no ETA while paused');
  await run.play({ steps: 0 });
  assert.equal(run.progress().etaS, null, 'no ETA without a step count');
  await run.dispose();
});

test('refresh: a failed inspection of the current model goes to `error`; one of a replaced model does not', async () => {
  let fail = true;
  const { views, log } = recordingViews({
    inspect: async () => {
      await tick(2);
      if (fail) throw new Error('worker gone');
    },
  });
  const run = new RunController(fakeClient(), views);
  await run.apply({});
  assert.match(log.find((e) => e[0] === 'error')[1].message, /worker gone/);
  fail = false;
  await run.dispose();
});

test('restored: the step comes from the restored model and the views hear of it', async () => {
  const { views, log } = recordingViews();
  const run = new RunController(fakeClient(), views);
  await run.apply({});
  run.model.emit('restored', { playing: false, step: 40 });
  assert.equal(run.step, 40);
  assert.equal(log.at(-1)[0], 'restored');
  await run.dispose();
});

test('coalesce: passes never overlap; calls during a pass share the next one; stop ends the loop', async () => {
  let passes = 0;
  let inside = 0;
  let overlap = false;
  const run = coalesce(async () => {
    overlap ||= inside > 0;
    inside++;
    passes++;
    await tick(5);
    inside--;
  });
  const a = run();
  const b = run();
  const c = run();
  assert.equal(a, b);
  assert.equal(b, c);
  await a;
  assert.equal(passes, 2);
  assert.equal(overlap, false);
  let stopped = false;
  let n = 0;
  const loop = coalesce(
    async () => {
      n++;
      await tick(2);
    },
    () => stopped,
  );
  const p = loop();
  loop();
  stopped = true;
  await p;
  assert.equal(n, 1, 'stop() is checked before a repeated pass');
});
