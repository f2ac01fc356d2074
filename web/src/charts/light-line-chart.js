// The light line chart: the runs, pinning and CSV of line-chart-base.js (shared with the pages'
// uPlot LineChart) drawn on one canvas in about 3 KB instead of uPlot's 25 KB, so that a widget
// stays within its download budget; the widget and the demos mounted inside it use it. Series
// appear when they get data, gaps are spanned, eval series get points, a pinned run is drawn
// dashed; hovering shows every series' value at that step in the legend, as uPlot's live legend
// does. Colours of text and grid: --chart-ink and --chart-grid.
// Drawing reads no layout (the width comes from the ResizeObserver, the colours are read once
// per theme, the picture is drawn off the page: charts/detached-canvas.js), and the charts of a
// page share one frame queue that stops after FRAME_MS of drawing and goes on in the next frame:
// a page of six widgets gets no long main-thread task.
import { LineChartBase } from './line-chart-base.js';
import { DetachedCanvas, cssColors, styleChanged } from './detached-canvas.js';

const CHART_COLORS = { '--chart-ink': '#3c4043', '--chart-grid': 'rgba(0,0,0,0.07)' };
const PAD = { left: 46, right: 10, top: 8, bottom: 34 };

/**
 * Ticks at 1, 2 or 5 × 10^k covering [lo, hi], about `n` of them.
 * @param {number} lo
 * @param {number} hi
 * @param {number} n
 */
function ticks(lo, hi, n) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(1, n);
  const p = 10 ** Math.floor(Math.log10(raw));
  // the nice step whose count of ticks comes closest to n
  const step = [1, 2, 5, 10]
    .map((m) => m * p)
    .reduce((a, b) => (Math.abs((hi - lo) / b - n) < Math.abs((hi - lo) / a - n) ? b : a));
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

// One queue of charts to draw for the whole page (see the header).
const FRAME_MS = 8;
/** @type {Set<LightLineChart>} */
const queue = new Set();
let frame = 0;
function drawQueued() {
  frame = 0;
  const t0 = performance.now();
  for (const chart of queue) {
    queue.delete(chart);
    chart._draw();
    if (performance.now() - t0 > FRAME_MS) break;
  }
  if (queue.size) frame = requestAnimationFrame(drawQueued);
}

/**
 * @typedef {import('./line-chart-base.js').Run} Run
 * @typedef {{lines: import('./line-chart-base.js').Line[], rows: Map<Run, Run>, x0: number, x1: number, y0: number, y1: number,
 *   f: (v: number) => number, X: (x: number) => number, Y: (y: number) => number, invX: (px: number) => number}} Scales
 *   a drawing's axes: data to pixels (X, Y) and back (invX), and the rows drawn of each run
 * @typedef {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} Context
 */

const label = (/** @type {number} */ v) =>
  Math.abs(v) >= 1e4 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(0) : String(Number(v.toPrecision(4)));

export class LightLineChart extends LineChartBase {
  /**
   * @param {HTMLElement} container
   * @param {import('./line-chart-base.js').LineChartOptions} opts
   */
  constructor(container, opts) {
    super(opts);
    this.container = container;
    /** @type {{text: string, left: number, right: number}[]} the x tick labels as last drawn */
    this.xTicks = [];
    this.hover = -1;
    /** @type {number|null} the hovered step */
    this.hoverX = null;
    this.destroyed = false;
    /** @type {Scales|undefined} the scales of the last drawing */
    this.sc = undefined;
    /** @type {{l: import('./line-chart-base.js').Line, value: HTMLElement, item: HTMLElement}[]|undefined} */
    this.items = undefined;
    this.canvas = document.createElement('canvas');
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', this.title);
    this.canvas.style.display = 'block';
    this.surface = new DetachedCanvas(this.canvas);
    /** @type {{epoch?: number, colors?: Record<string, string>}} */
    this.styleCache = {};
    this.legend = document.createElement('div');
    this.legend.className = 'mc-legend';
    container.append(this.canvas, this.legend);
    this.canvas.addEventListener('mousemove', (e) => this.#hoverAt(e));
    this.canvas.addEventListener('mouseleave', () => this.#hoverAt(null));
    this.width = 0; // the container's width, from the ResizeObserver (0: not measured yet)
    this.resize = new ResizeObserver((entries) => {
      const w = Math.round(entries[entries.length - 1].contentRect.width);
      cssColors(container, CHART_COLORS, this.styleCache); // here, after layout, reading style is free
      if (w !== this.width) ((this.width = w), this.#schedule());
    });
    this.resize.observe(container);
    this.#legend();
    this.#schedule();
  }

  /** @param {'data'|'series'|'rebuild'} kind */
  redraw(kind) {
    if (kind !== 'data') this.#legend();
    this.#schedule();
  }

  /** Redraw with the current CSS colours (after a theme change). */
  restyle() {
    styleChanged();
    this.#legend();
    this.#schedule();
  }

  #legend() {
    this.items = this.lines().map((l) => {
      const swatch = document.createElement('i');
      swatch.style.cssText = `display:inline-block;width:10px;height:10px;border:2px solid ${l.color};border-radius:2px;margin-right:4px;vertical-align:-1px`;
      const value = document.createElement('b');
      value.className = 'mc-value';
      const item = document.createElement('span');
      item.className = 'mc-item';
      item.append(swatch, l.name, value);
      return { l, value, item };
    });
    this.legend.replaceChildren(...this.items.map((i) => i.item));
    this.#values();
  }

  // The legend's values at the hovered step (none when not hovering).
  #values() {
    const x = this.hover >= 0 ? this.hoverX : null;
    for (const { l, value } of this.items ?? []) {
      const i = x == null ? -1 : l.run.xs.indexOf(x);
      const v = i >= 0 ? l.run.cols[l.s.key][i] : null;
      value.textContent = v == null ? '' : `: ${label(v)}`;
    }
  }

  #schedule() {
    queue.add(this);
    frame ||= requestAnimationFrame(drawQueued);
  }

