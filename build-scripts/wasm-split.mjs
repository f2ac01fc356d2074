// build-scripts/wasm-split.mjs BUILD_DIR: splits the browser module of a wasm build (wasm-simd,
// wasm-scalar) into the code a first view runs and the rest, loaded on demand.
//
// The link (core/bindings/wasm.cmake, -sSPLIT_MODULE) leaves attnplay.wasm.orig (the module) and
// attnplay.wasm (the same, instrumented to record which functions run). This script runs the
// instrumented module under Node through the Node flavour's glue (attnplay.node.js: the same wasm
// imports and exports) over a first view of every encoding, normalization and task (registry,
// checkConfig, a Session, its first steps, attention, predictions, positions, evaluations, replay,
// the checkpoint a widget saves),
// then Binaryen's wasm-split writes attnplay.wasm (the functions that ran) and
// attnplay.deferred.wasm (the rest: Explore, Generate, interventions, head diagnostics, loading a
// model file, the PyTorch export ...). The worker loads the deferred part the first time one of its
// functions is called (web/src/worker/load-module.js). A rerun profiles and splits the module again.
import { createRequire } from 'node:module';
import { existsSync, readFileSync, writeFileSync, statSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import REGISTRY from '../web/src/state/registry.gen.js';

const require = createRequire(import.meta.url);

/** Calls a first view makes, for one config; errors (a refused config) are part of the path. */
function firstView(m, reg, config, steps) {
  const checked = JSON.parse(m.checkConfig(JSON.stringify(config)));
  if (!checked.ok) return false;
  new m.Session(JSON.stringify(config)).delete();
  // the pages create sessions from the whole config checkConfig returns (every option spelled out)
  const s = new m.Session(JSON.stringify(withOptions(reg, checked.config)));
  try {
    s.info();
    // chunks that grow, as the worker's adaptive ones do, through the evaluations and replay frames
    for (let n = 1, done = -1; s.stepsDone() < steps && s.stepsDone() > done; n *= 2) {
      done = s.stepsDone();
      s.trainChunk(Math.min(n, steps - done));
      s.attention(0, 0);
      s.predictions(4, 0);
    }
    s.stepsDone();
    s.positions(0);
    // a run keeps every evaluation: past the list's first growths, a widget's later evaluations
    // take another path (found when the training loop was compiled with -Os)
    for (let i = 0; i < 5; i++) s.evaluate(0);
    const index = JSON.parse(s.replayIndex());
    const kept = index.steps ?? index;
    if (Array.isArray(kept) && kept.length) s.replayFrame(Number(kept[0].step ?? kept[0]));
    s.configure(JSON.stringify({ lr: 0.002 }));
    s.trainChunk(1);
    s.save(); // the pages' and widgets' checkpoints of saved work
  } catch (e) {
    if (process.env.WASM_SPLIT_VERBOSE) console.error(JSON.stringify(config), e);
  } finally {
    s.delete();
  }
  return true;
}

function names(list) {
  return Array.isArray(list) ? list.map((x) => x.name ?? x) : Object.keys(list ?? {});
}

/** The options of the entries a config names, at their defaults, spelled out as the widgets do. */
function withOptions(reg, config) {
  const out = { ...config };
  for (const [field, key] of [
    ['position', 'positions'],
    ['normalization', 'normalizations'],
    ['task', 'tasks'],
  ]) {
    const entry = (reg[key] ?? []).find((e) => e.name === config[field]);
    for (const o of entry?.options ?? []) if (o.default !== undefined && !(o.key in out)) out[o.key] = o.default;
  }
  return out;
}

/** The profile (wasm-split's format) of the instrumented module `wasm`, run through `glue`. */
async function profile(glue, wasm) {
  const m = await require(glue)({ wasmBinary: wasm, print: () => {}, printErr: () => {} });
  (m.version(), m.simdArch(), m.simdEnabled(), m.threadsSupported(), m.setThreads(1), m.threads());
  const reg = REGISTRY; // the page reads the registry as data, never from the module at first view
  m.checkConfig('{"d_model": -1}');
  m.checkConfig('not json');
  const small = { d_model: 16, heads: 2, layers: 1, seq_len: 12, batch: 4, steps: 40 };
  firstView(m, reg, {}, 130);
  firstView(m, reg, small, 30);
  // every encoding at the widgets' default size (a preset's widget), then the rest small
  // and to their end (steps="60": the run's last evaluation, a chunk past the end)
  for (const name of names(reg.positions)) firstView(m, reg, { task: 'copy', position: name, steps: 60 }, 70);
  for (const [field, key] of [
    ['normalization', 'normalizations'],
    ['task', 'tasks'],
  ])
    for (const name of names(reg[key])) {
      firstView(m, reg, { ...small, [field]: name }, 30) || firstView(m, reg, { [field]: name }, 30);
      firstView(m, reg, { [field]: name, position: 'sinusoidal', steps: 60 }, 20);
    }
  // a session of every encoding x normalization x task from its whole config: the config readers'
  // paths depend on how many options a config spells out
  for (const position of names(reg.positions))
    for (const normalization of names(reg.normalizations))
      for (const task of names(reg.tasks)) {
        for (const size of [small, {}]) {
          const checked = JSON.parse(m.checkConfig(JSON.stringify({ ...size, position, normalization, task })));
          if (checked.ok) new m.Session(JSON.stringify(withOptions(reg, checked.config))).delete();
        }
      }
  const size = 1 << 22;
  const at = m._malloc(size);
  const n = m.asm.__write_profile(at, size);
  return Buffer.from(m.HEAPU8.subarray(at, at + n));
}

export async function split(dir) {
  const orig = resolve(dir, 'attnplay.wasm.orig');
  const wasm = resolve(dir, 'attnplay.wasm');
  const deferred = resolve(dir, 'attnplay.deferred.wasm');
  if (!existsSync(orig)) throw new Error(`${orig} is missing: link ${dir} with -sSPLIT_MODULE (wasm.cmake)`);
  // instrumented afresh from the module (as the link does), so that a rerun profiles again
  const instrumented = resolve(dir, 'attnplay.instrumented.wasm');
  execFileSync('wasm-split', ['--instrument', orig, '-o', instrumented, '-all']);
  // Node's glue of the same objects as the browser's module (wasm.cmake: ap_split)
  const data = await profile(resolve(dir, 'attnplay.split.js'), readFileSync(instrumented));
  rmSync(instrumented);
  const profileFile = resolve(dir, 'attnplay.profile');
  writeFileSync(profileFile, data);
  // wasm-split writes the outputs; the instrumented module stays only until they exist
  execFileSync('wasm-split', [
    orig,
    `--profile=${profileFile}`,
    '-o1',
    `${wasm}.primary`,
    '-o2',
    deferred,
    '--import-namespace=primary',
    '--placeholder-namespace=placeholder',
    '--export-prefix=%',
    '-all',
  ]);
  writeFileSync(wasm, readFileSync(`${wasm}.primary`));
  rmSync(`${wasm}.primary`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: node build-scripts/wasm-split.mjs BUILD_DIR (build/wasm-simd)');
  await split(resolve(dir));
  const kb = (f) => `${(statSync(resolve(dir, f)).size / 1000).toFixed(1)} KB`;
  console.log(`${dir}: attnplay.wasm ${kb('attnplay.wasm')} + attnplay.deferred.wasm ${kb('attnplay.deferred.wasm')}`);
}
