// The data behind the course's engine figures, from the engine itself (the simd module under
// Node), written to web/course/figures/: lesson 4's θ′/θ per RoPE pair under PI, NTK-aware
// scaling and YaRN (rope-scaling.json, drawn by web/src/pages/course/theta-figure.mjs). The lesson
// pages are built from the committed file; tests/node/course-figures.test.mjs fails when the
// engine no longer gives these numbers. Run after changing the engine's scalings:
//   node build-scripts/course-figures.mjs
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadModule, sessionWith, ROOT } from '../tests/node/load.mjs';

/** Lesson 4's models (its copy_back widgets): 32 wide, 4 heads, 4 pairs per head, trained at 16. */
export const ROPE_CONFIG = { task: 'copy_back', position: 'rope', d_model: 32, heads: 4, layers: 2, seq_len: 16 };
export const FACTOR = 4;
export const SCALINGS = ['pi', 'ntk', 'yarn'];
export const FILE = resolve(ROOT, 'web/course/figures/rope-scaling.json');

/** θ per pair (fastest first) and θ′/θ under each scaling at FACTOR, as the engine reports them. */
export function ropeScaling(m) {
  const positions = (/** @type {object} */ extra) =>
    sessionWith(m, { ...ROPE_CONFIG, ...extra }, (s) => JSON.parse(s.positions(0)));
  const round = (/** @type {number[]} */ v) => v.map((x) => Number(x.toPrecision(6)));
  const ratio = Object.fromEntries(
    SCALINGS.map((k) => [k, round(positions({ rope_scaling: k, rope_factor: FACTOR }).scaling.ratio)]),
  );
  return { config: ROPE_CONFIG, factor: FACTOR, theta: round(positions({}).theta), ratio };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const data = ropeScaling(await loadModule('simd'));
  writeFileSync(FILE, `${JSON.stringify(data, null, 1)}\n`);
  console.log(`wrote ${FILE}`);
}
