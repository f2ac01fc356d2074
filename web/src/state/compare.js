// A comparison: the same setup trained several times with one or more settings changed, written
// "field=value,value;field=value,value" (the widget's `compare` attribute; a field given one
// value sets it in every run). "position=none,learned" is two runs, the same model with and
// without positions. Each run is the base state with its values, applied by the reader the URL
// hash uses (state/fields.js applyField): a value that does not apply is reported, never guessed.
// Runs share the base's seed, so they start from the same weights (where the shapes agree) and see
// the same batches. What is wrong is said as message keys (the table's element part,
// common/messages/element.*.js, both languages in a widget's entry, so that a Chinese widget says it
// in Chinese) and, from the same keys, in English. No DOM.
import { selectorsFirst } from './properties.js';
import { applyField } from './fields.js';
import { addMessages, sayIn } from '../common/messages.js';
import ELEMENT_EN from '../common/messages/element.en.js';

addMessages('en', ELEMENT_EN); // the English errors below (the API's messages)

/** @typedef {import('./properties.js').State} State */
/** @typedef {import('./properties.js').Property} Property */
/** @typedef {import('../wasm-api').Registry} Registry */
/** @typedef {import('./fields.js').Said} Said */

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
 * @returns {{runs: State[], fields: string[], errors: string[], said: Said[]}} runs: one state per run
 *   (none when the spec cannot be used); fields: the settings that differ; said: what was wrong, as
 *   message keys (sayIn in the reader's language); errors: the same in English
 */
export function readCompare(spec, base, props, registry) {
  const shown = spec.length > 60 ? `${spec.slice(0, 59)}…` : spec;
  const fail = (/** @type {string} */ key, /** @type {Said['params']} */ params = {}) =>
    refused([{ key: `compare.${key}`, params: { spec: shown, ...params } }]);
  if (spec.length > MAX_SPEC) return fail('long', { max: MAX_SPEC });
  const parts = spec
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.length) return fail('empty');
  if (parts.length > MAX_FIELDS) return fail('fields', { n: parts.length, max: MAX_FIELDS });
  /** @type {[string, string[]][]} */
  const fields = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq < 1) return fail('pair', { part: part.slice(0, 40) });
    const key = part.slice(0, eq).trim().replaceAll('-', '_');
    if (fields.some(([k]) => k === key)) return fail('twice', { field: key.slice(0, 40) });
    fields.push([
      key,
      part
        .slice(eq + 1)
        .split(',')
        .map((v) => v.trim()),
    ]);
  }
  const n = Math.max(...fields.map(([, values]) => values.length));
  if (n < 2) return fail('one');
  if (n > MAX_RUNS) return fail('runs', { n, max: MAX_RUNS });
  const uneven = fields.find(([, values]) => values.length !== 1 && values.length !== n);
  if (uneven) return fail('uneven', { field: uneven[0].slice(0, 40), k: uneven[1].length, n });
  const ordered = selectorsFirst(fields); // a selector decides which options exist
  const { runs, wrong } = compareRuns(ordered, n, base, { props, registry });
  if (wrong.size) return refused([...wrong.values()]);
  const differ = ordered.map(([k]) => k).filter((k) => runs.some((r) => r[k] !== runs[0][k]));
  return { runs, fields: differ, errors: [], said: [] };
}

/**
 * The n runs of a comparison: `base` with each field's value for that run (its one value, or its
 * i-th), applied in `ordered`'s order; what cannot be applied, once each, as message keys.
 * @param {[string, string[]][]} ordered @param {number} n @param {State} base
 * @param {{props: Property[], registry: Registry}} engine
 */
function compareRuns(ordered, n, base, { props, registry }) {
  /** @type {State[]} */
  const runs = [];
  /** @type {Map<string, Said>} what is wrong, once each */
  const wrong = new Map();
  for (let i = 0; i < n; i++) {
    let state = base;
    for (const [key, values] of ordered) {
      const raw = values.length === 1 ? values[0] : values[i];
      const r = applyField({ props, registry }, state, key, raw);
      if (!('error' in r)) {
        state = /** @type {State} */ (r.state);
        continue;
      }
      const field = key.slice(0, 40);
      const why = r.error.say ?? { key: 'attr.asIs', params: { text: r.error.why } };
      /** @type {Said} */
      const said =
        r.error.kind === 'unknown'
          ? { key: 'compare.unknown', params: { field } }
          : r.error.kind === 'inactive'
            ? { key: 'compare.inactive', params: { field, why, run: i + 1 } }
            : { key: 'compare.value', params: { field, value: raw.slice(0, 40), why, run: i + 1 } };
      wrong.set(JSON.stringify(said), said);
    }
    runs.push(state);
  }
  return { runs, wrong };
}

/** A spec that cannot be used: no runs, and why. @param {Said[]} said */
function refused(said) {
  return {
    runs: [],
    fields: [],
    errors: said.map((s) => sayIn('en', s)),
    said,
  };
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
