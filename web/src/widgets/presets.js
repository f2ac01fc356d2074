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
 *   names it accepts): its lists, its own options, and after them the old names (demos/options.js)
 * @property {string[]} [lists] the options whose value is a list of the config field's values (position="none,rope")
 * @property {Goal} [goal] what a config preset is designed to show, on every seed
 */

/**
 * What a config preset shows, as bounds on held-out token accuracy after the preset's steps:
 * `heldout` at the training length, `heldout_2x` at twice it (eval_len). tests/native/presets_check.mjs
 * trains every config preset natively on 3 seeds and fails if one bound is missed.
 * @typedef {{text: string, checks: {metric: 'heldout'|'heldout_2x', min?: number, max?: number}[]}} Goal
 */

/** The hand-made presets. @type {Record<string, Omit<Preset, 'name'>>} */
export const PRESETS = {
  playground: {
    title: 'Attention playground',
    config: { task: 'copy', position: 'sinusoidal' },
    view: ['chart', 'attention'],
    controls: ['play', 'step', 'reset', 'task', 'position', 'normalization'],
    goal: {
      text: 'learns to copy the sequence',
      checks: [{ metric: 'heldout', min: 0.95 }],
    },
  },
  // A demo's `options`: the names it reads besides config fields and steps, as demos/options.js
  // declares them (demoOptionNames; tests/node/demo-options.test.mjs holds the two equal: the
  // widget's first part does not load the demos' reader).
  permutation: {
    title: 'Is attention order-blind? The permutation test',
    demo: 'permutation',
    options: ['check_position', 'seeds', 'check_causal', 'encoding'],
  },
  probe: {
    title: 'Which position can the model read? A probe',
    demo: 'probe',
    options: ['position', 'normalization', 'seeds', 'positions', 'normalizations'],
    lists: ['position', 'normalization'],
  },
  extrapolation: {
    title: 'Longer than in training: extrapolation',
    demo: 'extrapolation',
    options: ['position', 'rope_scaling', 'seeds', 'task2', 'encodings', 'scaling', 'factor'],
    lists: ['position', 'rope_scaling'],
  },
};

// The task every encoding preset trains: y_t = x_{t-k} needs relative position, learns in a few
// hundred steps, and is evaluated at twice the training length, where encodings differ most.
const ENCODING_BASE = { task: 'copy_back', steps: 600 };

const LEARNS = { metric: /** @type {const} */ ('heldout'), min: 0.95 };
const CARRIES = { metric: /** @type {const} */ ('heldout_2x'), min: 0.9 };
const RELATIVE = {
  text: 'learns copy_back and keeps it at twice the training length',
  checks: [LEARNS, CARRIES],
};

/** The goal of an encoding without a line below: read from its registry flags. */
function derivedGoal(/** @type {import('../wasm-api').VariantDescription} */ entry) {
  // relative (not absolute) and defined past the training length: it should carry to 2L
  if (!entry.absolute && entry.extrapolates) return RELATIVE;
  return { text: 'learns copy_back', checks: [LEARNS] };
}

/**
 * Encodings whose preset needs its own goal or settings (over ENCODING_BASE). Any other encoding
 * of the registry gets derivedGoal(): a new one needs no line here, and
 * tests/native/presets_check.mjs checks every encoding's goal, derived or stated, on three seeds.
 * @type {Record<string, {goal?: Goal, config?: Record<string, number|boolean|string>}>}
 */
export const ENCODING_PRESETS = {
  none: {
    goal: {
      text: 'without positions copy_back stays far from solved',
      checks: [{ metric: 'heldout', max: 0.5 }],
    },
  },
  learned: {
    goal: {
      text: 'learns copy_back; it has no position past its table',
      checks: [LEARNS],
    },
  },
  sinusoidal: {
    goal: {
      text: 'learns copy_back, but absolute positions lose it at twice the length',
      checks: [LEARNS, { metric: 'heldout_2x', max: 0.8 }],
    },
  },
  scaled_sinusoidal: {
    goal: {
      text: 'learns copy_back, but absolute positions lose it at twice the length',
      checks: [LEARNS, { metric: 'heldout_2x', max: 0.8 }],
    },
  },
  // 8 heads: slopes 1/2 ... 1/256. With the default 2 (1/16, 1/256) no head sees the previous
  // token apart from its neighbours, and copy_back stops near 72%.
  alibi: { config: { heads: 8 } },
  // 16 buckets whose last one starts inside the training length: longer distances share a trained
  // bucket (with 32 buckets up to 128, distances 16-31 land in buckets never trained).
  t5_bias: { config: { t5_num_buckets: 16, t5_max_distance: 16 } },
  rope_embed: { goal: { text: 'TDLM: learns copy_back with RoPE at the embedding', checks: [LEARNS] } },
  qk_sinusoidal: { goal: { text: 'TDLM: learns copy_back with sinusoids added to q and k', checks: [LEARNS] } },
  qk_learned: { goal: { text: 'TDLM: learns copy_back; it has no position past its table', checks: [LEARNS] } },
  // Learned positions drawn from [0, 2L): every position of the evaluation at 2L was trained. The
  // default (sinusoidal over [0, 4L)) leaves gaps so wide that copy_back stops near 37%.
  randomized: {
    goal: RELATIVE,
    config: { randomized_wrap: 'learned', randomized_max_range: 32 },
  },
};

/**
 * The preset for one position encoding of the registry.
 * @param {import('../wasm-api').VariantDescription} entry
 * @returns {Preset}
 */
export function encodingPreset(entry) {
  const own = Object.hasOwn(ENCODING_PRESETS, entry.name) ? ENCODING_PRESETS[entry.name] : null;
  return {
    name: entry.name,
    title: entry.title ?? entry.name,
    config: { ...ENCODING_BASE, position: entry.name, ...own?.config },
    view: ['chart', 'positions'],
    controls: ['play', 'reset'],
    goal: own?.goal ?? derivedGoal(entry),
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
