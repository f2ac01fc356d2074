// The widget's presets: one object per preset. A preset names the config it starts from (over
// the task's defaults), the panels it shows (`view`) and the controls it offers, or a demo module
// that draws itself. One preset per position encoding is generated from the engine's registry
// (so a new encoding gets its preset without a line here), for posts that explain one idea.

/**
 * @typedef {object} Preset
 * @property {string} name
 * @property {string} title shown in the widget's header
 * @property {string} [demo] a module in web/src/demos/ that mounts itself (mount(root, options))
 * @property {Record<string, number|boolean|string>} [config] config fields over the task's defaults
 * @property {string[]} [view] panels: chart, attention, positions, predictions
 * @property {string[]} [controls] play, step, reset, and config keys
 * @property {string[]} [options] a demo's option names besides config fields and steps (the only other
 *   names it accepts): the config's names, and after them the old names (demos/common.js OLD_OPTION_NAMES)
 * @property {string[]} [lists] the options whose value is a list of the config field's values (position="none,rope")
 */

/** The hand-made presets. @type {Record<string, Omit<Preset, 'name'>>} */
export const PRESETS = {
  playground: {
    title: 'Attention playground',
    config: { task: 'copy', position: 'sinusoidal' },
    view: ['chart', 'attention'],
    controls: ['play', 'step', 'reset', 'task', 'position', 'normalization'],
  },
  // A demo's `options`: the names it reads besides config fields and steps (web/src/demos/<name>/index.js).
  permutation: {
    title: 'Is attention order-blind? The permutation test',
    demo: 'permutation',
    options: ['position', 'check_position', 'check_causal', 'encoding'],
  },
  probe: {
    title: 'Which position can the model read? A probe',
    demo: 'probe',
    options: ['position', 'normalization', 'anchors', 'causal', 'positions', 'normalizations'],
    lists: ['position', 'normalization'],
  },
  extrapolation: {
    title: 'Longer than in training: extrapolation',
    demo: 'extrapolation',
    options: ['position', 'task2', 'rope_scaling', 'rope_factor', 'copy_back_k', 'encodings', 'scaling', 'factor'],
    lists: ['position', 'rope_scaling'],
  },
};

// The task every encoding preset trains: y_t = x_{t-k} needs relative position, learns in a few
// hundred steps, and is evaluated at twice the training length, where encodings differ most.
const ENCODING_BASE = { task: 'copy_back', steps: 600 };

/**
 * The preset for one position encoding of the registry.
 * @param {import('../wasm-api').VariantDescription} entry
 * @returns {Preset}
 */
export function encodingPreset(entry) {
  return {
    name: entry.name,
    title: entry.title ?? entry.name,
    config: { ...ENCODING_BASE, position: entry.name },
    view: ['chart', 'positions'],
    controls: ['play', 'reset'],
  };
}

/**
 * Every preset name: the hand-made ones, then one per encoding.
 * @param {import('../wasm-api').Registry} [registry]
 */
export function presetNames(registry) {
  return [...Object.keys(PRESETS), ...(registry?.positions ?? []).map((e) => e.name).filter((n) => !(n in PRESETS))];
}

/**
 * The preset called `name`.
 * @param {string} name
 * @param {import('../wasm-api').Registry} [registry] needed for the per-encoding presets
 * @returns {Preset | null}
 */
export function presetFor(name, registry) {
  if (Object.hasOwn(PRESETS, name)) return { name, ...PRESETS[name] };
  const entry = registry?.positions.find((e) => e.name === name);
  return entry ? encodingPreset(entry) : null;
}
