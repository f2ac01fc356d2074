// How the page writes a head's measures and labels (core/model/head_stats.hpp): the measures'
// names, and a label's evidence in numbers ("offset share 0.99 ≥ 0.50 at offset +6"). Shared by
// the Heads panel (heads-panel.js) and a comparison's heads table (compare-heads.js).

/** @typedef {import('../wasm-api').HeadMeasures} HeadMeasures */
/** @typedef {import('../wasm-api').HeadDiagnostics['layers'][number]['heads'][number]} HeadResult */

/**
 * The measures shown, in order. unit: a share or ratio in [0, 1]; else the sparkline's scale is
 * the history's largest value. sink: the anchors share the first token's threshold.
 * @type {{key: keyof HeadMeasures, name: string, hint: string, unit: boolean, optional?: boolean}[]}
 */
export const MEASURES = [
  {
    key: 'entropy',
    name: 'entropy',
    hint: 'row entropy over log(number of keys): 0 = one key, 1 = uniform',
    unit: true,
  },
  {
    key: 'distance',
    name: 'distance',
    hint: 'mean distance |query − key| the row attends over (positions)',
    unit: false,
  },
  { key: 'first_share', name: 'first share', hint: 'mean share of each row on the first token', unit: true },
  {
    key: 'anchor_share',
    name: 'anchor share',
    hint: 'mean share of each row on the anchor tokens',
    unit: true,
    optional: true,
  },
  {
    key: 'row_sum_spread',
    name: 'row-sum spread',
    hint: 'largest minus smallest row sum (0 when every row sums to 1)',
    unit: false,
  },
  { key: 'prev_share', name: 'prev share', hint: 'mean share of each row on the previous token', unit: true },
  {
    key: 'offset_share',
    name: 'offset share',
    hint: 'mean share on the key at the strongest fixed offset back (+) or ahead (−), other than the previous token; 0: the token itself',
    unit: true,
  },
  {
    key: 'induction',
    name: 'induction',
    hint: 'share on the token after an earlier copy of the current one (where a quarter of the rows have one)',
    unit: true,
    optional: true,
  },
];
export const nameOf = (/** @type {string} */ key) => MEASURES.find((m) => m.key === key)?.name ?? key;
export const fixed = (/** @type {number} */ v) => (v < 0 ? '–' : v.toFixed(2));
export const signed = (/** @type {number} */ d) => (d > 0 ? `+${d}` : String(d));

/**
 * A label's evidence in numbers: "prev share 0.93 ≥ 0.50" (the measure that earned it).
 * @param {import('../wasm-api').HeadLabel} label
 * @param {HeadResult} h
 * @param {import('../wasm-api').HeadThreshold[]} thresholds
 */
export function evidenceOf(label, h, thresholds) {
  const t = thresholds.find((x) => x.label === label.name);
  if (!t) return '';
  const key = label.name === 'first-token / sink' && h.first_share < t.threshold ? 'anchor_share' : t.measure;
  const at =
    label.name === 'positional'
      ? ` at offset ${signed(h.offset)}`
      : label.name === 'induction'
        ? `, ≥ 2 × ${fixed(h.induction_chance)} (a uniform row)`
        : '';
  return `${nameOf(key)} ${fixed(h[key])} ≥ ${t.threshold.toFixed(2)}${at}`;
}

/** What the induction label requires beyond its threshold, as the page states it (the engine's rule, core/model/head_stats.hpp apply_induction_rule). */
export const INDUCTION_NEEDS =
  'An induction head also needs a previous-token head in an earlier layer, so a one-layer model has none.';
