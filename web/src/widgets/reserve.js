// The room a widget will take once built, guessed from its attributes and its column's width
// before anything loads. The placeholder holds that room (the card's min-height, kept once the
// widget is built), so the post around it does not jump when the widget appears (layout shift).
// A preset written with only preset, steps, autoplay, theme, compact, seed and lr takes its
// measured height (reserve-heights.json, written by build-scripts/measure-reserve.mjs; a widget in
// Chinese takes its preset's "<preset> zh" row, measured with lang="zh": its words take less room); a
// widget written exactly as one measured with `measure-reserve.mjs --tag` (its "tags" row, by
// reserve-key.js: lesson 4's maps, whose heads and length the parts below do not model) takes that
// row; other attributes are added up from the parts below, measured on 2026-11-26. Heights at WIDTHS (column
// widths from a 375 px phone's 329 px to 1280 px), linear in between, flat outside.
// tests/browser/widget-reserve.test.mjs compares the guess with the built widget at 375-1280 px;
// widget-layout.test.mjs measures the layout shift of the example post.
import MEASURED from './reserve-heights.json';
import { GROUP_TITLES, groupOf } from '../state/properties.js';
import { reserveKey } from './reserve-key.js';

const WIDTHS = MEASURED.widths; // [329, 375, 420, 560, 600, 700, 798, 1000, 1280]
/** @type {Record<string, number[]>} a preset's height at WIDTHS ("probe compact": with compact) */
const PRESET_HEIGHTS = MEASURED.presets;
/** @type {Record<string, string[]>} a variant's own field: [its selector, the variants that have it] (the engine's registry) */
const OPTIONS = MEASURED.options;
/** @type {Record<string, number>} the length of each encoding's title (the engine's registry), named by the subtitle */
const TITLE_LENGTHS = MEASURED.title_lengths;
/** @type {Record<string, number[]>} a widget written exactly so, measured at WIDTHS (reserve-key.js; the course's maps) */
const TAGS = MEASURED.tags;

/** Attributes that leave a preset's layout as measured (its language picks its row: below). */
const NEUTRAL = new Set([
  'preset',
  'steps',
  'autoplay',
  'theme',
  'compact',
  'seed',
  'lr',
  'id',
  'class',
  'style',
  'lang',
]);

const DEMOS = ['permutation', 'probe', 'extrapolation']; // their own layout: always their table
// The probe's grid at WIDTHS: a row (3 seeds: mean, spread and label) and a column (fewer
// columns are wider, so their cells wrap less), against its default 8 × 6 measured in the table.
// Up to 560 px the 8 × 6 stacks (demos.css: a row is a heading and two lines of cells) and a grid
// of 2 columns stays a table: there a row is a row of 6 stacked (3 × 6 measured) and a column
// what takes 8 × 6 to the example post's 5 × 2 (measured 1015, 949, 944, 816 px; 2026-11-26).
const PROBE_ROW = [205.2, 224.4, 224.6, 228.6, 76.3, 76.3, 76.3, 76.3, 76.3];
const PROBE_COL = [198.1, 195.7, 190.8, 193.1, 24.5, 19.75, 9.25, 9.25, 9.25];
const PROBE_ROWS = 8; // demos/lists.js: the probe grid's default rows and columns
const PROBE_COLS = 6;

