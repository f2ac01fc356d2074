// How the page writes a head's measures and labels (core/model/head_stats.hpp): the measures'
// names, and a label's evidence in numbers ("offset share 0.99 ≥ 0.50 at offset +6"). Shared by
// the Heads panel (heads-panel.js) and a comparison's heads table (compare-heads.js). The words are
// the message table's panels part (`heads.*`, loaded before: loadMessages(lang, ['panels'])); the
// engine's labels, rules and reasons are English: in English they show as the engine wrote them,
// in another language from the table, by label (labelKey), with the engine's numbers.
import { t } from '../common/messages.js';

/** @typedef {import('../wasm-api').HeadMeasures} HeadMeasures */
/** @typedef {import('../wasm-api').HeadDiagnostics['layers'][number]['heads'][number]} HeadResult */
/** @typedef {import('../common/messages.js').Lang} Lang */

/**
 * The measures shown, in order (names and hints: the table's `heads.m.<key>`, `heads.hint.<key>`).
 * unit: a share or ratio in [0, 1]; else the sparkline's scale is the history's largest value.
 * @type {{key: keyof HeadMeasures, unit: boolean, optional?: boolean}[]}
 */
export const MEASURES = [
  { key: 'entropy', unit: true },
  { key: 'distance', unit: false },
  { key: 'first_share', unit: true },
  { key: 'anchor_share', unit: true, optional: true },
  { key: 'row_sum_spread', unit: false },
  { key: 'prev_share', unit: true },
  { key: 'offset_share', unit: true },
  { key: 'induction', unit: true, optional: true },
];
/** A measure's name in `lang`. @param {string} key @param {Lang} [lang] */
export const nameOf = (key, lang = 'en') => (MEASURES.some((m) => m.key === key) ? t(lang, `heads.m.${key}`) : key);
/** A measure's hint in `lang`. @param {string} key @param {Lang} [lang] */
export const hintOf = (key, lang = 'en') => t(lang, `heads.hint.${key}`);
export const fixed = (/** @type {number} */ v) => (v < 0 ? '–' : v.toFixed(2));
export const signed = (/** @type {number} */ d) => (d > 0 ? `+${d}` : String(d));

/** The engine's label names and their keys in the table (`heads.label.<key>`, `heads.rule.<key>`). */
const LABEL_KEYS = /** @type {Record<string, string>} */ ({
  'previous-token': 'previous',
  'first-token / sink': 'sink',
  uniform: 'uniform',
  positional: 'positional',
  induction: 'induction',
});

/**
 * One of the engine's words about a label in `lang`: its name ('label'), or its rule ('rule',
 * `english`: the engine's text). English, or a label the table does not know: the engine's.
 * @param {'label'|'rule'} what @param {string} name @param {string} english @param {Lang} lang
 */
export function labelWord(what, name, english, lang) {
  const key = LABEL_KEYS[name];
  return lang === 'en' || !key ? english : t(lang, `heads.${what}.${key}`);
}

/**
 * Why a head earned a label, in words with its numbers: in English the engine's sentence; else the
 * table's, from the head's measures (the engine's rounding: whole percent).
 * @param {import('../wasm-api').HeadLabel} label @param {HeadResult} h
 * @param {import('../wasm-api').HeadThreshold[]} thresholds @param {Lang} lang
 */
export function whyOf(label, h, thresholds, lang) {
  const key = LABEL_KEYS[label.name];
  const th = thresholds.find((x) => x.label === label.name);
  if (lang === 'en' || !key || !th) return label.evidence;
  const pct = (/** @type {number} */ x) => Math.round(100 * x);
  const p = { t: pct(th.threshold), offset: h.offset, chance: pct(h.induction_chance) };
  if (key === 'sink' && h.first_share < th.threshold)
    return t(lang, 'heads.why.anchors', { ...p, p: pct(h.anchor_share) });
  if (key === 'positional') {
    const n = Math.abs(h.offset);
    const where =
      h.offset === 0 ? t(lang, 'heads.why.itself') : t(lang, `heads.why.${h.offset > 0 ? 'back' : 'ahead'}`, { n });
    return t(lang, 'heads.why.positional', { ...p, p: pct(h.offset_share), where });
  }
  const measure = /** @type {keyof HeadMeasures} */ (th.measure);
  return t(lang, `heads.why.${key}`, { ...p, p: pct(h[measure]) });
}

/**
 * Why a head's induction label was withheld (the engine's `withheld`): in English as the engine
 * wrote it, else the table's, with the head's induction share. @param {HeadResult} h @param {number} layer @param {Lang} lang
 */
export function withheldOf(h, layer, lang) {
  if (!h.withheld || lang === 'en') return h.withheld ?? '';
  return t(lang, layer === 0 ? 'heads.withheldFirst' : 'heads.withheld', { v: h.induction.toFixed(2) });
}

/**
 * A label's evidence in numbers: "prev share 0.93 ≥ 0.50" (the measure that earned it).
 * @param {import('../wasm-api').HeadLabel} label
 * @param {HeadResult} h
 * @param {import('../wasm-api').HeadThreshold[]} thresholds
 * @param {Lang} [lang]
 */
export function evidenceOf(label, h, thresholds, lang = 'en') {
  const t0 = thresholds.find((x) => x.label === label.name);
  if (!t0) return '';
  const key = label.name === 'first-token / sink' && h.first_share < t0.threshold ? 'anchor_share' : t0.measure;
  const at =
    label.name === 'positional'
      ? t(lang, 'heads.ev.offset', { offset: signed(h.offset) })
      : label.name === 'induction'
        ? t(lang, 'heads.ev.induction', { chance: fixed(h.induction_chance) })
        : '';
  return `${nameOf(key, lang)} ${fixed(h[/** @type {keyof HeadMeasures} */ (key)])} ≥ ${t0.threshold.toFixed(2)}${at}`;
}
