// build-scripts/wasm-split.mjs BUILD_DIR: splits the browser module of a wasm build (wasm-simd,
// wasm-scalar) into the code a first view runs and the rest, loaded on demand.
//
// The link (core/bindings/wasm.cmake, -sSPLIT_MODULE) leaves attnplay.wasm.orig (the module) and
// attnplay.wasm (the same, instrumented to record which functions run). This script runs the
// instrumented module under Node through the Node flavour's glue (attnplay.node.js: the same wasm
// imports and exports) over a first view of every encoding, normalization and task (registry,
// checkConfig, a Session, its first steps, attention, predictions, positions, evaluations, replay),
// then Binaryen's wasm-split writes attnplay.wasm (the functions that ran) and
// attnplay.deferred.wasm (the rest: Explore, Generate, interventions, head diagnostics, the model
// files, the PyTorch export ...). The worker loads the deferred part the first time one of its
// functions is called (web/src/worker/load-module.js). Run again without a new link, it does nothing.
import { createRequire } from 'node:module';
import { existsSync, readFileSync, writeFileSync, statSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const require = createRequire(import.meta.url);

/** Calls a first view makes, for one config; errors (a refused config) are part of the path. */
function firstView(m, config) {
  const checked = JSON.parse(m.checkConfig(JSON.stringify(config)));
  if (!checked.ok) return false;
  const s = new m.Session(JSON.stringify(config));
  try {
    s.info();
    s.trainChunk(2);
    s.stepsDone();
    s.attention(0, 0);
    s.predictions(4, 0);
    s.positions(0);
    s.evaluate(0);
    const index = JSON.parse(s.replayIndex());
    const steps = index.steps ?? index;
    if (Array.isArray(steps) && steps.length) s.replayFrame(Number(steps[0].step ?? steps[0]));
    s.configure(JSON.stringify({ lr: 0.002 }));
    s.trainChunk(1);
  } catch {
    // a config that trains badly still profiles its path
  } finally {
    s.delete();
  }
  return true;
}

function names(list) {
  return Array.isArray(list) ? list.map((x) => x.name ?? x) : Object.keys(list ?? {});
}

/** The profile (wasm-split's format) of the instrumented module `wasm`, run through `glue`. */
async function profile(glue, wasm) {
  const m = await require(glue)({ wasmBinary: wasm, print: () => {}, printErr: () => {} });
  (m.version(), m.simdArch(), m.simdEnabled(), m.threadsSupported(), m.setThreads(1), m.threads());
  const reg = JSON.parse(m.registry());
  m.checkConfig('{"d_model": -1}');
  m.checkConfig('not json');
  const small = { d_model: 16, heads: 2, layers: 1, seq_len: 12, batch: 4, steps: 20 };
  firstView(m, {});
  firstView(m, small);
  for (const [field, key] of [
    ['position', 'positions'],
    ['normalization', 'normalizations'],
    ['task', 'tasks'],
  ])
    for (const name of names(reg[key])) firstView(m, { ...small, [field]: name }) || firstView(m, { [field]: name });
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
  const bytes = readFileSync(wasm);
  if (!bytes.includes('__write_profile')) {
    if (existsSync(deferred) && statSync(deferred).mtimeMs >= statSync(orig).mtimeMs) return; // split already
    throw new Error(`${wasm} is neither the instrumented module nor split: relink ${dir}`);
  }
  const data = await profile(resolve(dir, 'attnplay.node.js'), bytes);
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
