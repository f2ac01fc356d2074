// One round trip per config change (issue 30): the run controller, the real client and the real
// worker (web/src/worker/worker.js, run in this process with the simd module of build/) with a
// counting link between them. For one config change it counts the requests before the new model
// exists, the validations and builds in the engine (calls of module.checkConfig and of the Session
// constructor), the parses of a session's info, and whether any reply carries the training text.
// AP_WEB_SRC=<folder> runs it against another copy of web/src (to measure an older tree).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadModule, ROOT } from './load.mjs';

const SRC = resolve(process.env.AP_WEB_SRC ?? resolve(ROOT, 'web/src'));
const counts = { requests: [], replies: [], validations: 0, builds: 0, infoParses: 0 };

// The worker imports its module through load-module.js (Vite's ?url imports): stand in for it.
register(
  `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === './load-module.js') return { url: 'data:text/javascript,export const loadModule = (v) => globalThis.__apLoad(v);', shortCircuit: true };
  return next(specifier, context);
}`)}`,
);

// Node's MessagePort keeps the process alive once it has a listener: a channel of the event loop.
globalThis.MessageChannel = class {
  constructor() {
    const port = () => ({
      onmessage: null,
      other: null,
      postMessage(data) {
        setImmediate(() => this.other.onmessage?.({ data }));
      },
      close() {},
    });
    this.port1 = port();
    this.port2 = port();
    this.port1.other = this.port2;
    this.port2.other = this.port1;
  }
};

/** The module, counting what validates a config and what parses an info. */
globalThis.__apLoad = async (variant) => {
  const m = await loadModule(variant);
  const Core = m.Session;
  const checkConfig = m.checkConfig.bind(m);
  m.checkConfig = (text) => {
    counts.validations++;
    return checkConfig(text);
  };
  const Counted = function (text) {
    counts.validations++;
    counts.builds++;
    const s = new Core(text);
    const info = s.info.bind(s);
    s.info = () => {
      counts.infoParses++;
      return info();
    };
    return s;
  };
  Counted.load = Core.load;
  Counted.loadWith = Core.loadWith;
  m.Session = Counted;
  return m;
};

// The worker's global scope and the page's Worker, joined by a link that records every message.
const scope = {
  onmessage: null,
  postMessage(msg) {
    counts.replies.push(JSON.stringify(msg) ?? '');
    setImmediate(() => link.onmessage?.({ data: structuredClone(msg) }));
  },
};
const link = {
  onmessage: null,
  onerror: null,
  terminate() {},
  postMessage(msg) {
    counts.requests.push(msg.cmd);
    setImmediate(() => scope.onmessage({ data: structuredClone(msg) }));
  },
};
globalThis.self = scope;
globalThis.location = { href: 'file:///', origin: 'null' };
globalThis.Worker = function Worker() {
  return link;
};
const realInterval = globalThis.setInterval;
globalThis.setInterval = (f, ms) => realInterval(f, ms).unref(); // the worker's heartbeat

let client, RunController;
before(async () => {
  await import(pathToFileURL(resolve(SRC, 'worker/worker.js')).href);
  ({ EngineClient: client } = await import(pathToFileURL(resolve(SRC, 'client/client.js')).href));
  ({ RunController } = await import(pathToFileURL(resolve(SRC, 'run/run-controller.js')).href));
  client = new client();
  await client.init('simd');
});
after(() => client?.dispose());

const MARK = 'zq-the-corpus-marker-zq';
const words = ['the', 'attention', 'of', 'heads', 'and', 'a', 'model', 'learns', 'to', 'read'];
const text = `${MARK} ${Array.from({ length: 40000 }, (_, i) => words[(i * 7) % words.length]).join(' ')}`;
const base = { task: 'text', text, d_model: 16, heads: 2, layers: 1, ffn: 32, seq_len: 16, batch: 2, eval_every: 0 };

/** Counts over one apply(config) of a controller that has a model already. */
async function oneChange(run, config) {
  const start = {
    requests: counts.requests.length,
    replies: counts.replies.length,
    validations: counts.validations,
    builds: counts.builds,
    infoParses: counts.infoParses,
  };
  const result = await run.apply(config);
  const replies = counts.replies.slice(start.replies);
  const c = {
    result,
    requests: counts.requests.slice(start.requests),
    requestsBeforeModel: counts.requests.slice(start.requests).indexOf('create') + 1, // the model exists at create's reply
    validations: counts.validations - start.validations,
    builds: counts.builds - start.builds,
    infoParses: counts.infoParses - start.infoParses,
    repliesWithText: replies.filter((r) => r.includes(MARK)).length,
    replyBytes: replies.reduce((n, r) => n + r.length, 0),
  };
  console.log(`one config change: ${JSON.stringify(c)}`);
  return c;
}

test('a config change: one round trip before the model exists, one validation, no reply carries the text', async () => {
  const checked = [];
  const run = new RunController(client, { checked: (r) => checked.push(r) });
  assert.equal(await run.apply(base), 'ready');
  const c = await oneChange(run, { ...base, seed: 2 });
  assert.equal(c.result, 'ready');
  assert.equal(c.requestsBeforeModel, 1, `requests before the model exists: ${c.requests.join(', ')}`);
  assert.deepEqual(c.requests, ['create', 'dispose'], 'the old model goes after the new one exists');
  assert.equal(c.validations, 1, 'the config is validated once');
  assert.equal(c.builds, 1, 'the session is built once');
  assert.equal(c.infoParses, 1, "the session's info is parsed once");
  assert.equal(c.repliesWithText, 0, 'no reply carries the training text');
  assert.ok(c.replyBytes < text.length / 4, `replies: ${c.replyBytes} bytes`);
  // The page still sees the whole config, its own text included.
  assert.equal(run.model.info.config.text, text);
  assert.equal(run.model.info.config.seed, 2);
  assert.deepEqual(checked.at(-1), { ok: true, config: run.model.info.config });
  await run.dispose();
});

test('a refused config: one round trip, the message names the field, the current model stays', async () => {
  const checked = [];
  const run = new RunController(client, { checked: (r) => checked.push(r) });
  assert.equal(await run.apply(base), 'ready');
  const model = run.model;
  const c = await oneChange(run, { ...base, heads: 3 });
  assert.equal(c.result, 'invalid');
  assert.deepEqual(c.requests, ['create']);
  assert.equal(c.validations, 1);
  assert.equal(c.builds, 1, 'the attempt to build is the validation');
  assert.equal(checked.at(-1).ok, false);
  assert.match(checked.at(-1).error, /heads/);
  assert.equal(run.model, model, 'the model trained so far stays');
  assert.equal(model.disposed, false);
  await run.dispose();
});

test('replies after the change keep the text in the worker; the page sees its own copy', async () => {
  const run = new RunController(client, {});
  assert.equal(await run.apply(base), 'ready');
  const from = counts.replies.length;
  const model = run.model;
  const reset = await model.reset();
  const config = await model.configure({ lr: 0.002 });
  const snap = await model.inspect({ info: true });
  assert.equal(reset.config.text, text);
  assert.equal(config.text, text);
  assert.equal(snap.info.config.text, text);
  assert.equal(counts.replies.slice(from).filter((r) => r.includes(MARK)).length, 0);
  const ref = JSON.parse(counts.replies.slice(from).find((r) => r.includes('"fnv1a"'))).result;
  assert.ok(ref, 'a reply names the text by its size and hash');
  await run.dispose();
});

/** Counts over one propose(config): the widget's setConfig path (WidgetApp.setState). */
async function oneProposal(run, config) {
  const start = { requests: counts.requests.length, validations: counts.validations, builds: counts.builds };
  const check = await run.propose(config);
  const c = {
    check,
    requests: counts.requests.slice(start.requests),
    validations: counts.validations - start.validations,
    builds: counts.builds - start.builds,
  };
  console.log(`one widget setConfig: ${JSON.stringify({ ...c, check: check.ok ? 'ok' : check.error })}`);
  return c;
}

test("the widget's setConfig path (WidgetApp.setState -> RunController.propose): one round trip, one validation", async () => {
  const checked = [];
  const run = new RunController(client, { checked: (r) => checked.push(r) });
  assert.equal(await run.apply(base), 'ready');
  const ok = await oneProposal(run, { ...base, seed: 3 });
  assert.equal(ok.check.ok, true);
  assert.deepEqual(ok.requests, ['create', 'dispose'], 'no checkConfig before create');
  assert.equal(ok.validations, 1);
  assert.equal(ok.builds, 1);
  assert.equal(run.model.info.config.seed, 3);
  const model = run.model;
  const before = checked.length;
  const bad = await oneProposal(run, { ...base, heads: 3 });
  assert.equal(bad.check.ok, false);
  assert.match(bad.check.error, /heads/);
  assert.deepEqual(bad.requests, ['create']);
  assert.equal(bad.validations, 1);
  assert.equal(run.model, model, 'a refused config changes nothing: the model stays');
  assert.equal(checked.length, before, 'and the views are not told (the widget refuses in words)');
  await run.dispose();
});

test("the widget's setState goes through propose(), never a checkConfig round trip of its own", async () => {
  const { readFileSync } = await import('node:fs');
  const src = readFileSync(resolve(SRC, 'widgets/widget-app.js'), 'utf8');
  const body = src.slice(src.indexOf('async setState('), src.indexOf('\n  }\n', src.indexOf('async setState(')));
  assert.match(body, /this\.run\.propose\(/);
  assert.doesNotMatch(body, /checkConfig/);
});
