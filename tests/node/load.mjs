// Loads a wasm variant's CommonJS flavour under Node. Emscripten 3.1.6's loader would try
// fetch() on a file path under Node 20, so the binary is read here and passed as wasmBinary.
import { createRequire } from 'node:module';
import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import REGISTRY from '../../web/src/state/registry.gen.js';

const require = createRequire(import.meta.url);
export const ROOT = resolve(import.meta.dirname, '../..');

/**
 * @param {'simd'|'scalar'|'threads'} variant
 * @param {object} [options] more factory options (threads: {pthreadPoolSize})
 * The build folder is ROOT/build unless ATTNPLAY_BUILD_DIR names another (e.g. another worktree's).
 */
export async function loadModule(variant, options = {}) {
  const dir = resolve(process.env.ATTNPLAY_BUILD_DIR ?? resolve(ROOT, 'build'), `wasm-${variant}`);
  const js = resolve(dir, 'attnplay.node.js');
  if (!existsSync(js)) throw new Error(`${js} is missing: run npm run build:wasm`);
  const factory = require(js);
  return factory({ wasmBinary: readFileSync(resolve(dir, 'attnplay.node.wasm')), ...options });
}

/** Run f with a new Session of module m, deleting it afterwards (as pages must). */
export function sessionWith(m, config, f) {
  const s = new m.Session(JSON.stringify(config));
  try {
    return f(s);
  } finally {
    s.delete();
  }
}

/**
 * The engine's registry, the page's field properties and the default state of `task`, as the
 * pages build them (from the registry as data), for the tests of the page's state.
 * @param {string} [task]
 */
export async function loadState(task = 'copy') {
  const { buildProperties } = await import('../../web/src/state/properties.js');
  const { defaultState } = await import('../../web/src/state/state.js');
  const registry = REGISTRY; // the page's (web/src/state/registry.gen.js), prose included
  const props = buildProperties(registry);
  return { registry, props, base: defaultState(props, registry, task) };
}
