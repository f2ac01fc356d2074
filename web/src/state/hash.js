// The state <-> URL hash, as in TensorFlow Playground: "#task=copy&d_model=32&...". Every active
// property is written (not only those that differ from the defaults), so a copied link reproduces
// the same run with the same seed even if defaults change. Reading is forgiving: whatever cannot
// be used is dropped, and listed so the page can say what it ignored. An imported config file
// is read by the same rules (configToState). Only fields the registry declares come through, each
// with a value of its kind and range; the lists of what was dropped are text for a notice.
import { VIEW_PROPERTIES, currentName, isActive, propertyFor } from './properties.js';
import { defaultState, withValue } from './state.js';
import { LINK_TEXT_MAX } from './text.js';

/** @typedef {import('./properties.js').Property} Property */
/** @typedef {import('./properties.js').State} State */
/** @typedef {import('./properties.js').Value} Value */
/** @typedef {import('../wasm-api').Registry} Registry */

// Selectors first, so that their options and the task's defaults are in place. Null prototype:
// a key such as 'constructor' must not find Object's members.
/** @type {Record<string, number>} */
const ORDER = Object.assign(Object.create(null), { task: 0, position: 1, normalization: 2 });
/** @type {(a: [string, unknown], b: [string, unknown]) => number} */
const bySelector = (a, b) => (ORDER[a[0]] ?? 3) - (ORDER[b[0]] ?? 3);
const cut = (/** @type {string} */ t, n = 60) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);

/**
 * Parse one raw value for a property.
 * @param {Property} p
 * @param {string} raw
 * @returns {{value: Value} | {error: string}}
 */
export function parseValue(p, raw) {
  switch (p.kind) {
    case 'bool':
      if (raw === 'true' || raw === '1') return { value: true };
      if (raw === 'false' || raw === '0') return { value: false };
      return { error: 'not true or false' };
    case 'int':
    case 'float': {
      const v = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(v)) return { error: 'not a number' };
      if (p.kind === 'int' && !Number.isInteger(v)) return { error: 'not a whole number' };
      if (p.min !== undefined && v < p.min) return { error: `below the minimum ${p.min}` };
      if (p.max !== undefined && v > p.max) return { error: `above the maximum ${p.max}` };
      return { value: v };
    }
    case 'enum':
      if (p.choices && !p.choices.some((c) => c.value === raw))
        return { error: `not one of ${p.choices.map((c) => c.value).join(', ')}` };
      return { value: raw };
    default:
      return { value: raw };
  }
}

/** The fields whose long values stay out of a link. */
const LONG_TEXT_KEYS = ['text', 'custom_pairs'];

/**
 * The hash for a state (with the leading '#').
 * @param {State} state
 */
export function stateToHash(state) {
  // A long training text or set of custom pairs (a file's) is not a link's: the link then trains
  // on the bundled corpus or the built-in pairs (export shares them).
  const linkable = Object.entries(state).filter(([k, v]) => !(LONG_TEXT_KEYS.includes(k) && String(v).length > LINK_TEXT_MAX));
  const parts = linkable.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  return `#${parts.join('&')}`;
}

/**
 * The id a fragment names when it is a link to a part of the page ("#charts-panel": one name,
 * no `=` or `&`), not settings; null otherwise. Such a fragment moves focus and changes no
 * setting (the caller checks that the page has an element of that id).
 * @param {string} hash
 * @returns {string|null}
 */
export function fragmentId(hash) {
  const h = hash.replace(/^#/, '');
  return /^[A-Za-z][\w-]{0,63}$/.test(h) ? h : null;
}

/**
 * The `key=value` parts of a hash, each decoded (an empty part is skipped; a part that is not
 * URL-encoded properly comes back as {bad: part}). Callers decide which keys they accept.
 * @param {string} hash
 * @returns {({key: string, raw: string} | {bad: string})[]}
 */
export function hashParts(hash) {
  return hash.replace(/^#/, '').split('&').filter(Boolean).map((part) => {
    const eq = part.indexOf('=');
    try {
      return { key: decodeURIComponent(eq < 0 ? part : part.slice(0, eq)), raw: eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1)) };
    } catch {
      return { bad: part };
    }
  });
}