/** A panel at WIDTHS with the 12 px gap above it. By task (attention) or encoding (positions). */
const PANELS = {
  attention: {
    copy: [1209, 1209, 1209, 648, 648, 648, 648, 648, 648], // with its colour scale
    '': [616, 616, 616, 336, 336, 336, 336, 336, 336],
  },
  positions: {
    rope: [1028, 1028, 1028, 956, 956, 826, 826, 491, 491],
    alibi: [591, 591, 590, 538, 538, 508, 508, 379, 379], // one head's map at a time under 560 px
    '': [602, 602, 602, 602, 602, 361, 361, 361, 361],
  },
  predictions: { '': [332, 291, 291, 291, 291, 291, 291, 291, 291] },
  generate: { '': [300, 269, 249, 219, 219, 219, 199, 168, 168] },
  // 2 layers × 2 heads (the copy task's model) after 20 steps
  heads: { '': [1651, 1591, 1482, 1382, 883, 862, 769, 804, 509] },
  interventions: { '': [232, 175, 175, 135, 135, 135, 135, 135, 135] },
};
/** Padding, header (title, transport, stats) and footer, less the first panel's gap: with and without transport buttons. */
const FRAME = { transport: [156, 156, 130, 92, 92, 67, 67, 67, 67], bare: [118, 118, 92, 67, 67, 67, 67, 67, 67] };
// The header (widget.css .ap-head, in English): title (at least 196 px, the rest of its line; all of
// it in a column up to 420 px), the transport buttons and the counters (251 px), 14 px apart, in
// lines 6 px apart. The title is 23 px and a line of 19 px per line of its subtitle ("copy back ·
// Rotary (RoPE) · softmax", 6.55 px a character). FRAME holds Play and Reset and a subtitle of
// one line: a widget whose buttons or subtitle take other lines adds or takes the difference.
const BUTTONS = { play: 79, step: 59, reset: 66 }; // each with 6 px after the first
const FRAME_BUTTONS = { transport: ['play', 'reset'], bare: [] };
// Settings fields (panels/controls.js, widget.css): each group's fields (properties.js) stack in a
// column as wide as its widest field, and the groups sit side by side, 14 px apart, wrapping in
// the card (its width less 26 px, 18 px in a column up to 420 px). A field is 50 px high and at
// least 112 px wide; the menus of long names and the inputs of decimals are wider (measured).
const FIELD_ROW = 50;
const FIELD_GAP = 14;
const FIELD_WIDTHS = { task: 154, position: 498, normalization: 305 };
const DECIMALS = ['lr', 'weight_decay', 'clip', 'dropout', 'attn_dropout', 'beta1', 'beta2', 'eps', 'rope_factor'];
const fieldWidth = (/** @type {string} */ k) =>
  (Object.hasOwn(FIELD_WIDTHS, k) ? FIELD_WIDTHS[/** @type {keyof typeof FIELD_WIDTHS} */ (k)] : undefined) ??
  (DECIMALS.includes(k) ? 188 : 112);

const HEAD_ROW = 270; // a row of head cards, with the gap
/** Rows of `cards` head cards in a column `width` wide (widget.css: cards at least 280 px, 10 px apart, 13 px padding). */
const headRows = (/** @type {number} */ width, /** @type {number} */ cards) =>
  Math.ceil(cards / Math.max(1, Math.floor((width - 16) / 290)));

/**
 * `table[key]` when `key` is the table's own (a user's attribute can say "toString", "constructor"
 * or "__proto__": never the prototype's). @template T @param {Record<string, T>} table
 * @param {string} key @returns {T|undefined}
 */
const own = (table, key) => (Object.hasOwn(table, key) ? table[key] : undefined);

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
 * @param {string[]} [names] the element's attribute names (getAttributeNames)
 * @param {string} [lang] its language: a preset measured in it ("rope zh") takes that row, since
 *   its captions and labels take another room than the English ones
 * @returns {number}
 */
export function reserveHeight(attr, width, compact, names = [], lang = 'en') {
  const tag = reserveKey(attr, names, lang);
  if (Object.hasOwn(TAGS, tag)) return Math.round(at(TAGS[tag], width));
  const preset = (attr('preset') ?? '').trim() || 'playground';
  const base = compact && Object.hasOwn(PRESET_HEIGHTS, `${preset} compact`) ? `${preset} compact` : preset;
  const key = lang !== 'en' && Object.hasOwn(PRESET_HEIGHTS, `${base} ${lang}`) ? `${base} ${lang}` : base;
  const measured = Object.hasOwn(PRESET_HEIGHTS, key);
  if (measured && DEMOS.includes(preset)) {
    if (preset !== 'probe') return Math.round(at(PRESET_HEIGHTS[key], width));
    const list = (/** @type {string} */ a, /** @type {string} */ b, /** @type {number} */ n) =>
      words(attr(a) ?? attr(b)).length || n;
    const rows = list('positions', 'position', PROBE_ROWS);
    const cols = list('normalizations', 'normalization', PROBE_COLS);
    return Math.round(
      at(PRESET_HEIGHTS[key], width) -
        at(PROBE_ROW, width) * (PROBE_ROWS - rows) -
        at(PROBE_COL, width) * (PROBE_COLS - cols),
    );
  }
  if (measured && names.every((n) => NEUTRAL.has(n))) return Math.round(at(PRESET_HEIGHTS[key], width));
  return Math.round(configHeight(attr, width, preset, lang));
}

/**
 * The settings fields' height: the fields `keys` (those shown) by group, the groups in the form's
 * order laid out in lines in a column `width` wide.
 * @param {string[]} keys @param {number} width
 */
function fieldsHeight(keys, width) {
  const inner = width - (width <= 420 ? 18 : 26);
  /** @type {Map<string, {w: number, h: number}>} */
  const groups = new Map(Object.keys(GROUP_TITLES).map((g) => [g, { w: 0, h: 0 }]));
  for (const k of keys) {
    const g = /** @type {{w: number, h: number}} */ (groups.get(own(OPTIONS, k)?.[0] ?? groupOf(k)));
    g.w = Math.max(g.w, fieldWidth(k));
    g.h += FIELD_ROW;
  }
  let h = 0;
  let line = { used: 0, h: 0 };
  for (const g of groups.values()) {
    if (!g.h) continue;
    const w = Math.min(g.w, inner);
    if (line.used && line.used + FIELD_GAP + w > inner) ((h += line.h), (line = { used: 0, h: 0 }));
    line = { used: line.used ? line.used + FIELD_GAP + w : w, h: Math.max(line.h, g.h) };
  }
  return h + line.h;
}

