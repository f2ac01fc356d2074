// A chart of one metric per grid point, with its spread: one row per point (its name at the left,
// so that it reads at 375 px as at 1280), the mean as a bar end with ± sd whiskers, a dot per
// committed seed, and the learner's own runs in this tab as hollow diamonds in another colour.
// Canvas, drawn off-screen (DetachedCanvas), redrawn on resize and theme change.
import { DetachedCanvas, cssColors } from '../../charts/detached-canvas.js';
import { metricWords, fmt } from './format.js';

/** @typedef {{label: string, mean: number|null, sd: number|null, seeds: number[], mine: number[]}} SpreadRow */

const COLORS = {
  '--chart-ink': '#3c4043',
  '--chart-grid': 'rgba(0,0,0,0.07)',
  '--chart-train': '#1a73e8',
  '--chart-mine': '#d55e00',
};
const ROW = 30;
const TOP = 8;
const AXIS = 34;

/** Up to about 5 round ticks over [lo, hi]. @param {number} lo @param {number} hi */
export function niceTicks(lo, hi) {
  const span = hi - lo || Math.abs(hi) || 1;
  const raw = span / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw) ?? 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

export class SpreadChart {
  /**
   * @param {HTMLElement} container
   * @param {{label: string, metric: string, axis?: string}} opts label: the accessible name; axis:
   *   the axis title (default: the metric in English words)
   */
  constructor(container, { label, metric, axis }) {
    this.metric = metric;
    this.axis = axis ?? metricWords(metric);
    this.canvas = document.createElement('canvas');
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', label);
    this.canvas.className = 'xp-chart-canvas';
    container.append(this.canvas);
    this.container = container;
    this.out = new DetachedCanvas(this.canvas);
    /** @type {SpreadRow[]} */
    this.rows = [];
    this.cache = {};
    this.resize = new ResizeObserver(() => this.draw());
    this.resize.observe(container);
    this.onTheme = () => {
      this.cache = {};
      this.draw();
    };
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', this.onTheme);
  }

  /** @param {SpreadRow[]} rows */
  set(rows) {
    this.rows = rows;
    this.draw();
  }

  draw() {
    const w = Math.max(240, this.container.clientWidth);
    const h = TOP + this.rows.length * ROW + AXIS;
    const c = cssColors(this.container, COLORS, this.cache);
    const g = this.out.begin(w, h, devicePixelRatio || 1);
    g.font = '12px system-ui, sans-serif';
    const labelW = Math.min(w * 0.42, Math.max(60, ...this.rows.map((r) => g.measureText(r.label).width + 10)));
    const x0 = labelW + 6;
    const x1 = w - 14;
    const all = this.rows
      .flatMap((r) => [...r.seeds, ...r.mine, ...(r.mean === null ? [] : [r.mean - (r.sd || 0), r.mean + (r.sd || 0)])])
      .filter(Number.isFinite);
    let lo = Math.min(...all);
    let hi = Math.max(...all);
    if (!all.length) [lo, hi] = [0, 1];
    const pad = (hi - lo || Math.abs(hi) || 1) * 0.06;
    const ticks = niceTicks(lo - pad, hi + pad);
    lo = Math.min(lo - pad, ticks[0]);
    hi = Math.max(hi + pad, ticks[ticks.length - 1]);
    const X = (/** @type {number} */ v) => x0 + ((v - lo) / (hi - lo)) * (x1 - x0);
    const bottom = TOP + this.rows.length * ROW;
    g.strokeStyle = c['--chart-grid'];
    g.fillStyle = c['--chart-ink'];
    g.textAlign = 'center';
    g.textBaseline = 'top';
    for (const t of ticks) {
      g.beginPath();
      g.moveTo(X(t), TOP);
      g.lineTo(X(t), bottom);
      g.stroke();
      g.fillText(fmt(this.metric, t), X(t), bottom + 4);
    }
    g.fillText(this.axis, (x0 + x1) / 2, bottom + 19);
    this.rows.forEach((r, i) => {
      const y = TOP + i * ROW + ROW / 2;
      g.fillStyle = c['--chart-ink'];
      g.textAlign = 'right';
      g.textBaseline = 'middle';
      g.fillText(clip(g, r.label, labelW - 8), labelW, y);
      this.#row(g, r, y, X, c);
    });
    this.out.end();
    this.canvas.dataset.drawn = String(this.rows.length);
  }

  /**
   * @param {CanvasRenderingContext2D|OffscreenCanvasRenderingContext2D} g
   * @param {SpreadRow} r
   * @param {number} y
   * @param {(v: number) => number} X
   * @param {Record<string, string>} c
   */
  #row(g, r, y, X, c) {
    const ink = c['--chart-train'];
    g.strokeStyle = ink;
    g.fillStyle = ink;
    g.lineWidth = 1.5;
    if (r.mean !== null && Number.isFinite(r.mean)) {
      const sd = Number.isFinite(r.sd) ? /** @type {number} */ (r.sd) : 0;
      g.beginPath();
      g.moveTo(X(r.mean - sd), y);
      g.lineTo(X(r.mean + sd), y);
      for (const e of [r.mean - sd, r.mean + sd]) (g.moveTo(X(e), y - 6), g.lineTo(X(e), y + 6));
      g.stroke();
      g.fillRect(X(r.mean) - 1.5, y - 9, 3, 18);
    }
    g.globalAlpha = 0.55;
    r.seeds.forEach((v, k) => {
      g.beginPath();
      g.arc(X(v), y + (k % 2 ? 4 : -4), 2.6, 0, 2 * Math.PI);
      g.fill();
    });
    g.globalAlpha = 1;
    g.strokeStyle = c['--chart-mine'];
    g.lineWidth = 2;
    for (const v of r.mine) {
      const x = X(v);
      g.beginPath();
      g.moveTo(x, y - 7);
      g.lineTo(x + 6, y);
      g.lineTo(x, y + 7);
      g.lineTo(x - 6, y);
      g.closePath();
      g.stroke();
    }
  }

  dispose() {
    this.resize.disconnect();
    matchMedia('(prefers-color-scheme: dark)').removeEventListener('change', this.onTheme);
    this.canvas.remove();
  }
}

/**
 * The text, cut with an ellipsis to fit `w` pixels.
 * @param {CanvasRenderingContext2D|OffscreenCanvasRenderingContext2D} g
 * @param {string} t
 * @param {number} w
 */
function clip(g, t, w) {
  if (g.measureText(t).width <= w) return t;
  let s = t;
  while (s.length > 1 && g.measureText(`${s}…`).width > w) s = s.slice(0, -1);
  return `${s}…`;
}
