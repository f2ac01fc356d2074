// Which wasm variant this browser can run: a 1-function module that uses a v128 instruction
// validates only where WebAssembly SIMD is supported, and one with memory.copy only where bulk
// memory is (the SIMD variant uses both; probes as in wasm-feature-detect). The threaded variant
// also needs SharedArrayBuffer, which browsers give only to pages that are crossOriginIsolated
// (served with COOP/COEP, see docs/threads.md), and more than one core; only the standalone
// playground asks for it (by default; ?threads=0 opts out): widgets on other sites cannot rely on
// those headers, and the demo pages already train one model per core in a pool of workers.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

const BULK_MEMORY_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 5, 3, 1, 0, 1, 10, 14, 1, 12, 0, 65, 0, 65, 0, 65, 0, 252,
  10, 0, 0, 11,
]);

/** The most threads the threaded variant uses (the thread that calls in plus 3 pthreads). */
export const MAX_THREADS = 4;

/**
 * The threads the threaded variant would use here: min(cores, MAX_THREADS), or 0 when this
 * context cannot run it (not crossOriginIsolated, no SharedArrayBuffer, one core).
 * @param {{crossOriginIsolated?: boolean, hardwareConcurrency?: number, hasSharedMemory?: boolean}} [env]
 *   what to decide on (default: this window or worker)
 * @returns {number}
 */
export function threadsAvailable(env = {}) {
  const isolated = env.crossOriginIsolated ?? globalThis.crossOriginIsolated === true;
  const shared = env.hasSharedMemory ?? typeof SharedArrayBuffer === 'function';
  const cores = env.hardwareConcurrency ?? globalThis.navigator?.hardwareConcurrency ?? 1;
  return isolated && shared && cores > 1 ? Math.min(cores, MAX_THREADS) : 0;
}

/**
 * Whether the standalone playground asks for the threaded variant: always, unless its address
 * opts out with ?threads=0 (bestVariant still checks that the page can run it).
 * @param {string} search the page's location.search
 * @returns {boolean}
 */
export function threadsRequested(search) {
  return new URLSearchParams(search).get('threads') !== '0';
}

/**
 * @param {{threads?: boolean}} [opts] threads: the caller may use the threaded variant (the
 *   standalone playground; never a widget)
 * @returns {'threads'|'simd'|'scalar'} the best variant this browser supports
 */
export function bestVariant({ threads = false } = {}) {
  try {
    if (!(WebAssembly.validate(SIMD_PROBE) && WebAssembly.validate(BULK_MEMORY_PROBE))) return 'scalar';
    return threads && threadsAvailable() > 0 ? 'threads' : 'simd';
  } catch {
    return 'scalar';
  }
}
