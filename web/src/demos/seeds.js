// Several seeds per demo cell: the seeds a demo trains (the learner's first seed and the next
// ones), and the summary of a measurement over them (mean, min–max, sd) with the words that show
// it. Every demo shows the mean with its spread, so a claim stands on more than one run. No DOM.
import { pct } from './common.js';
import { t } from '../common/messages.js';

import { DEFAULT_SEEDS } from './lists.js';

export { DEFAULT_SEEDS }; // how many seeds each cell trains unless the config says otherwise (lists.js)

/**
 * The seeds of a cell: first, first + 1, ... (count of them).
 * @param {unknown} first the learner's seed (a positive integer)
 * @param {unknown} count how many (1 to 8)
 * @returns {number[]}
 */
export function seedList(first, count = DEFAULT_SEEDS) {
  const f = Number(first ?? 1);
  const n = Number(count ?? DEFAULT_SEEDS);
  if (!Number.isInteger(f) || f < 0) throw new Error(`seed: a whole number ≥ 0 is allowed, not "${String(first)}"`);
  if (!Number.isInteger(n) || n < 1 || n > 8)
    throw new Error(`seeds: a whole number from 1 to 8 is allowed, not "${String(count)}"`);
  return Array.from({ length: n }, (_, i) => f + i);
}

/**
 * @typedef {{n: number, mean: number, min: number, max: number, sd: number}} Summary
 */

/**
 * Mean, min, max and sample standard deviation of the finite values (null when there are none).
 * @param {(number|null|undefined)[]} values
 * @returns {Summary|null}
 */
export function summarize(values) {
  const v = /** @type {number[]} */ (values.filter((x) => x != null && Number.isFinite(x)));
  if (v.length === 0) return null;
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const sd = v.length > 1 ? Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1)) : 0;
  return { n: v.length, mean, min: Math.min(...v), max: Math.max(...v), sd };
}

/**
 * An accuracy summary in words: "97% (94–100%)", or "100%" when every seed gives the same.
 * @param {Summary|null} s
 */
export function pctSpread(s) {
  if (!s) return '–';
  if (s.min === s.max) return pct(s.mean);
  return `${pct(s.mean)} (${pct(s.min).replace('%', '')}–${pct(s.max)})`;
}

/**
 * A number summary: "0.512 (0.49–0.53)" with `digits` decimals.
 * @param {Summary|null} s
 * @param {number} [digits]
 */
export function numSpread(s, digits = 3) {
  if (!s) return '–';
  if (s.min === s.max) return s.mean.toFixed(digits);
  return `${s.mean.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
}

/** "seeds 1, 2, 3" @param {number[]} seeds @param {import('../common/messages.js').Lang} [lang] */
export const seedWords = (seeds, lang = 'en') =>
  t(lang, seeds.length === 1 ? 'seeds.one' : 'seeds.many', { list: seeds.join(', ') });

/** "2 of 3 seeds" @param {number} k @param {number} n @param {import('../common/messages.js').Lang} [lang] */
export const ofSeeds = (k, n, lang = 'en') => t(lang, n === 1 ? 'seeds.of1' : 'seeds.ofN', { k, n });
