// The playground's state: one plain object {key: value} over the property list. Choosing a task
// applies that task's defaults (as the core does for a config that names only the task); choosing
// an encoding or normalization brings in its options at their defaults.
import { SELECTORS, VIEW_PROPERTIES, isActive, propertyFor } from './properties.js';

/** @typedef {import('./properties.js').Property} Property */
/** @typedef {import('./properties.js').State} State */
/** @typedef {import('../wasm-api').Registry} Registry */

/**
 * Defaults of the options and task-set fields that follow from the selectors in `state`.
 * @param {Property[]} props
 * @param {Registry} registry
 * @param {State} state
 * @returns {State}
 */
function selectorDefaults(props, registry, state) {
  /** @type {State} */
  const out = {};
  for (const p of props) if (p.scope && isActive(p, state)) out[p.key] = p.default;
  const task = registry.tasks.find((t) => t.name === state.task);
  Object.assign(out, task?.defaults ?? {});
  return out;
}

/**
 * The default state for a task (the schema's default task when none is given).
 * @param {Property[]} props
 * @param {Registry} registry
 * @param {string} [task]
 * @returns {State}
 */
export function defaultState(props, registry, task) {
  /** @type {State} */
  const state = {};
  for (const p of [...props, ...VIEW_PROPERTIES]) if (!p.scope) state[p.key] = p.default;
  if (task) state.task = task;
  return { ...state, ...selectorDefaults(props, registry, state) };
}

/**
 * Keep only the properties active for the state's selectors (drops another task's options).
 * @param {Property[]} props
 * @param {State} state
 * @returns {State}
 */
function prune(props, state) {
  /** @type {State} */
  const out = {};
  for (const [k, v] of Object.entries(state)) {
    const p = propertyFor(props, k, state) ?? VIEW_PROPERTIES.find((q) => q.key === k);
    if (p && isActive(p, state)) out[k] = v;
  }
  return out;
}

/**
 * A new state with one value changed, following the rules above.
 * @param {Property[]} props
 * @param {Registry} registry
 * @param {State} state
 * @param {string} key
 * @param {import('./properties.js').Value} value
 * @returns {State}
 */
export function withValue(props, registry, state, key, value) {
  let next = { ...state, [key]: value };
  if (!SELECTORS.includes(key)) return next;
  const defaults = selectorDefaults(props, registry, next);
  if (key === 'task') next = { ...next, ...defaults };
  else for (const p of props) if (p.scope?.[key] === value && !(p.key in state)) next[p.key] = defaults[p.key];
  return prune(props, next);
}

/**
 * The config the core gets: every active model property, no view settings.
 * @param {Property[]} props
 * @param {State} state
 * @returns {import('../wasm-api').Config}
 */
export function toConfig(props, state) {
  /** @type {import('../wasm-api').Config} */
  const config = {};
  for (const [k, v] of Object.entries(state)) {
    const p = propertyFor(props, k, state);
    if (p && !p.view && isActive(p, state)) config[k] = v;
  }
  return config;
}

/**
 * The state a core config describes (e.g. after importing a model), keeping view settings.
 * @param {Property[]} props
 * @param {Registry} registry
 * @param {import('../wasm-api').Config} config
 * @param {State} [view]
 * @returns {State}
 */
export function fromConfig(props, registry, config, view = {}) {
  let state = defaultState(props, registry, typeof config.task === 'string' ? config.task : undefined);
  for (const [k, v] of Object.entries(config)) if (propertyFor(props, k, { ...state, ...config })) state[k] = v;
  state = prune(props, state);
  for (const p of VIEW_PROPERTIES) state[p.key] = view[p.key] ?? p.default;
  return state;
}

/**
 * Keys whose values differ between two states, as "key=value" (value from `a`). With `props`, an
 * option that only `a` has (an option of its encoding, normalization or task, which `b` does not
 * use) is named only when it is not at its default: the selector that differs already says the
 * rest ("position=rope", not every RoPE option).
 * @param {State} a
 * @param {State} b
 * @param {Property[]} [props]
 */
export function differences(a, b, props) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const view = new Set(VIEW_PROPERTIES.map((p) => p.key));
  const cut = (/** @type {string} */ v) => (v.length > 24 ? `${v.slice(0, 23)}…` : v); // a training text
  const atDefault = (/** @type {string} */ k) =>
    props !== undefined && !(k in b) && propertyFor(props, k, a)?.default === a[k];
  return [...keys]
    .filter((k) => !view.has(k) && a[k] !== b[k] && k in a && !atDefault(k))
    .map((k) => `${k}=${cut(String(a[k]))}`);
}
