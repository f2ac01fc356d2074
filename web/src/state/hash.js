// The state <-> URL hash, as in TensorFlow Playground: "#task=copy&d_model=32&...". Every active
// property is written (not only those that differ from the defaults), so a copied link reproduces
// the same run with the same seed even if defaults change. This module is the hash's one owner: it
// reads the whole hash in one pass (the settings, the comparison `compare=…` and the challenge
// `challenge=…`) and writes it in one. Reading is forgiving: whatever cannot be used is dropped,
// and listed so the page can say what it ignored. An imported config file is read by the same
// rules (configToState). Every field goes through state/fields.js applyField, the reader the
// widget attributes, comparisons and grids share; the lists of what was dropped are text for a notice.
import { VIEW_PROPERTIES, currentName, selectorsFirst } from './properties.js';
import { applyField, parseValue } from './fields.js';
import { defaultState } from './state.js';
import { LINK_TEXT_MAX } from './text.js';

export { parseValue };

/** @typedef {import('./properties.js').Property} Property */
/** @typedef {import('./properties.js').State} State */
/** @typedef {import('./properties.js').Value} Value */
/** @typedef {import('../wasm-api').Registry} Registry */
/**
 * What a page's hash holds besides the settings: the comparison spec (state/compare.js) and the
 * challenge id (run/challenges.js), each null when there is none.
 * @typedef {{compare?: string|null, challenge?: string|null}} HashExtras
 */

const cut = (/** @type {string} */ t, n = 60) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);

/** The fields whose long values stay out of a link. */
const LONG_TEXT_KEYS = ['text', 'custom_pairs'];

/**
 * The hash for a state (with the leading '#'), then the comparison and the challenge, if any.
 * @param {State} state
 * @param {HashExtras} [extras]
 */
export function stateToHash(state, extras = {}) {
  // A long training text or set of custom pairs (a file's) is not a link's: the link then trains
  // on the bundled corpus or the built-in pairs (export shares them).
  const linkable = Object.entries(state).filter(
    ([k, v]) => !(LONG_TEXT_KEYS.includes(k) && String(v).length > LINK_TEXT_MAX),
  );
  const parts = linkable.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  if (extras.compare) parts.push(`compare=${encodeURIComponent(extras.compare)}`);
  if (extras.challenge) parts.push(`challenge=${encodeURIComponent(extras.challenge)}`);
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
  return hash
    .replace(/^#/, '')
    .split('&')
    .filter(Boolean)
    .map((part) => {
      const eq = part.indexOf('=');
      try {
        return {
          key: decodeURIComponent(eq < 0 ? part : part.slice(0, eq)),
          raw: eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1)),
        };
      } catch {
        return { bad: part };
      }
    });
}

/**
 * Read a hash: defaults for the task it names, then each value that applies (applyField), the
 * selectors first; `compare` and `challenge` are taken aside as they came (their readers check them).
 * @param {string} hash location.hash
 * @param {Property[]} props
 * @param {Registry} registry
 * @returns {{state: State, ignored: string[], compare: string|null, challenge: string|null}}
 *   ignored: "key=value (why)" for each entry dropped
 */
export function hashToState(hash, props, registry) {
  /** @type {[string, string][]} */
  const entries = [];
  /** @type {string[]} */
  const ignored = [];
  /** @type {{compare: string|null, challenge: string|null}} */
  const extras = { compare: null, challenge: null };
  for (const d of hashParts(hash)) {
    if ('bad' in d) ignored.push(`${cut(d.bad)} (not URL-encoded properly)`);
    else if (d.key === 'compare' || d.key === 'challenge') extras[d.key] = d.raw || null;
    else entries.push([d.key, d.raw]);
  }
  let state = defaultState(props, registry);
  for (const [key, raw] of selectorsFirst(entries)) {
    const r = applyField({ props, registry }, state, key, raw, { view: true });
    if ('error' in r) ignored.push(`${cut(key, 40)}=${cut(raw)} (${r.error.why})`);
    else state = /** @type {State} */ (r.state);
  }
  return { state, ignored, ...extras };
}

/**
 * Read an imported config (parsed JSON) into a state, by the rules of hashToState: the defaults,
 * then each field the registry declares whose value has the field's JSON type and applies
 * (applyField); view settings come from `view`.
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
    // A field under its old name (registry.renamed) counts unless its new name is given too.
    const given = Object.entries(config).filter(
      ([k]) => currentName(registry, k) === k || !Object.hasOwn(config, currentName(registry, k)),
    );
    for (const [key, v] of selectorsFirst(given)) {
      // An object or array is refused by its type alone: String() of one nested 100000 deep
      // would recurse past the stack.
      const raw = v !== null && typeof v === 'object' ? '' : String(v);
      const r = applyField({ props, registry }, state, key, raw, { jsonType: typeof v });
      if ('error' in r) ignored.push(`${cut(key, 40)} (${r.error.kind === 'unknown' ? 'unknown field' : r.error.why})`);
      else state = /** @type {State} */ (r.state);
    }
  }
  for (const p of VIEW_PROPERTIES) {
    /** @type {{value: Value} | {error: string}} */
    const r = view[p.key] === undefined ? { error: 'none' } : parseValue(p, String(view[p.key]));
    state[p.key] = 'error' in r ? p.default : r.value;
  }
  return { state, ignored };
}
