// The state <-> URL hash, as in TensorFlow Playground: "#task=copy&d_model=32&...". Every active
// property is written (not only those that differ from the defaults), so a copied link reproduces
// the same run with the same seed even if defaults change. Reading is forgiving: whatever cannot
// be used is dropped, and listed so the page can say what it ignored.
import { VIEW_PROPERTIES, isActive, propertyFor } from './properties.js';
import { defaultState, withValue } from './state.js';

/**
 * Parse one raw value for a property.
 * @returns {{value: any} | {error: string}}
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

/** The hash for a state (with the leading '#'). */
export function stateToHash(state) {
  const parts = Object.entries(state).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  return `#${parts.join('&')}`;
}

/**
 * Read a hash into a state: defaults for the task it names, then each value that parses.
 * @param {string} hash location.hash
 * @returns {{state: object, ignored: string[]}} ignored: "key=value (why)" for each entry dropped
 */
export function hashToState(hash, props, registry) {
  const entries = [];
  const ignored = [];
  for (const part of hash.replace(/^#/, '').split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    let key, raw;
    try {
      key = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
      raw = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1));
    } catch {
      ignored.push(`${part} (not URL-encoded properly)`);
      continue;
    }
    entries.push([key, raw]);
  }
  // Selectors first, so that their options and the task's defaults are in place.
  const order = { task: 0, position: 1, normalization: 2 };
  entries.sort((a, b) => (order[a[0]] ?? 3) - (order[b[0]] ?? 3));
  let state = defaultState(props, registry);
  const all = [...props, ...VIEW_PROPERTIES];
  for (const [key, raw] of entries) {
    const p = propertyFor(all, key, state);
    if (!p) {
      ignored.push(`${key}=${raw} (unknown setting)`);
      continue;
    }
    if (!isActive(p, state)) {
      const [sel] = Object.keys(p.scope);
      ignored.push(`${key}=${raw} (not an option of ${sel} ${state[sel]})`);
      continue;
    }
    const r = parseValue(p, raw);
    if ('error' in r) ignored.push(`${key}=${raw} (${r.error})`);
    else state = withValue(props, registry, state, key, r.value);
  }
  return { state, ignored };
}
