// node tests/native/presets_check.mjs ATTNPLAY — every config preset of the widget (playground and
// one per position encoding, web/src/widgets/presets.js) reaches the goal it was designed to show,
// on seeds 1, 2 and 3: the preset's config trained by the native CLI, its held-out accuracy at the
// training length and at twice it held against the goal's bounds (an encoding's goal is stated in
// presets.js or read from its registry flags). Two runs at a time. Exits 1 naming each preset, seed,
// metric and value that missed, or a stated line that names no encoding.
// The demo presets (permutation, probe, extrapolation) state their results on their own pages
// and are checked by tests/browser/demos.test.mjs.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PRESETS, ENCODING_PRESETS, presetFor } from '../../web/src/widgets/presets.js';

const run = promisify(execFile);
const bin = process.argv[2];
if (!bin) throw new Error('usage: node presets_check.mjs path/to/attnplay');
const SEEDS = [1, 2, 3];

const registry = JSON.parse((await run(bin, ['list', 'positions', '--json'])).stdout);
const failures = [];
// A stated line must name an encoding of the registry (a renamed encoding leaves no stale line).
for (const name of Object.keys(ENCODING_PRESETS))
  if (!registry.positions.some((e) => e.name === name))
    failures.push(`${name}: a line in ENCODING_PRESETS (web/src/widgets/presets.js) names no encoding`);

const names = [...Object.keys(PRESETS).filter((n) => !PRESETS[n].demo), ...registry.positions.map((e) => e.name)];
const presets = names.map((n) => presetFor(n, registry)).filter((p) => p?.goal);

/** The CLI's --set arguments for a preset's config: task and position first (they decide the options). */
function setArgs(config, seed) {
  const first = ['task', 'position'].filter((k) => k in config);
  const keys = [...first, ...Object.keys(config).filter((k) => !first.includes(k))];
  return [...keys.flatMap((k) => ['--set', `${k}=${config[k]}`]), '--set', `seed=${seed}`];
}

const metric = {
  heldout: (r) => r.eval_accuracy,
  heldout_2x: (r) => r.eval_at_eval_len?.token_accuracy,
};

async function check(preset, seed) {
  const { stdout } = await run(bin, ['train', ...setArgs(preset.config, seed), '--json'], { maxBuffer: 1 << 24 });
  const r = JSON.parse(stdout);
  const got = [];
  for (const c of preset.goal.checks) {
    const v = metric[c.metric](r);
    const ok = typeof v === 'number' && (c.min === undefined || v >= c.min) && (c.max === undefined || v <= c.max);
    const bound = c.min !== undefined ? `>= ${c.min}` : `<= ${c.max}`;
    got.push(`${c.metric} ${typeof v === 'number' ? v.toFixed(3) : v}`);
    if (!ok)
      failures.push(`${preset.name} seed ${seed}: ${c.metric} is ${v}, the goal "${preset.goal.text}" needs ${bound}`);
  }
  console.log(`${preset.name} seed ${seed}: ${got.join(', ')}`);
}

const jobs = presets.flatMap((p) => SEEDS.map((s) => () => check(p, s)));
const workers = Array.from({ length: 2 }, async () => {
  for (let job = jobs.shift(); job; job = jobs.shift()) await job();
});
await Promise.all(workers);

if (presets.length < names.length)
  failures.push(`presets without a goal: ${names.filter((n) => !presets.some((p) => p.name === n)).join(', ')}`);
if (failures.length) {
  console.error(`presets: ${failures.length} missed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log(`presets: all ${presets.length} config presets reach their goals on seeds ${SEEDS.join(', ')}`);
