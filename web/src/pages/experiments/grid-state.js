// "Your own grid": what the learner chose (the task, two axes with their values, the metric, the
// seeds and steps), its URL hash, read strictly (every key known, every value of its field's kind
// and range, bounded lengths and counts: a tampered link gets a message in words, never a guess),
// its runs (each axis value applied to the task's default state by state/fields.js applyField, the
// reader of the playground's hash;
// every cell trains seeds 1..N, so the same seed sees the same batches in every cell) and the
// equivalent native command line. No DOM.
import { hashParts } from '../../state/hash.js';
import { applyField } from '../../state/fields.js';
import { defaultState, withValue, toConfig } from '../../state/state.js';

/** @typedef {import('../../state/properties.js').Property} Property */
/** @typedef {import('../../state/properties.js').State} State */
/** @typedef {import('../../wasm-api').Registry} Registry */
/**
 * @typedef {{field: string, values: string[]}} Axis
 * @typedef {{task: string, a: Axis, b: Axis, metric: string, seeds: number, steps: number}} GridSpec
 */

/** The most runs (cells × seeds) a grid trains in a tab, the most values per axis, and the step range. */
export const LIMITS = {
  runs: 36,
  values: 6,
  seeds: 5,
  steps: 3000,
  hash: 600,
  value: 40,
};
/** The metrics a grid can show: key -> per-run column, words, and which way is better. */
export const METRICS = {
  acc1: {
    column: 'eval_accuracy',
    words: 'accuracy at 1× the training length',
    higher: true,
  },
  acc2: {
    column: 'eval_accuracy_x2',
    words: 'accuracy at 2× the training length',
    higher: true,
  },
  acc4: {
    column: 'eval_accuracy_x4',
    words: 'accuracy at 4× the training length',
    higher: true,
  },
  loss: { column: 'eval_loss', words: 'held-out loss', higher: false },
  bpc: {
    column: 'eval_bpc',
    words: 'bits per character (held-out loss ÷ ln 2)',
    higher: false,
  },
};
/** Every run is also evaluated at these multiples of the training length. */
export const EVAL_AT = [2, 4];

/** The grid a first visit shows. */
export const DEFAULT_SPEC = {
  task: 'copy',
  a: { field: 'position', values: ['none', 'rope'] },
  b: { field: 'seq_len', values: ['8', '16'] },
  metric: 'acc1',
  seeds: 1,
  steps: 150,
};

/**
 * The fields an axis may be: every model setting the registry declares, except the task (the
 * grid's own), the seed and steps (the grid's) and free text.
 * @param {Property[]} props
 * @returns {string[]}
 */
export function axisFields(props) {
  const keys = props
    .filter((p) => !p.view && p.kind !== 'string' && !['task', 'seed', 'steps'].includes(p.key))
    .map((p) => p.key);
  return [...new Set(keys)];
}

/**
 * Check a spec against the registry: the runs' states, or what is wrong, in words.
 * @param {GridSpec} spec
 * @param {Property[]} props
 * @param {Registry} registry
 * @returns {{cells: {a: string, b: string, state: State|null, error: string}[], errors: string[]}}
 */
export function gridRuns(spec, props, registry) {
  /** @type {string[]} */
  const errors = [];
  if (!registry.tasks.some((t) => t.name === spec.task))
    errors.push(`task "${cut(spec.task)}" is not one of ${registry.tasks.map((t) => t.name).join(', ')}`);
  const fields = axisFields(props);
  for (const [name, ax] of /** @type {const} */ ([
    ['first', spec.a],
    ['second', spec.b],
  ])) {
    if (!fields.includes(ax.field)) errors.push(`the ${name} axis "${cut(ax.field)}" is not a setting a grid can vary`);
    if (ax.values.length < 1 || ax.values.length > LIMITS.values)
      errors.push(`the ${name} axis has ${ax.values.length} values; give 1 to ${LIMITS.values}`);
    if (new Set(ax.values).size !== ax.values.length) errors.push(`the ${name} axis repeats a value`);
  }
  if (spec.a.field === spec.b.field) errors.push('the two axes are the same setting');
  if (!Object.hasOwn(METRICS, spec.metric))
    errors.push(`metric "${cut(spec.metric)}" is not one of ${Object.keys(METRICS).join(', ')}`);
  if (!Number.isInteger(spec.seeds) || spec.seeds < 1 || spec.seeds > LIMITS.seeds)
    errors.push(`seeds must be a whole number from 1 to ${LIMITS.seeds}`);
  if (!Number.isInteger(spec.steps) || spec.steps < 1 || spec.steps > LIMITS.steps)
    errors.push(`steps must be a whole number from 1 to ${LIMITS.steps}`);
  const runs = spec.a.values.length * spec.b.values.length * spec.seeds;
  if (runs > LIMITS.runs)
    errors.push(
      `this grid is ${spec.a.values.length} × ${spec.b.values.length} cells × ${spec.seeds} seeds = ${runs} runs; a grid in the browser trains at most ${LIMITS.runs}. Use fewer values or seeds, or run it natively with the command line below.`,
    );
  if (errors.length) return { cells: [], errors };
  const base = withValue(props, registry, defaultState(props, registry, spec.task), 'steps', spec.steps);
  const cells = spec.a.values.flatMap((va) =>
    spec.b.values.map((vb) => {
      let state = base;
      for (const [key, raw] of [
        [spec.a.field, va],
        [spec.b.field, vb],
      ]) {
        const r = applyField({ props, registry }, state, key, raw);
        if (!('error' in r)) {
          state = /** @type {State} */ (r.state);
          continue;
        }
        if (r.error.kind !== 'value')
          return {
            a: va,
            b: vb,
            state: null,
            error: `${key} is ${r.error.why}`,
          };
        errors.push(`${key}=${cut(raw)}: ${r.error.why}`);
        return { a: va, b: vb, state: null, error: r.error.why };
      }
      return { a: va, b: vb, state, error: '' };
    }),
  );
  return errors.length ? { cells: [], errors: [...new Set(errors)] } : { cells, errors: [] };
}

