// The held-out curves of an experiment (<id>.curves.csv, written by the sweep for runs with
// eval_every > 0): the held-out loss against the step, one line per grid point (the mean over its
// seeds), for the runs of the largest budget, so that a reader sees whether the lines still fall
// and whether they cross. Canvas, drawn off-screen (DetachedCanvas), redrawn on resize and theme
// change; the legend is text beside it (the page builds it).
import { DetachedCanvas, cssColors } from '../../charts/detached-canvas.js';
import { niceTicks } from './spread-chart.js';

/** @typedef {{label: string, points: [number, number][]}} CurveSeries */

/** Colours that stay apart for the colour-blind (Okabe–Ito), then greys. */
export const CURVE_COLORS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000', '#999999'];
const COLORS = { '--chart-ink': '#3c4043', '--chart-grid': 'rgba(0,0,0,0.07)' };
const PAD = { left: 46, right: 10, top: 8, bottom: 34 };

export class CurvesChart {
  /** @param {HTMLElement} container @param {{label: string}} opts label: the accessible name */
  constructor(container, { label }) {
    this.canvas = document.createElement('canvas');
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', label);
    this.canvas.className = 'xp-chart-canvas';
    container.append(this.canvas);
    this.container = container;
    this.out = new DetachedCanvas(this.canvas);
    /** @type {CurveSeries[]} */
    this.series = [];
    this.cache = {};
    this.resize = new ResizeObserver(() => this.draw());
    this.resize.observe(container);
  }

  /** @param {CurveSeries[]} series */
  set(series) {
    this.series = series;
    this.draw();
  }

  draw() {
    const w = Math.max(240, this.container.clientWidth);
    const h = 220;
    const c = cssColors(this.container, COLORS, this.cache);
    const g = this.out.begin(w, h, devicePixelRatio || 1);
    g.font = '12px system-ui, sans-serif';
    const pts = this.series.flatMap((s) => s.points);
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    const [x0, x1] = xs.length ? [0, Math.max(...xs)] : [0, 1];
    const yt = niceTicks(ys.length ? Math.min(...ys) : 0, ys.length ? Math.max(...ys) : 1);
    const [y0, y1] = [Math.min(yt[0], ...ys), Math.max(yt[yt.length - 1], ...ys)];
    const X = (/** @type {number} */ v) => PAD.left + ((v - x0) / (x1 - x0 || 1)) * (w - PAD.left - PAD.right);
    const Y = (/** @type {number} */ v) => h - PAD.bottom - ((v - y0) / (y1 - y0 || 1)) * (h - PAD.top - PAD.bottom);
    g.strokeStyle = c['--chart-grid'];
    g.fillStyle = c['--chart-ink'];
    g.textAlign = 'right';
    g.textBaseline = 'middle';
    for (const t of yt) {
      g.beginPath();
      g.moveTo(PAD.left, Y(t));
      g.lineTo(w - PAD.right, Y(t));
      g.stroke();
      g.fillText(String(t), PAD.left - 4, Y(t));
    }
    g.textAlign = 'center';
    g.textBaseline = 'top';
    for (const t of niceTicks(x0, x1)) g.fillText(String(t), X(t), h - PAD.bottom + 4);
    g.fillText('step', (PAD.left + w - PAD.right) / 2, h - PAD.bottom + 18);
    this.series.forEach((s, i) => {
      g.strokeStyle = CURVE_COLORS[i % CURVE_COLORS.length];
      g.lineWidth = 1.8;
      g.beginPath();
      s.points.forEach(([x, y], k) => (k ? g.lineTo(X(x), Y(y)) : g.moveTo(X(x), Y(y))));
      g.stroke();
    });
    this.out.end();
    this.canvas.dataset.drawn = String(this.series.length);
  }

  dispose() {
    this.resize.disconnect();
    this.canvas.remove();
  }
}
