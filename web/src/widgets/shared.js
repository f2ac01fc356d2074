// What every widget on a page shares: one WorkerPool (so one download of the module and of the
// wasm, which the browser caches for the pool's later workers) and the engine's registry with
// the property list built from it. Created on first use, i.e. when the first widget scrolls into
// view; nothing here runs at import time.
import { WorkerPool } from '../client/pool.js';
import { buildProperties } from '../state/properties.js';
import registry from '../state/registry.js';

// Leave one core to the page, so that rendering never waits behind training; 4 at most.
const POOL_SIZE = Math.max(1, Math.min(4, (navigator.hardwareConcurrency || 2) - 1));

/**
 * What the widgets of a page share (see the header).
 * @typedef {{pool: WorkerPool, info: import('../client/client.js').EngineInfo, registry: import('../wasm-api').Registry,
 *   props: import('../state/properties.js').Property[]}} WidgetEngine
 */

/** @type {WorkerPool|null} */
let pool = null;
/** @type {Promise<WidgetEngine>|null} */
let engine = null;

/** The page's worker pool (not started until a widget asks for the engine). */
export function sharedPool() {
  pool ??= new WorkerPool({ size: POOL_SIZE });
  return pool;
}

/**
 * Start the first worker and load the module (the registry is data: state/registry.gen.js): resolves once per page.
 * @returns {Promise<WidgetEngine>}
 */
export function sharedEngine() {
  engine ??= (async () => {
    const p = sharedPool();
    const info = await p.engine();
    return { pool: p, info, registry, props: buildProperties(registry) };
  })();
  engine.catch(() => (engine = null)); // a failed load can be retried by the next widget
  return engine;
}
