// The one typed property list behind the controls, the URL hash and the config sent to the core.
// Every entry comes from the core's registry (state/registry.gen.js, the native build's
// `attnplay list --json` as data): the config schema, each task's
// options and defaults, each encoding's and normalization's options. Nothing here is a second,
// hand-written list of names; only the grouping of config keys into panels is chosen here.

/**
 * @typedef {object} Property
 * @property {string} key config key (or a view setting)
 * @property {'int'|'float'|'bool'|'enum'|'string'} kind
 * @property {string} group controls panel the property belongs to
 * @property {string} help
 * @property {number|boolean|string} default
 * @property {{value: string, label: string}[]} [choices]
 * @property {number} [min]
 * @property {number} [max]
 * @property {Record<string, string>} [scope] only active then ({task}, {position} or {normalization})
 * @property {boolean} [view] a view setting, not part of the model config
 */

/** @typedef {number|boolean|string} Value */
/** A state: one value per property key (model config and view settings). @typedef {Record<string, Value>} State */

/**
 * A field's current name: config fields are read under an older name too (links and files from
 * before a rename) and written under the new one. The table is the core's (core/config:
 * renamed_fields(), registry.renamed {old: current}), the page keeps no copy; never a prototype's key.
 * @param {{renamed?: Record<string, string>}|undefined} registry
 * @param {string} key
 */
export const currentName = (registry, key) => {
  const renamed = registry?.renamed ?? {};
  return Object.hasOwn(renamed, key) ? renamed[key] : key;
};

/** @type {Record<string, string[]>} */
const GROUPS = {
  task: ['task', 'seq_len', 'eval_len', 'batch', 'seed'],
  model: ['d_model', 'heads', 'layers', 'ffn', 'activation', 'causal', 'layernorm', 'pool', 'dropout', 'attn_dropout'],
  position: ['position', 'placement', 'anchors', 'max_len'],
  normalization: ['normalization', 'softcap'],
  optimizer: ['lr', 'warmup', 'schedule', 'steps', 'weight_decay', 'clip', 'beta1', 'beta2', 'eps'],
};
export const GROUP_TITLES = {
  task: 'Task and data',
  model: 'Model',
  position: 'Position encoding',
  normalization: 'Attention normalization',
  optimizer: 'Optimizer',
  advanced: 'Advanced',
};

/** The group (a key of GROUP_TITLES) of a config key. @param {string} key */
export function groupOf(key) {
  for (const [g, keys] of Object.entries(GROUPS)) if (keys.includes(key)) return g;
  return 'advanced';
}

// float32 defaults arrive as 0.003000000026077032: show and store them as the user would type them.
const tidy = (/** @type {Value} */ v) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(6)) : v);

/**
 * @param {import('../wasm-api').FieldSchema} f
 * @param {string} group
 * @param {Property['scope']} [scope]
 * @returns {Property}
 */
function fromSchema(f, group, scope) {
  /** @type {Property} */
  const p = { key: f.key, kind: f.kind, group, help: f.help ?? '', default: tidy(f.default), scope };
  if (f.choices) p.choices = f.choices.map((c) => ({ value: c, label: c }));
  if (f.min !== undefined) p.min = Number(tidy(f.min));
  if (f.max !== undefined) p.max = Number(tidy(f.max));
  return p;
}

/**
 * @param {Value} v
 * @returns {Property['kind']}
 */
function kindOfValue(v) {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  return Number.isInteger(v) ? 'int' : 'float';
}

/**
 * Build the property list from the registry.
 * @param {import('../wasm-api').Registry} registry
 * @returns {Property[]}
 */
export function buildProperties(registry) {
  /** @type {Property[]} */
  const props = [];
  /** @type {Record<string, {value: string, label: string}[]>} */
  const named = {
    task: registry.tasks.map((t) => ({ value: t.name, label: t.name.replaceAll('_', ' ') })),
    position: registry.positions.map((e) => ({ value: e.name, label: e.title ?? e.name })),
    normalization: registry.normalizations.map((e) => ({ value: e.name, label: e.title ?? e.name })),
  };
  const variants = { position: registry.positions, normalization: registry.normalizations };
  for (const f of registry.config) {
    const p = fromSchema(f, groupOf(f.key));
    if (named[f.key]) Object.assign(p, { kind: 'enum', choices: named[f.key] });
    props.push(p);
    // Each variant's own options follow the selector that chooses it.
    if (f.key === 'task') {
      for (const t of registry.tasks)
        for (const o of t.options ?? [])
          props.push(fromSchema({ ...o, kind: o.kind ?? kindOfValue(o.default) }, 'task', { task: t.name }));
    }
    for (const sel of /** @type {const} */ (['position', 'normalization']))
      if (f.key === sel)
        for (const e of variants[sel])
          for (const o of e.options ?? []) props.push(fromSchema(o, sel, { [sel]: e.name }));
  }
  return props;
}

/**
 * View settings that live in the hash too but are not sent to the core.
 * @type {Property[]}
 */
export const VIEW_PROPERTIES = [
  {
    key: 'speed',
    kind: 'int',
    group: 'view',
    help: 'steps per frame (0 = as fast as possible)',
    default: 0,
    min: 0,
    max: 1000,
    view: true,
  },
  { key: 'log', kind: 'bool', group: 'view', help: 'log-scale charts', default: false, view: true },
  {
    key: 'example',
    kind: 'int',
    group: 'view',
    help: 'held-out example shown in the attention maps',
    default: 0,
    min: 0,
    max: 63,
    view: true,
  },
];

/** The selectors, in the order they are applied: each decides which options exist (a task's, an encoding's, a normalization's). */
export const SELECTORS = ['task', 'position', 'normalization'];
const rank = (/** @type {string} */ key) => {
  const i = SELECTORS.indexOf(key.replaceAll('-', '_'));
  return i < 0 ? SELECTORS.length : i;
};
/**
 * [key, ...] pairs (a key may be written with '-' for '_') with the selectors first, in SELECTORS'
 * order, the rest as they came: the one order every reader applies fields in.
 * @template {[string, ...any[]]} T @param {T[]} pairs @returns {T[]}
 */
export const selectorsFirst = (pairs) => [...pairs].sort((a, b) => rank(a[0]) - rank(b[0]));

/**
 * Whether a property applies to the state's current task, encoding and normalization.
 * @param {Property} p
 * @param {State} state
 */
export function isActive(p, state) {
  if (!p.scope) return true;
  return Object.entries(p.scope).every(([k, v]) => state[k] === v);
}

/**
 * The active property for a key in a state (a task option key such as `vocab` is shared by several
 * tasks: the one scoped to the current task wins).
 * @param {Property[]} props
 * @param {string} key
 * @param {State} state
 * @returns {Property|undefined}
 */
export function propertyFor(props, key, state) {
  const all = props.filter((p) => p.key === key);
  return all.find((p) => isActive(p, state)) ?? all[0];
}
