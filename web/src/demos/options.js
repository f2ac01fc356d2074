// A demo's options, read as every field is read (state/fields.js applyField): from a demo page's
// URL, a widget's attributes or an embedding's options, with the same parse, the same boolean rule
// (true/1 or false/0), the same ranges and the same refusal naming the field. Each demo declares
// here which config fields it takes as a list (position="none,rope"), which of its options are a
// config field's value under another name (check_position is an encoding), its own options with
// their kind and range (seeds, check_causal, task2), and the names its options had before the
// demos took the config's (old links and embeds keep working; the config's name wins). No DOM.
import { applyField } from '../state/fields.js';
import { buildProperties, currentName } from '../state/properties.js';

/** @typedef {import('../state/properties.js').Property} Property */
/** @typedef {import('../state/properties.js').Value} Value */
/** @typedef {import('../state/fields.js').FieldRefusal} FieldRefusal */

/**
 * A demo's own option: a property of the field reader's kind, in the group "demo".
 * @param {string} key @param {Property['kind']} kind @param {Value} def @param {Partial<Property>} [more]
 * @returns {Property}
 */
const own = (key, kind, def, more = {}) => ({ key, kind, group: 'demo', help: '', default: def, ...more });

/** The extrapolation demo's second task (beside copy_back): its `task2`. */
export const SECOND_TASKS = ['copy_first', 'repeat', 'copy', 'reverse', 'sort', 'dyck'];

/** Cells of every demo train this many seeds unless `seeds` says otherwise (1 to 8). */
const SEEDS = own('seeds', 'int', 3, { min: 1, max: 8, help: 'seeds per cell' });

/**
 * @typedef {object} DemoOptionSpec
 * @property {string[]} lists config fields given as a comma-separated list of values
 * @property {Record<string, string>} as options that take a config field's values: option -> field
 * @property {Property[]} own the demo's own options
 * @property {Record<string, string>} old names from before the demos took the config's: old -> name
 */

/** @type {Record<string, DemoOptionSpec>} */
export const DEMO_OPTIONS = {
  permutation: {
    lists: [],
    as: { check_position: 'position' },
    own: [SEEDS, own('check_causal', 'bool', false, { help: 'the checked model has the causal mask' })],
    old: { encoding: 'position' },
  },
  probe: {
    lists: ['position', 'normalization'],
    as: {},
    own: [SEEDS],
    old: { positions: 'position', normalizations: 'normalization' },
  },
  extrapolation: {
    lists: ['position', 'rope_scaling'],
    as: {},
    own: [
      SEEDS,
      own('task2', 'enum', 'copy_first', {
        help: 'the second task',
        choices: SECOND_TASKS.map((value) => ({ value, label: value })),
      }),
    ],
    old: { encodings: 'position', scaling: 'rope_scaling', factor: 'rope_factor' },
  },
};

/**
 * The names a demo reads besides config fields and steps (a widget takes them as attributes):
 * its lists, its options under another field's name, its own, then the old names.
 * @param {string} demo
 */
export function demoOptionNames(demo) {
  const s = DEMO_OPTIONS[demo];
  return [...s.lists, ...Object.keys(s.as), ...s.own.map((p) => p.key), ...Object.keys(s.old)];
}

/** The items of a list option: an array, or a comma-separated string. @param {unknown} raw */
const items = (raw) =>
  (Array.isArray(raw) ? raw.map(String) : String(raw).split(',')).map((s) => s.trim()).filter(Boolean);

/**
 * Read a demo's options. Every value goes through applyField against the engine's properties and
 * the demo's own; a list is read item by item. A value that is refused is left out (the demo
 * takes its default) and listed in `refusals` with the option's name as given; a name no reader
 * knows (a page's own parameter such as `workers`) is neither read nor refused.
 * @param {string} demo permutation, probe or extrapolation
 * @param {import('../wasm-api').Registry|undefined} registry the engine's
 * @param {Record<string, unknown>} given URL parameters, attributes (as text) or typed options
 * @returns {{values: Record<string, any>, refusals: FieldRefusal[]}} values: a Value, or Value[] for a list
 */
export function readDemoOptions(demo, registry, given) {
  const spec = DEMO_OPTIONS[demo];
  const reg = registry ?? /** @type {import('../wasm-api').Registry} */ ({});
  const engine = { props: [...(registry ? buildProperties(registry) : []), ...spec.own], registry: reg };
  /** @type {Record<string, Value|Value[]>} */
  const values = {};
  /** @type {FieldRefusal[]} */
  const refusals = [];
  /** @type {[string, string, unknown][]} [the name it is read as, the name given, the value] */
  const named = Object.entries(given).map(([k, v]) => [spec.old[k] ?? currentName(reg, k), k, v]);
  for (const [key, as, raw] of named) {
    if (raw === undefined || raw === null || raw === '') continue;
    if (key !== as && named.some(([k, a, v]) => k === key && a === key && v !== undefined && v !== '')) continue; // the config's name wins
    const list = spec.lists.includes(key);
    /** @type {Value[]} */
    const read = [];
    for (const item of list ? items(raw) : [String(raw).trim()]) {
      const r = applyField(engine, null, spec.as[key] ?? key, item);
      if (!('error' in r)) read.push(r.value);
      else if (r.error.kind !== 'unknown') refusals.push({ ...r.error, field: as });
    }
    if (read.length) values[key] = list ? read : read[0];
  }
  return { values, refusals };
}

/** Keys of a demo's options that go straight into every model's config. */
const MODEL_KEYS = [
  'd_model',
  'heads',
  'layers',
  'ffn',
  'batch',
  'seed',
  'lr',
  'warmup',
  'seq_len',
  'eval_every',
  'eval_batches',
  'activation',
  'layernorm',
];

/**
 * The model-config subset of a demo's read options.
 * @param {Record<string, Value|Value[]>} values readDemoOptions(...).values
 * @returns {import('../wasm-api').Config}
 */
export function modelOverrides(values) {
  /** @type {import('../wasm-api').Config} */
  const out = {};
  for (const k of MODEL_KEYS) if (values[k] !== undefined) out[k] = /** @type {Value} */ (values[k]);
  return out;
}
