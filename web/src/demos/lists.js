// The demos' lists of position encodings and normalizations, from the engine's registry (the
// page's data, state/registry.gen.js): the one place that decides which variants each demo offers.
// With the registry flags that describe what a variant does (`biases_logits`, `extrapolates`,
// `logits_only` on the encodings), a new encoding appears in the demos without an edit here.
// Names a demo is given (URL parameters, widget attributes) are filtered by these lists.
import REGISTRY from '../state/registry.js';

/** How many seeds each demo cell trains unless the config says otherwise (`seeds`). */
export const DEFAULT_SEEDS = 3;

/**
 * How many models the probe grid trains by default (without the causal mask): its rows × the
 * columns it can build × the seeds; the probe page's description states it (pages.mjs).
 * @param {DemoLists} lists
 */
export const probeModels = (lists) => lists.probePositions.length * lists.probeNormalizations.length * DEFAULT_SEEDS;

// What each demo trains when nothing is asked: a few that show the point, not every variant (the
// probe is one model per cell).
const DEFAULTS = {
  extrapolation: ['none', 'learned', 'sinusoidal', 'rope', 'alibi', 't5_bias'],
  probePositions: ['none', 'learned', 'sinusoidal', 'rope', 'alibi', 't5_bias', 'shaw', 'urpe'],
  // softmax (rows sum to 1) against rows that do not: a fixed or learned sink (softmax1, sink).
  probeNormalizations: ['softmax', 'l2', 'relu2', 'sigmoid', 'softmax1', 'sink'],
  // and stick_breaking, which needs the causal mask: its column shows only with the mask on.
  probeCausalNormalizations: ['stick_breaking'],
};

/**
 * @typedef {object} DemoLists
 * @property {string[]} permutation encodings the permutation demo's second and checked models offer (not 'none')
 * @property {string[]} extrapolation encodings the extrapolation demo offers
 * @property {string[]} extrapolationDefault the ones it trains unless told
 * @property {string[]} probePositions the probe grid's rows unless told
 * @property {string[]} probeNormalizations its columns unless told
 * @property {string[]} probeCausalNormalizations its columns unless told, with the causal mask on only
 * @property {Record<string, string>} rowSum each registered normalization's row-sum property ('one' or 'varies')
 */

/**
 * The demos' lists for `registry` (the page's; a test gives its own).
 * @param {{positions: {name: string, [flag: string]: unknown}[], normalizations: {name: string, row_sum?: string}[]}} [registry]
 * @returns {DemoLists}
 */
export function demoLists(registry = REGISTRY) {
  const names = registry.positions.map((e) => e.name);
  const norms = registry.normalizations.map((e) => e.name);
  const known = (/** @type {string[]} */ list) => list.filter((n) => names.includes(n));
  const knownNorm = (/** @type {string[]} */ list) => list.filter((n) => norms.includes(n));
  // Every encoding changes what an encoder without positions computes, so the permutation demo
  // can check each; every one can be trained short and evaluated long (one that cannot
  // extrapolate ends at L, with the engine's reason: that is the demo's point).
  const permutation = names.filter((n) => n !== 'none');
  const extrapolation = names;
  return {
    permutation,
    extrapolation,
    extrapolationDefault: DEFAULTS.extrapolation.filter((n) => extrapolation.includes(n)),
    probePositions: known(DEFAULTS.probePositions),
    probeNormalizations: knownNorm(DEFAULTS.probeNormalizations),
    probeCausalNormalizations: knownNorm(DEFAULTS.probeCausalNormalizations),
    rowSum: Object.fromEntries(
      registry.normalizations.filter((e) => e.row_sum).map((e) => [e.name, String(e.row_sum)]),
    ),
  };
}
