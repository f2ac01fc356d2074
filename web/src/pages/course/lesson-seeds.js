// A verdict's per-seed points in the page (<figure class="seeds-figure" data-rows>, built by
// seeds-figure.mjs from the committed runs): each side at each budget drawn by the experiments
// page's spread chart, a dot per seed and the mean ± sd. The rows are read like every reader of
// the page: declared fields only, bounded, anything else refused (the figure then stays empty).
import { SpreadChart } from '../experiments/spread-chart.js';
import { t, hasMessage } from './messages.mjs';

const MAX_ROWS = 24;
const MAX_SEEDS = 32;

/**
 * The figure's rows from its data-rows text, with their mean and sd; null when anything is off.
 * @param {string} text
 * @returns {import('../experiments/spread-chart.js').SpreadRow[]|null}
 */
export function readRows(text) {
  if (typeof text !== 'string' || text.length > 16384) return null;
  let raw;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_ROWS) return null;
  const rows = [];
  for (const r of raw) {
    if (!r || typeof r !== 'object' || typeof r.label !== 'string' || r.label.length > 80) return null;
    const seeds = r.seeds;
    if (!Array.isArray(seeds) || !seeds.length || seeds.length > MAX_SEEDS || !seeds.every(Number.isFinite))
      return null;
    const mean = seeds.reduce((a, b) => a + b, 0) / seeds.length;
    const sd = seeds.length > 1 ? Math.sqrt(seeds.reduce((a, b) => a + (b - mean) ** 2, 0) / (seeds.length - 1)) : null;
    rows.push({ label: r.label, mean, sd, seeds: [...seeds], mine: [] });
  }
  return rows;
}

/**
 * Draw every seeds figure of `root`.
 * @param {HTMLElement} root @param {import('../../common/messages.js').Lang} lang
 * @returns {SpreadChart[]}
 */
export function drawSeeds(root, lang) {
  const charts = [];
  for (const fig of root.querySelectorAll('figure.seeds-figure')) {
    const f = /** @type {HTMLElement} */ (fig);
    const rows = readRows(f.dataset.rows ?? '');
    const box = /** @type {HTMLElement|null} */ (f.querySelector('.seeds-chart'));
    if (!rows || !box) continue;
    const metric = f.dataset.metric ?? '';
    const key = `seeds.axis.${metric}`;
    const chart = new SpreadChart(box, {
      label: t(lang, 'seeds.aria', { claim: f.querySelector('figcaption')?.textContent?.split('\n')[0] ?? '' }),
      metric,
      ...(hasMessage(lang, key) ? { axis: t(lang, key) } : {}),
    });
    chart.set(rows);
    charts.push(chart);
  }
  return charts;
}
