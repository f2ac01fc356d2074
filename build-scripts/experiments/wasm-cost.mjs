// build-scripts/experiments/wasm-cost.mjs — the wasm half of cost-per-encoding: the same grid
// points and seeds as the native sweep, trained by the wasm-simd module under Node (one thread,
// as a browser tab without cross-origin isolation runs it). Per run: training steps/s over the
// definition's steps after one warm-up step, and inference tokens/s of one held-out evaluation.
import { loadModule } from '../../tests/node/load.mjs';

/**
 * @param {any} def the cost-per-encoding definition
 * @param {{quick?: boolean, log?: (s: string) => void}} [opts]
 * @returns {Promise<{rows: Record<string, string|number>[], engine: string}>}
 */
export async function wasmCost(def, { quick = false, log = () => {} } = {}) {
  const m = await loadModule('simd');
  const seeds = quick ? (def.quick?.seeds ?? 1) : def.seeds;
  const steps = quick ? (def.quick?.steps ?? def.set.steps) : def.set.steps;
  /** @type {Record<string, any>[]} */
  const points = def.grids.flatMap((/** @type {Record<string, any[]>} */ grid) =>
    Object.keys(grid).reduce(
      (ps, k) => ps.flatMap((p) => grid[k].map((/** @type {any} */ v) => ({ ...p, [k]: v }))),
      /** @type {Record<string, any>[]} */ ([{}]),
    ),
  );
  const rows = [];
  // Seed by seed, every grid point of a seed before the next (as the native sweep starts its
  // runs): the encodings interleave in time, so a slow minute does not land on one of them.
  for (let seed = 1; seed <= seeds; ++seed)
    for (const p of points) {
      const config = { ...def.set, ...p, seed, steps: steps + 1 };
      const s = new m.Session(JSON.stringify(config));
      try {
        s.trainChunk(1); // warm-up: first-touch of every buffer
        let t = performance.now();
        s.trainChunk(steps);
        const trainS = (performance.now() - t) / 1000;
        t = performance.now();
        s.evaluate(0);
        const evalS = (performance.now() - t) / 1000;
        const tokens = config.seq_len * config.batch * (config.eval_batches ?? 4);
        rows.push({
          ...p,
          seed,
          steps_per_s: steps / trainS,
          infer_tokens_per_s: tokens / evalS,
        });
        log(`wasm-simd ${JSON.stringify(p)} seed ${seed}: ${(steps / trainS).toFixed(1)} steps/s`);
      } finally {
        s.delete();
      }
    }
  return { rows, engine: 'wasm-simd under Node (1 thread)' };
}

/**
 * Mean and sd per grid point of the wasm rows.
 * @param {Record<string, string|number>[]} rows @param {string[]} axes @param {string[]} metrics
 */
export function summarise(rows, axes, metrics) {
  const groups = new Map();
  for (const r of rows) {
    const key = axes.map((a) => String(r[a])).join('\u0000');
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(r);
  }
  return [...groups.values()].map((g) => {
    const out = /** @type {Record<string, string>} */ (Object.fromEntries(axes.map((a) => [a, String(g[0][a])])));
    out.n = String(g.length);
    for (const mt of metrics) {
      const xs = g.map((/** @type {any} */ r) => Number(r[mt]));
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) : NaN;
      Object.assign(out, {
        [`${mt}_mean`]: String(mean),
        [`${mt}_sd`]: String(sd),
      });
    }
    return out;
  });
}
