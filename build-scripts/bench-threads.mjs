// build-scripts/bench-threads.mjs — the threaded wasm build under Node for `npm run bench`:
// tiny-ref steps/s on 2 threads against 1 thread of the same module (build/wasm-threads, its
// pthreads on worker_threads), and the single-threaded SIMD module beside them, in alternating
// rounds so that machine noise hits all three alike. Also run alone:
//   node build-scripts/bench-threads.mjs [--quick] [--json]
// Skips (returns {skipped: reason}) when the threaded module is not built.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TINY_REF } from './bench-tab.mjs';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * @param {{quick?: boolean, log?: (...a: unknown[]) => void}} [opts]
 * @returns {Promise<{threads_2_steps_per_s: number, threads_1_steps_per_s: number,
 *   wasm_simd_steps_per_s: number, ratio: number} | {skipped: string}>}
 */
export async function measureThreadsNode({ quick = false, log = console.error } = {}) {
  if (!existsSync(resolve(ROOT, 'build/wasm-threads/attnplay.node.js')))
    return { skipped: 'build/wasm-threads is not built (build-scripts/build-wasm.sh)' };
  const { loadModule } = await import('../tests/node/load.mjs');
  log('bench: wasm-threads under Node, tiny-ref, 1 and 2 threads');
  const threaded = await loadModule('threads', { pthreadPoolSize: 1 });
  const simd = await loadModule('simd');
  const { speed: _speed, ...config } = TINY_REF;
  const steps = quick ? 10 : 30,
    rounds = quick ? 2 : 4;
  /** steps/s of `steps` steps of a fresh tiny-ref session (after 3 warm-up steps) */
  const rate = (/** @type {any} */ m) => {
    const s = new m.Session(JSON.stringify(config));
    try {
      s.trainChunk(3);
      const t0 = performance.now();
      s.trainChunk(steps);
      return steps / ((performance.now() - t0) / 1000);
    } finally {
      s.delete();
    }
  };
  const best = { one: 0, two: 0, simd: 0 };
  try {
    for (let r = 0; r < rounds; ++r) {
      threaded.setThreads(1);
      best.one = Math.max(best.one, rate(threaded));
      threaded.setThreads(2);
      best.two = Math.max(best.two, rate(threaded));
      best.simd = Math.max(best.simd, rate(simd));
    }
  } finally {
    threaded.setThreads(1);
    threaded.unrefThreads?.();
  }
  return {
    threads_2_steps_per_s: best.two,
    threads_1_steps_per_s: best.one,
    wasm_simd_steps_per_s: best.simd,
    ratio: best.two / best.one,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await measureThreadsNode({ quick: process.argv.includes('--quick') });
  console.log(process.argv.includes('--json') ? JSON.stringify(r) : r);
}