  /** @internal from the frame queue */
  _draw() {
    if (this.width > 0 && !this.destroyed) this.#draw(); // not measured yet: the observer schedules it
  }

  /**
   * @param {number} w
   * @param {number} h
   * @returns {Scales}
   */
  #scales(w, h) {
    const lines = this.lines();
    // What is drawn: at most about DRAW_ROWS rows per run (line-chart-base.js), whatever the run's length.
    const rows = this.drawRuns(lines);
    const xs = lines.flatMap((l) => /** @type {Run} */ (rows.get(l.run)).xs);
    const ys = lines
      .flatMap((l) => /** @type {Run} */ (rows.get(l.run)).cols[l.s.key])
      .filter((v) => v != null && Number.isFinite(v) && (!this.logScale || v > 0))
      .map(Number);
    let [x0, x1] = xs.length ? [Math.min(...xs), Math.max(...xs)] : [0, 1];
    for (const m of this.markers) ((x0 = Math.min(x0, m.x)), (x1 = Math.max(x1, m.x)));
    if (x1 === x0) x1 = x0 + 1;
    const f = this.logScale ? Math.log10 : (/** @type {number} */ v) => v;
    let [y0, y1] =
      this.yRange && !this.logScale
        ? this.yRange
        : ys.length
          ? [Math.min(...ys.map(f)), Math.max(...ys.map(f))]
          : [0, 1];
    if (y1 === y0) ((y0 -= 0.5), (y1 += 0.5));
    else if (!this.yRange || this.logScale) {
      const pad = (y1 - y0) * 0.06;
      ((y0 -= pad), (y1 += pad));
    }
    const pw = w - PAD.left - PAD.right;
    const ph = h - PAD.top - PAD.bottom;
    return {
      lines,
      rows,
      x0,
      x1,
      y0,
      y1,
      f,
      X: (/** @type {number} */ x) => PAD.left + ((x - x0) / (x1 - x0)) * pw,
      Y: (/** @type {number} */ y) => PAD.top + (1 - (f(y) - y0) / (y1 - y0)) * ph,
      invX: (/** @type {number} */ px) => x0 + ((px - PAD.left) / pw) * (x1 - x0),
    };
  }

  #draw() {
    const w = Math.max(200, this.width);
    const h = this.height;
    const g = this.surface.begin(w, h, window.devicePixelRatio || 1);
    const { '--chart-ink': ink, '--chart-grid': grid } = cssColors(this.container, CHART_COLORS, this.styleCache);
    const sc = (this.sc = this.#scales(w, h));
    g.font = '11px system-ui, sans-serif';
    g.lineWidth = 1;
    g.fillStyle = ink;
    g.strokeStyle = grid;
    this.#drawGrid(g, sc, w, h);
    this.#drawMarkers(g, sc, w, h, ink);
    this.#drawCurves(g, sc);
    g.setLineDash([]);
    if (this.hoverX != null && this.hover >= 0) {
      g.strokeStyle = ink;
      g.lineWidth = 1;
      const x = Math.round(sc.X(this.hoverX)) + 0.5;
      g.beginPath();
      g.moveTo(x, PAD.top);
      g.lineTo(x, h - PAD.bottom);
      g.stroke();
    }
    this.surface.end();
  }

  /**
   * The grid lines with their tick labels, and the x axis's title.
   * @param {Context} g @param {Scales} sc @param {number} w @param {number} h
   */
  #drawGrid(g, sc, w, h) {
    g.textAlign = 'right';
    g.textBaseline = 'middle';
    for (const t of ticks(sc.y0, sc.y1, Math.max(2, Math.floor((h - PAD.top - PAD.bottom) / 30)))) {
      const y = PAD.top + (1 - (t - sc.y0) / (sc.y1 - sc.y0)) * (h - PAD.top - PAD.bottom);
      g.beginPath();
      g.moveTo(PAD.left, Math.round(y) + 0.5);
      g.lineTo(w - PAD.right, Math.round(y) + 0.5);
      g.stroke();
      g.fillText(this.logScale ? label(10 ** t) : label(t), PAD.left - 5, y);
    }
    g.textAlign = 'center';
    g.textBaseline = 'top';
    this.xTicks = [];
    for (const t of ticks(sc.x0, sc.x1, Math.max(2, Math.floor((w - PAD.left - PAD.right) / 70)))) {
      const x = sc.X(t);
      g.beginPath();
      g.moveTo(Math.round(x) + 0.5, PAD.top);
      g.lineTo(Math.round(x) + 0.5, h - PAD.bottom);
      g.stroke();
      // centred under its tick, but moved in where it would pass the canvas' edge ("1000" at the right)
      const text = label(t);
      const half = g.measureText(text).width / 2;
      const at = Math.min(Math.max(x, half + 1), w - half - 1);
      g.fillText(text, at, h - PAD.bottom + 4);
      this.xTicks.push({ text, left: at - half, right: at + half });
    }
    g.font = '600 11px system-ui, sans-serif';
    g.fillText(this.xLabel, PAD.left + (w - PAD.left - PAD.right) / 2, h - 14);
  }

  /**
   * The markers (dashed, labelled), and, on a chart with no data, the words that say why.
   * @param {Context} g @param {Scales} sc @param {number} w @param {number} h @param {string} ink
   */
  #drawMarkers(g, sc, w, h, ink) {
    g.setLineDash([4, 4]);
    g.strokeStyle = ink;
    g.font = '11px system-ui, sans-serif';
    g.textAlign = 'left';
    for (const m of this.markers) {
      const x = sc.X(m.x);
      g.beginPath();
      g.moveTo(x, PAD.top);
      g.lineTo(x, h - PAD.bottom);
      g.stroke();
      g.fillText(m.label, x + 3, PAD.top);
    }
    if (!this.hasData() && this.empty) {
      g.fillStyle = ink;
      g.textAlign = 'center';
      g.textBaseline = 'middle';
      g.fillText(this.empty, PAD.left + (w - PAD.left - PAD.right) / 2, PAD.top + (h - PAD.top - PAD.bottom) / 2);
    }
  }

  /** Each line through its drawn rows (gaps spanned), with points where its series has them. @param {Context} g @param {Scales} sc */
  #drawCurves(g, sc) {
    g.lineWidth = 1.5;
    const drawn = (/** @type {number|null} */ v) => v != null && Number.isFinite(v) && !(this.logScale && v <= 0);
    for (const l of sc.lines) {
      const run = /** @type {Run} */ (sc.rows.get(l.run));
      const ys = run.cols[l.s.key];
      g.strokeStyle = l.color;
      g.fillStyle = l.color;
      g.setLineDash(l.dash ?? []);
      g.beginPath();
      let started = false;
      run.xs.forEach((x, i) => {
        const v = ys[i];
        if (!drawn(v)) return;
        if (started) g.lineTo(sc.X(x), sc.Y(/** @type {number} */ (v)));
        else (g.moveTo(sc.X(x), sc.Y(/** @type {number} */ (v))), (started = true));
      });
      g.stroke();
      if (l.s.points)
        run.xs.forEach((x, i) => {
          const v = ys[i];
          if (!drawn(v)) return;
          g.beginPath();
          g.arc(sc.X(x), sc.Y(/** @type {number} */ (v)), 2, 0, 2 * Math.PI);
          g.fill();
        });
    }
  }

  // Hover: the nearest step with data; its values go into the legend.
  /** @param {MouseEvent|null} e */
  #hoverAt(e) {
    if (!e || !this.sc) {
      this.hover = -1;
      this.hoverX = null;
    } else {
      const px = e.clientX - this.canvas.getBoundingClientRect().left;
      const target = this.sc.invX(px);
      const xs = [...new Set(this.sc.lines.flatMap((l) => l.run.xs))];
      let best = null;
      for (const x of xs) if (best === null || Math.abs(x - target) < Math.abs(best - target)) best = x;
      this.hover = best === null ? -1 : 0;
      this.hoverX = best;
    }
    this.#values();
    this.#schedule();
  }

  destroy() {
    this.destroyed = true;
    queue.delete(this);
    this.resize.disconnect();
    this.canvas.remove();
    this.legend.remove();
  }
}