/**
 * Read a hash into a state: defaults for the task it names, then each value that parses.
 * @param {string} hash location.hash
 * @param {Property[]} props
 * @param {Registry} registry
 * @returns {{state: State, ignored: string[]}} ignored: "key=value (why)" for each entry dropped
 */
export function hashToState(hash, props, registry) {
  /** @type {[string, string][]} */
  const entries = [];
  /** @type {string[]} */
  const ignored = [];
  for (const d of hashParts(hash)) {
    if ('bad' in d) ignored.push(`${cut(d.bad)} (not URL-encoded properly)`);
    else entries.push([currentName(d.key), d.raw]);
  }
  entries.sort(bySelector);
  let state = defaultState(props, registry);
  const all = [...props, ...VIEW_PROPERTIES];
  for (const [key, raw] of entries) {
    const p = propertyFor(all, key, state);
    const shown = `${cut(key, 40)}=${cut(raw)}`;
    if (!p) {
      ignored.push(`${shown} (unknown setting)`);
      continue;
    }
    if (!isActive(p, state)) {
      const [sel] = Object.keys(p.scope ?? {});
      ignored.push(`${shown} (not an option of ${sel} ${state[sel]})`);
      continue;
    }
    const r = parseValue(p, raw);
    if ('error' in r) ignored.push(`${shown} (${r.error})`);
    else state = withValue(props, registry, state, key, r.value);
  }
  return { state, ignored };
}

/** @type {Record<Property['kind'], string>} */
const JSON_TYPE = { int: 'number', float: 'number', bool: 'boolean', enum: 'string', string: 'string' };

/**
 * Read an imported config (parsed JSON) into a state, by the rules of hashToState: the defaults,
 * then each field the registry declares whose value has the field's JSON type and passes
 * parseValue; view settings come from `view`.
 * @param {unknown} config
 * @param {Property[]} props
 * @param {Registry} registry
 * @param {State} [view] the page's current state, for its view settings
 * @returns {{state: State, ignored: string[]}} ignored: "key (why)" for each field dropped
 */
export function configToState(config, props, registry, view = {}) {
  /** @type {string[]} */
  const ignored = [];
  let state = defaultState(props, registry);
  if (!config || typeof config !== 'object' || Array.isArray(config)) ignored.push('the file (not a JSON object)');
  else {
    const given = Object.entries(config).filter(([k]) => currentName(k) === k || !Object.hasOwn(config, currentName(k))); // the new name wins
    for (const [key, v] of given.map(([k, x]) => /** @type {[string, unknown]} */ ([currentName(k), x])).sort(bySelector)) {
      const p = propertyFor(props, key, state);
      const shown = cut(key, 40);
      if (!p) {
        ignored.push(`${shown} (unknown field)`);
        continue;
      }
      if (!isActive(p, state)) {
        const [sel] = Object.keys(p.scope ?? {});
        ignored.push(`${shown} (not an option of ${sel} ${state[sel]})`);
        continue;
      }
      /** @type {{value: Value} | {error: string}} */
      const r = typeof v === JSON_TYPE[p.kind] ? parseValue(p, String(v)) : { error: `expected a ${JSON_TYPE[p.kind]}` };
      if ('error' in r) ignored.push(`${shown} (${r.error})`);
      else state = withValue(props, registry, state, key, r.value);
    }
  }
  for (const p of VIEW_PROPERTIES) {
    /** @type {{value: Value} | {error: string}} */
    const r = view[p.key] === undefined ? { error: 'none' } : parseValue(p, String(view[p.key]));
    state[p.key] = 'error' in r ? p.default : r.value;
  }
  return { state, ignored };
}