/**
 * The header's height (the model above) in a column `width` wide, with these transport buttons and
 * a subtitle of `chars` characters.
 * @param {number} width @param {string[]} buttons @param {number} chars
 */
function headerHeight(width, buttons, chars) {
  const inner = width - (width <= 420 ? 18 : 26);
  const transport = buttons.reduce((w, b) => w + BUTTONS[/** @type {keyof typeof BUTTONS} */ (b)], 0);
  const items = [
    { w: width <= 420 ? inner : 196, h: 0, title: true },
    { w: transport + 6 * Math.max(0, buttons.length - 1), h: buttons.length ? 32 : 0, title: false },
    { w: 251, h: 19, title: false },
  ];
  /** @type {(typeof items)[]} */
  const lines = [];
  for (const it of items) {
    const line = lines[lines.length - 1];
    const used = line ? line.reduce((s, x) => s + x.w + 14, 0) : 0;
    if (line && used + it.w <= inner && !(width <= 420 && line[0].title)) line.push(it);
    else lines.push([it]);
  }
  let h = -6;
  for (const line of lines) {
    const title = line.find((x) => x.title);
    if (title) {
      const w = inner - line.reduce((s, x) => s + (x.title ? 0 : x.w + 14), 0); // the title grows into its line
      title.h = 23 + 19 * Math.max(1, Math.ceil((6.55 * chars) / Math.max(1, w)));
    }
    h += 6 + Math.max(...line.map((x) => x.h));
  }
  return h;
}

/**
 * A config preset's height added up from its parts: frame, settings fields, the charts (side by
 * side from 560 px), the panels.
 * @param {(name: string) => string|null} attr @param {number} width @param {string} preset
 * @param {string} lang the header's model is English's (the other languages keep FRAME's)
 */
function configHeight(attr, width, preset, lang) {
  const playground = preset === 'playground';
  const view = words(attr('view')).length
    ? words(attr('view'))
    : playground
      ? ['chart', 'attention']
      : ['chart', 'positions'];
  const controlsAttr = attr('controls');
  const controls =
    controlsAttr === null ? (playground ? ['task', 'position', 'normalization'] : []) : words(controlsAttr);
  const transport = controlsAttr === null || controls.some((c) => ['play', 'step', 'reset'].includes(c));
  const narrow = width < 560;
  const task = (attr('task') ?? (playground ? 'copy' : 'copy_back')).trim();
  const position = (attr('position') ?? (playground ? 'sinusoidal' : preset)).trim();
  /** @type {Record<string, string>} the variants chosen: a variant's own fields show with it only */
  const chosen = { task, position, normalization: (attr('normalization') ?? 'softmax').trim() };
  const fields = controls.filter(
    (c) =>
      !['play', 'step', 'reset', 'none'].includes(c) &&
      (!Object.hasOwn(OPTIONS, c) || OPTIONS[c].slice(1).includes(chosen[OPTIONS[c][0]])),
  );
  const frame = transport ? 'transport' : 'bare';
  let h = at(FRAME[frame], width) + fieldsHeight(fields, width);
  if (lang === 'en') {
    const buttons = Object.keys(BUTTONS).filter((b) => controlsAttr === null || controls.includes(b));
    // "copy back · Rotary (RoPE) · softmax"
    const subtitle = task.length + (own(TITLE_LENGTHS, position) ?? position.length) + chosen.normalization.length + 6;
    h += headerHeight(width, buttons, subtitle) - headerHeight(width, FRAME_BUTTONS[frame], 1);
  }
  const chart = Number(attr('height')) || 150;
  if (view.includes('chart')) h += (narrow ? 2 : 1) * (chart - 150) + (narrow ? 386 : 189) + 12;
  for (const v of view) {
    const tables = /** @type {Record<string, number[]>|undefined} */ (own(PANELS, v));
    if (tables) h += at(own(tables, v === 'attention' ? task : position) ?? tables[''], width);
  }
  // The heads' table was measured with 4 cards (2 × 2): other shapes add or take rows of cards.
  if (view.includes('heads')) {
    const cards = (Number(attr('layers')) || 2) * (Number(attr('heads')) || 2);
    const w = Math.min(width, WIDTHS[WIDTHS.length - 1]);
    h += HEAD_ROW * (headRows(w, cards) - headRows(w, 4));
  }
  return h;
}
