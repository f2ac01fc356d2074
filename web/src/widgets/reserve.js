// The room a widget will take once built, guessed from its attributes and its column's width
// before anything loads. The placeholder holds that room (the card's min-height, kept once the
// widget is built), so the post around it does not jump when the widget appears (layout shift).
// The figures were measured in Chromium at column widths of 329 px (a 375 px phone) to 798 px (a
// blog column); linear in between, flat outside. tests/browser/widget-layout.test.mjs measures
// the layout shift of the example post and how far the guess is from the built widget.
const WIDTHS = [329, 420, 560, 700, 798];

/** A demo preset's height at WIDTHS: [full, compact]. The probe's: its grid without rows (+ PROBE_ROW each).
 * Re-measured for the multi-seed demos (mean and spread per cell) on 2026-11-24. */
const DEMOS = {
  permutation: [
    [2837, 2409, 2095, 1604, 1523],
    [2062, 1808, 1536, 1083, 1043],
  ],
  probe: [
    [2292, 1818, 1422, 1429, 1283],
    [440, 370, 265, 265, 265],
  ],
  extrapolation: [
    [3127, 2729, 2492, 1950, 1908],
    [1973, 1798, 1745, 1232, 1232],
  ],
};
const PROBE_ROW = [116, 112, 103, 97, 97]; // a grid row at WIDTHS (3 seeds: mean, spread and label)
const PROBE_ROWS = 8; // demos/lists.js: the probe grid's default rows

/** The panels of a config preset (widget-app.js) at WIDTHS, with the gap above. By task (attention) or encoding (positions). */
const PANELS = {
  attention: { copy: [1110, 1074, 616, 599, 593], '': [662, 606, 306, 289, 283] }, // with its colour scale
  positions: { rope: [977, 952, 851, 707, 682], alibi: [817, 750, 467, 419, 396], '': [557, 512, 484, 298, 292] },
  predictions: { '': [333, 290, 314, 297, 291] },
  generate: { '': [230, 210, 190, 190, 190] },
  // at step 0, 2 layers × 2 heads (the copy task's model); re-measured 2026-11-26 (the induction
  // label's requirement in the rules, the steps kept in the status)
  heads: { '': [1651, 1482, 1382, 862, 769] },
  interventions: { '': [235, 178, 135, 135, 135] },
};

const HEAD_ROW = 270; // a row of head cards at step 0, with the gap
/** Rows of `cards` head cards in a column `width` wide (widget.css: cards at least 280 px, 10 px apart, 13 px padding). */
const headRows = (/** @type {number} */ width, /** @type {number} */ cards) =>
  Math.ceil(cards / Math.max(1, Math.floor((width - 16) / 290)));

/** The value of `table` (heights at WIDTHS) at width `w`. @param {number[]} table @param {number} w */
function at(table, w) {
  if (w <= WIDTHS[0]) return table[0];
  for (let i = 1; i < WIDTHS.length; i++)
    if (w <= WIDTHS[i])
      return table[i - 1] + ((table[i] - table[i - 1]) * (w - WIDTHS[i - 1])) / (WIDTHS[i] - WIDTHS[i - 1]);
  return table[table.length - 1];
}

const words = (/** @type {string|null} */ v) => (v ?? '').split(/[\s,]+/).filter(Boolean);

/**
 * The guessed height in CSS pixels of a widget with these attributes in a column `width` wide.
 * @param {(name: string) => string|null} attr the element's getAttribute
 * @param {number} width
 * @param {boolean} compact
 * @returns {number}
 */
export function reserveHeight(attr, width, compact) {
  const preset = (attr('preset') ?? '').trim() || 'playground';
  if (Object.hasOwn(DEMOS, preset)) {
    const h = at(DEMOS[/** @type {keyof typeof DEMOS} */ (preset)][compact ? 1 : 0], width);
    return Math.round(
      preset === 'probe' ? h + at(PROBE_ROW, width) * (words(attr('positions')).length || PROBE_ROWS) : h,
    );
  }
  // A config preset: header, controls, the two charts (side by side from 560 px), panels, footer.
  const playground = preset === 'playground';
  const view = words(attr('view')).length
    ? words(attr('view'))
    : playground
      ? ['chart', 'attention']
      : ['chart', 'positions'];
  const controlsAttr = attr('controls');
  const fields = (
    controlsAttr === null ? (playground ? ['task', 'position', 'normalization'] : []) : words(controlsAttr)
  ).filter((c) => !['play', 'step', 'reset', 'none'].includes(c)).length;
  const narrow = width < 560;
  let h = narrow ? 73 : 106; // padding, header, footer
  if (fields) h += narrow ? 64 * fields : 66 * Math.ceil(fields / Math.max(1, Math.floor(width / 200)));
  const chart = Number(attr('height')) || 150;
  if (view.includes('chart')) h += (narrow ? 2 : 1) * (chart + 66) + (narrow ? 8 : 0);
  const task = (attr('task') ?? (playground ? 'copy' : 'copy_back')).trim();
  const position = (attr('position') ?? (playground ? 'sinusoidal' : preset)).trim();
  for (const v of view) {
    const tables = /** @type {Record<string, number[]>|undefined} */ (PANELS[/** @type {keyof typeof PANELS} */ (v)]);
    if (tables) h += at(tables[v === 'attention' ? task : position] ?? tables[''], width);
  }
  // The heads' table holds 4 cards (2 × 2) up to 798 px: other shapes and wider columns add or
  // take rows of cards.
  if (view.includes('heads')) {
    const cards = (Number(attr('layers')) || 2) * (Number(attr('heads')) || 2);
    h += HEAD_ROW * (headRows(width, cards) - headRows(Math.min(width, WIDTHS[WIDTHS.length - 1]), 4));
  }
  return Math.round(h);
}
