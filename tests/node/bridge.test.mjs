// The checked bridge between the core and the page: the worker's command names are one list
// (web/src/worker/protocol.js) that the worker handles and the client sends; the live-optimizer
// keys are the core's one list (registry().live_keys); Session.trainChunk(n) is the core's
// train_chunk (the same steps, chunked or not); and the type check (build-scripts/typecheck.mjs)
// passes on the tree and catches a misspelt command.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { resolve, join } from 'node:path';
import { loadModule, sessionWith, ROOT } from './load.mjs';
import { COMMANDS, EVENTS } from '../../web/src/worker/protocol.js';
import REGISTRY from '../../web/src/state/registry.gen.js';

let m;
before(async () => {
  m = await loadModule('simd');
});

const src = (p) => readFileSync(resolve(ROOT, 'web/src', p), 'utf8');
const jsFiles = (dir) =>
  readdirSync(resolve(ROOT, 'web/src', dir))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `${dir}/${f}`);

test('the worker handles exactly the commands of protocol.js', () => {
  assert.equal(new Set(COMMANDS).size, COMMANDS.length, 'no name twice');
  const worker = src('worker/worker.js');
  const table = worker.slice(
    worker.indexOf('const commands = {'),
    worker.indexOf('\n};', worker.indexOf('const commands = {')),
  );
  const handled = [...table.matchAll(/^ {2}(?:async )?(\w+)(?:\(|:)/gm)].map((x) => x[1]);
  assert.deepEqual(handled, [...COMMANDS], 'worker.js handles the commands in the order of protocol.js');
  assert.match(worker, /import \{ COMMANDS \} from '.\/protocol.js'/);
});

test('the client sends only commands of protocol.js, and the worker posts only its events', () => {
  const sent = new Set();
  for (const f of jsFiles('client')) {
    for (const x of src(f).matchAll(/(?:\.call|\._post|#call)\('(\w+)'/g)) sent.add(x[1]);
  }
  assert.ok(sent.size >= 15, `found ${sent.size} commands sent by client/`);
  for (const c of sent) assert.ok(COMMANDS.includes(c), `client/ sends '${c}', which the worker does not handle`);
  for (const x of src('worker/worker.js').matchAll(/event: '(\w+)'/g))
    assert.ok(EVENTS.includes(x[1]), `worker posts '${x[1]}', missing from EVENTS`);
});

test('registry().live_keys is the one list of live optimizer fields, and configure() follows it', () => {
  const { live_keys: keys, config } = REGISTRY;
  assert.deepEqual(keys, ['lr', 'clip', 'warmup', 'schedule', 'weight_decay', 'steps']);
  for (const k of keys)
    assert.ok(
      config.some((f) => f.key === k),
      `${k} is a config field`,
    );
  sessionWith(m, { task: 'copy' }, (s) => {
    const now = JSON.parse(s.info()).config;
    for (const k of keys) assert.doesNotThrow(() => s.configure(JSON.stringify({ [k]: now[k] })), k);
    assert.throws(
      () => s.configure('{"d_model": 32}'),
      (e) => keys.every((k) => e.message.includes(k)),
    );
  });
  // No second, hand-written copy of the list in the web sources.
  for (const dir of ['pages/playground', 'widgets', 'client', 'worker', 'state'])
    for (const f of jsFiles(dir)) assert.doesNotMatch(src(f), /\[\s*'lr',\s*'clip'/, f);
});

test("Session.trainChunk(n) is the core's train_chunk: chunked or not, the same losses and evaluations", () => {
  const config = { task: 'copy', seed: 5, eval_every: 4, eval_len: 20, position: 'sinusoidal' };
  sessionWith(m, config, (whole) =>
    sessionWith(m, config, (parts) => {
      const a = JSON.parse(whole.trainChunk(10));
      const chunks = [3, 0, 5, 2].map((n) => JSON.parse(parts.trainChunk(n)));
      const b = { steps: chunks.flatMap((c) => c.steps), evals: chunks.flatMap((c) => c.evals) };
      assert.deepEqual(
        b.steps.map((x) => x.loss),
        a.steps.map((x) => x.loss),
      );
      assert.deepEqual(
        b.evals.map((e) => [e.step, e.length, e.loss]),
        a.evals.map((e) => [e.step, e.length, e.loss]),
      );
      assert.deepEqual(
        a.evals.map((e) => [e.step, e.length]),
        [
          [4, 16],
          [4, 20],
          [8, 16],
          [8, 20],
        ],
      );
      assert.throws(() => whole.trainChunk(-1), /train: n must be from 0 to 1000000/);
      assert.equal(whole.stepsDone(), 10, 'a refused n changes nothing');
    }),
  );
});

test('the type check passes on the tree and fails on a misspelt command', () => {
  const check = (args) =>
    spawnSync(process.execPath, [resolve(ROOT, 'build-scripts/typecheck.mjs'), ...args], {
      cwd: ROOT,
      encoding: 'utf8',
    });
  const ok = check([]);
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  // A client-side call with a name the worker does not know, checked under the same options.
  mkdirSync(join(ROOT, 'build'), { recursive: true }); // inside the tree: tsconfig's types resolve from there
  const dir = mkdtempSync(join(ROOT, 'build', 'typecheck-'));
  try {
    writeFileSync(
      join(dir, 'bad.js'),
      [
        "import { EngineClient } from '../../web/src/client/client.js';",
        '/** @param {EngineClient} c */',
        "export const bad = (c) => c.call('createe', {});",
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../../tsconfig.json', include: ['bad.js'] }));
    const bad = check([join(dir, 'tsconfig.json')]);
    assert.equal(bad.status, 1, bad.stdout + bad.stderr);
    assert.match(bad.stdout, /bad\.js.*'"createe"' is not assignable/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