/**
 * The config of one run: the cell's state with the seed.
 * @param {Property[]} props
 * @param {State} state
 * @param {number} seed
 */
export const runConfig = (props, state, seed) => ({
  ...toConfig(props, state),
  seed,
});

/** @param {string} s */
const cut = (s, n = 40) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * The hash of a spec (with '#').
 * @param {GridSpec} s
 */
export function specToHash(s) {
  const e = encodeURIComponent;
  return `#task=${e(s.task)}&a=${e(s.a.field)}&av=${e(s.a.values.join(','))}&b=${e(s.b.field)}&bv=${e(s.b.values.join(','))}&metric=${e(s.metric)}&seeds=${s.seeds}&steps=${s.steps}`;
}

const HASH_KEYS = ['task', 'a', 'av', 'b', 'bv', 'metric', 'seeds', 'steps'];

/**
 * Read a hash into a spec, strictly (the registry checks come after, in gridRuns).
 * @param {string} hash
 * @returns {{spec: GridSpec} | {error: string}}
 */
export function hashToSpec(hash) {
  const text = hash.replace(/^#/, '');
  if (text.length > LIMITS.hash)
    return {
      error: `The link's grid is ${text.length} characters long; at most ${LIMITS.hash} are read.`,
    };
  /** @type {Record<string, string>} */
  const got = Object.create(null);
  for (const d of hashParts(text)) {
    if ('bad' in d)
      return {
        error: `The link's "${cut(d.bad)}" is not URL-encoded properly.`,
      };
    const { key, raw } = d;
    if (!HASH_KEYS.includes(key))
      return {
        error: `The link names "${cut(key)}", which is not part of a grid (the parts are ${HASH_KEYS.join(', ')}).`,
      };
    if (key in got) return { error: `The link gives ${key} twice.` };
    if (raw.length > LIMITS.value * LIMITS.values) return { error: `The link's ${key} is too long.` };
    got[key] = raw;
  }
  const missing = HASH_KEYS.filter((k) => !(k in got));
  if (missing.length) return { error: `The link's grid lacks ${missing.join(', ')}.` };
  const list = (/** @type {string} */ s) =>
    s
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  const int = (/** @type {string} */ k, /** @type {number} */ max) => {
    const v = Number(got[k]);
    return /^\d{1,6}$/.test(got[k]) && v >= 1 && v <= max ? v : null;
  };
  const seeds = int('seeds', LIMITS.seeds);
  if (seeds === null)
    return {
      error: `The link's seeds "${cut(got.seeds)}" is not a whole number from 1 to ${LIMITS.seeds}.`,
    };
  const steps = int('steps', LIMITS.steps);
  if (steps === null)
    return {
      error: `The link's steps "${cut(got.steps)}" is not a whole number from 1 to ${LIMITS.steps}.`,
    };
  const av = list(got.av);
  const bv = list(got.bv);
  const long = [...av, ...bv].find((v) => v.length > LIMITS.value);
  if (long)
    return {
      error: `The link's value "${cut(long)}" is longer than ${LIMITS.value} characters.`,
    };
  return {
    spec: {
      task: got.task,
      a: { field: got.a, values: av },
      b: { field: got.b, values: bv },
      metric: got.metric,
      seeds,
      steps,
    },
  };
}

/** A shell word: bare when safe, else in single quotes. @param {string} s */
const sh = (s) => (/^[A-Za-z0-9_.,=:+\-/]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);

/**
 * The native command line that trains the same grid with `attnplay sweep`.
 * @param {GridSpec} s
 */
export function nativeCommand(s) {
  const grid = `${s.a.field}=${s.a.values.join(',')} ${s.b.field}=${s.b.values.join(',')}`;
  const evalAt = METRICS[/** @type {keyof typeof METRICS} */ (s.metric)]?.column.includes('_x')
    ? ` --eval-at ${EVAL_AT.join(',')}`
    : '';
  return `attnplay sweep --set ${sh(`task=${s.task}`)} --set steps=${s.steps} --grid ${/^[A-Za-z0-9_.,=:+\- ]+$/.test(grid) ? `"${grid}"` : sh(grid)} --seeds ${s.seeds}${evalAt} --out grid.csv --summary grid.summary.csv`;
}
