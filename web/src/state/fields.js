// The one reader of a config field given as text: a URL hash's `key=value`, a comparison's value,
// a widget attribute, setConfig's fields, a grid's axis value and an imported config all apply
// their fields through applyField, so every entry point accepts and refuses the same values with
// the same reason. Apply fields in selectorsFirst order (state/properties.js): a selector decides
// which options exist. No DOM.
import { VIEW_PROPERTIES, currentName, isActive, propertyFor } from './properties.js';
import { withValue } from './state.js';

/** @typedef {import('./properties.js').Property} Property */
/** @typedef {import('./properties.js').State} State */
/** @typedef {import('./properties.js').Value} Value */
/** @typedef {{props: Property[], registry: import('../wasm-api').Registry}} Engine */
/**
 * A sentence as a key of the message table (common/messages/element.*.js) and its parameters, so
 * that a widget says it in its own language; a parameter may be such a sentence itself.
 * @typedef {{key: string, params?: Record<string, string|number|Said>}} Said
 */
/**
 * Why a field was refused: unknown (no such setting; a view setting where `view` is off), inactive
 * (an option of another task, encoding or normalization), value (a value of the wrong kind or
 * range), type (an imported config's JSON value of the wrong type). `why` is words naming what is
 * allowed; `allowed` lists the choices of an enum.
 * @typedef {{field: string, kind: 'unknown'|'inactive'|'value'|'type', why: string, say?: Said, allowed?: string[]}} FieldRefusal
 */

/** @type {Record<Property['kind'], string>} */
const JSON_TYPE = { int: 'number', float: 'number', bool: 'boolean', enum: 'string', string: 'string' };

/**
 * Parse one raw value for a property.
 * @param {Property} p
 * @param {string} raw
 * @returns {{value: Value} | {error: string, say: Said}} say: the error as a message key (common/messages/element.*.js)
 */
export function parseValue(p, raw) {
  switch (p.kind) {
    case 'bool':
      if (raw === 'true' || raw === '1') return { value: true };
      if (raw === 'false' || raw === '0') return { value: false };
      return { error: 'not true or false', say: { key: 'why.bool' } };
    case 'int':
    case 'float': {
      const v = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(v)) return { error: 'not a number', say: { key: 'why.number' } };
      if (p.kind === 'int' && !Number.isInteger(v)) return { error: 'not a whole number', say: { key: 'why.whole' } };
      if (p.min !== undefined && v < p.min)
        return { error: `below the minimum ${p.min}`, say: { key: 'why.min', params: { min: p.min } } };
      if (p.max !== undefined && v > p.max)
        return { error: `above the maximum ${p.max}`, say: { key: 'why.max', params: { max: p.max } } };
      return { value: v };
    }
    case 'enum': {
      if (!p.choices || p.choices.some((c) => c.value === raw)) return { value: raw };
      const allowed = p.choices.map((c) => c.value).join(', ');
      return { error: `not one of ${allowed}`, say: { key: 'why.choice', params: { allowed } } };
    }
    default:
      return { value: raw };
  }
}

/**
 * Apply one field, given as text, to a state.
 * @param {Engine} engine
 * @param {State|null} state null: only read the value (a demo preset has no state to apply it to)
 * @param {string} given the config key ('_', not '-'; an old name of a renamed field reads too)
 * @param {string} raw
 * @param {{view?: boolean, jsonType?: string}} [opts] view: view settings (speed, log, example) are
 *   fields too (the page's hash); jsonType: the type an imported config's value had
 * @returns {{state: State|null, value: Value} | {error: FieldRefusal}}
 */
export function applyField({ props, registry }, state, given, raw, opts = {}) {
  const key = currentName(registry, given); // a field's old name reads too (links, files, attributes from before a rename)
  const p = propertyFor(opts.view ? [...props, ...VIEW_PROPERTIES] : props, key, state ?? {});
  if (!p || (p.view && !opts.view))
    return { error: { field: key, kind: 'unknown', why: 'unknown setting', say: { key: 'why.unknown' } } };
  if (state && !isActive(p, state)) {
    const [sel] = Object.keys(/** @type {Record<string, string>} */ (p.scope)); // inactive: it has a scope
    return {
      error: {
        field: key,
        kind: 'inactive',
        why: `not an option of ${sel} ${state[sel]}`,
        say: { key: 'why.inactive', params: { selector: sel, value: String(state[sel]) } },
      },
    };
  }
  if (opts.jsonType !== undefined && opts.jsonType !== JSON_TYPE[p.kind])
    return {
      error: {
        field: key,
        kind: 'type',
        why: `expected a ${JSON_TYPE[p.kind]}`,
        say: { key: 'why.type', params: { type: JSON_TYPE[p.kind] } },
      },
    };
  const r = parseValue(p, raw);
  if ('error' in r) {
    const allowed = p.choices?.map((c) => c.value);
    return { error: { field: key, kind: 'value', why: r.error, say: r.say, ...(allowed ? { allowed } : {}) } };
  }
  return { state: state && withValue(props, registry, state, key, r.value), value: r.value };
}
