// A comparison: the same setup trained several times with one or more settings changed, written
// "field=value,value;field=value,value" (the widget's `compare` attribute; a field given one
// value sets it in every run). "position=none,learned" is two runs, the same model with and
// without positions. Each run is the base state with its values, applied by the reader the URL
// hash uses (state/fields.js applyField): a value that does not apply is reported, never guessed.
// Runs share the base's seed, so they start from the same weights (where the shapes agree) and see
// the same batches. No DOM.
import { selectorsFirst } from './properties.js';
import { applyField } from './fields.js';

/** @typedef {import('./properties.js').State} State */
/** @typedef {import('./properties.js').Property} Property */
/** @typedef {import('../wasm-api').Registry} Registry */

/** The most runs a comparison trains at once. */
export const MAX_RUNS = 4;
/** The longest spec read (characters) and the most fields it may change. */
export const MAX_SPEC = 600;
export const MAX_FIELDS = 6;

/**
 * Read a comparison spec against a base state.
 * @param {string} spec
 * @param {State} base
 * @param {Property[]} props
 * @param {Registry} registry
 * @returns {{runs: State[], fields: string[], errors: string[]}} runs: one state per run (none when
 *   the spec cannot be used); fields: the settings that differ; errors: what was wrong, in words
 */
export function readCompare(spec, base, props, registry) {
  const fail = (/** @type {string} */ why) => ({
    runs: [],
    fields: [],
    errors: [`compare="${spec.length > 60 ? `${spec.slice(0, 59)}…` : spec}": ${why}`],
  });
  if (spec.length > MAX_SPEC) return fail(`longer than ${MAX_SPEC} characters`);
  const parts = spec
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.length) return fail('names no setting; write field=value,value, e.g. position=none,learned');
  if (parts.length > MAX_FIELDS) return fail(`changes ${parts.length} settings; at most ${MAX_FIELDS}`);
  /** @type {[string, string[]][]} */
  const fields = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq < 1) return fail(`"${part.slice(0, 40)}" is not field=value,value`);
    const key = part.slice(0, eq).trim().replaceAll('-', '_');
    if (fields.some(([k]) => k === key)) return fail(`${key} is given twice`);
    fields.push([
      key,
      part
        .slice(eq + 1)
        .split(',')
        .map((v) => v.trim()),
    ]);
  }
  const n = Math.max(...fields.map(([, values]) => values.length));
  if (n < 2) return fail('needs at least two runs: give some field two values (position=none,learned)');
  if (n > MAX_RUNS) return fail(`asks for ${n} runs; at most ${MAX_RUNS}`);
  const uneven = fields.find(([, values]) => values.length !== 1 && values.length !== n);
  if (uneven) return fail(`${uneven[0]} has ${uneven[1].length} values for ${n} runs (give one value, or one per run)`);
  const ordered = selectorsFirst(fields); // a selector decides which options exist
  /** @type {State[]} */
  const runs = [];
  /** @type {string[]} */
  const errors = [];
  for (let i = 0; i < n; i++) {
    let state = base;
    for (const [key, values] of ordered) {
      const raw = values.length === 1 ? values[0] : values[i];
      const r = applyField({ props, registry }, state, key, raw);
      if (!('error' in r)) state = /** @type {State} */ (r.state);
      else if (r.error.kind === 'unknown') errors.push(`compare: ${key} is not a setting of the model`);
      else if (r.error.kind === 'inactive') errors.push(`compare: ${key} is ${r.error.why} (run ${i + 1})`);
      else errors.push(`compare: ${key}=${raw.slice(0, 40)} in run ${i + 1}: ${r.error.why}`);
    }
    runs.push(state);
  }
  if (errors.length) return { runs: [], fields: [], errors: [...new Set(errors)] };
  return { runs, fields: ordered.map(([k]) => k).filter((k) => runs.some((r) => r[k] !== runs[0][k])), errors: [] };
}

/**
 * Each run's name: the values of the settings that set the runs apart ("position=none"), or
 * "run 2" when none does.
 * @param {State[]} runs
 * @param {string[]} keys the settings that differ (readCompare's `fields`)
 * @returns {string[]}
 */
export function runNames(runs, keys) {
  return runs.map((r, i) => (keys.length ? keys.map((k) => `${k}=${shortValue(r[k])}`).join(', ') : `run ${i + 1}`));
}

/**
 * One line saying what the comparison changes: "position: none vs learned".
 * @param {State[]} runs
 * @param {string[]} keys the settings that differ
 * @param {string} [vs] between two values (the view's language: ' 对 ' in Chinese)
 * @param {string} [is] between a setting and its values (' = ' in Chinese)
 */
export function compareTitle(runs, keys, vs = ' vs ', is = ': ') {
  if (!keys.length) return `${runs.length} identical runs (same settings, same seed)`;
  return keys.map((k) => `${k}${is}${runs.map((r) => shortValue(r[k])).join(vs)}`).join('; ');
}

/** @param {unknown} v */
const shortValue = (v) => {
  const t = String(v);
  return t.length > 24 ? `${t.slice(0, 23)}…` : t;
};
