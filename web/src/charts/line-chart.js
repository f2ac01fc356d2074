// The pages' line chart: the runs, pinning and CSV of line-chart-base.js drawn with uPlot.
// The legend shows the values under the cursor, else each series' latest (uPlot's live legend); export as CSV text or a PNG blob. A redraw draws at
// most about DRAW_ROWS rows per run (drawColumns, decimate.js), so its cost does not grow with the
// run. The widget draws the same charts with LightLineChart (light-line-chart.js), which needs no uPlot.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { LineChartBase } from './line-chart-base.js';
import { legendValue } from './legend-value.js';
import { smallTick } from './format.js';

export class LineChart extends LineChartBase {
  /**
   * @param {HTMLElement} container
   * @param {import('./line-chart-base.js').LineChartOptions} opts
   */
  constructor(container, opts) {
    super(opts);
    this.container = container;
    this.rebuild = false;
    /** @type {uPlot|null} */
    this.plot = null;
    this.frame = 0;
    /** @type {number|null} the step the replay shows (a solid line), null: none */
    this.mark = null;
    this.resize = new ResizeObserver(() => this.plot?.setSize(this.#size()));
    this.resize.observe(container);
    // The system's light/dark switch: axes and grid redrawn in the new theme's colours.
    this.scheme = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
    this.onScheme = () => this.restyle();
    this.scheme?.addEventListener?.('change', this.onScheme);
    this.#build();
  }

  /** @param {'data'|'series'|'rebuild'} kind */
  redraw(kind) {
    if (kind === 'rebuild') return this.#build();
    if (kind === 'series') this.rebuild = true;
    this.#schedule();
  }

  #size() {
    return { width: Math.max(200, this.container.clientWidth), height: this.height };
  }

  /** @returns {(uPlot.Series & {label: string})[]} the x series, then one per line */
  #uplotSeries() {
    /** @type {(uPlot.Series & {label: string})[]} */
    const out = [{ label: this.xLabel, value: legendValue(this.xText) }];
    for (const l of this.lines())
      out.push({
        label: l.name,
        stroke: l.color,
        width: l.pinned ? 2 : 1.5,
        dash: l.dash,
        spanGaps: true,
        points: { show: l.s.points ?? false, size: 4 },
        value: legendValue(this.xText),
      });
    return out;
  }

  #build() {
    this.rebuild = false;
    this.plot?.destroy();
    const yRange = this.yRange; // set once, by the constructor
    /** @type {uPlot.Scale} */
    // Without data the axes still show, over 0 to 1 (uPlot draws none for an empty scale).
    /** @type {(u: uPlot, lo: number|null, hi: number|null) => uPlot.Range.MinMax} */
    const yAuto = (_u, lo, hi) => (lo === null || hi === null ? [0, 1] : uPlot.rangeNum(lo, hi, 0.1, true));
    /** @type {(u: uPlot, lo: number|null, hi: number|null) => uPlot.Range.MinMax} */
    const xAuto = (_u, lo, hi) => (lo === null || hi === null ? [0, 1] : lo === hi ? [lo, lo + 1] : [lo, hi]);
    /** @type {uPlot.Scale} */
    const y = this.logScale ? { distr: 3 } : { auto: true, range: yRange ? () => yRange : yAuto };
    /** @type {uPlot.Scale} */
    const x = { time: false, range: xAuto };
    this.plot = new uPlot(
      {
        ...this.#size(),
        scales: { x, y },
        axes: [
          { label: this.xLabel, size: 36, labelSize: 14, ...this.#axisColors() },
          {
            size: 48,
            ...this.#axisColors(),
            // steps under 0.001 written short (charts/format.js smallTick), else uPlot's own format
            ...(!this.logScale && {
              values: (
                /** @type {uPlot} */ _u,
                /** @type {number[]} */ splits,
                /** @type {number} */ _axis,
                /** @type {number} */ _space,
                /** @type {number} */ step,
              ) => splits.map((v) => (v === null ? '' : (smallTick(v, step) ?? uPlot.fmtNum(v)))),
            }),
          },
        ],
        series: this.#uplotSeries(),
        // the legend's swatch shows a dashed series' style: short dashes dotted, long ones dashed
        legend: {
          live: true,
          markers: {
            dash: (/** @type {uPlot} */ u, /** @type {number} */ i) => {
              const d = u.series[i].dash;
              return !d?.length ? 'solid' : d[0] <= 3 ? 'dotted' : 'dashed';
            },
          },
        },
        cursor: { drag: { x: false, y: false } },
        hooks: { draw: [(u) => this.#drawMarkers(u)] },
      },
      this.drawColumns(),
      this.container,
    );
  }

  // Axis text and grid colours from the CSS custom properties --chart-ink and --chart-grid where the
  // container's styles set them (the widget's themes); uPlot's defaults otherwise.
  #axisColors() {
    const css = getComputedStyle(this.container);
    const ink = css.getPropertyValue('--chart-ink').trim();
    const grid = css.getPropertyValue('--chart-grid').trim();
    if (!ink && !grid) return {};
    return { ...(ink && { stroke: ink }), ...(grid && { grid: { stroke: grid }, ticks: { stroke: grid } }) };
  }

  /** Redraw with the current CSS colours (after a theme change). */
  restyle() {
    this.#build();
  }

  /**
   * Mark the step the replay shows with a solid line (null removes it).
   * @param {number|null} step
   */
  setMark(step) {
    if (step === this.mark) return;
    this.mark = step;
    this.plot?.redraw(false);
  }

  /** What the empty plot says, in its middle. @param {uPlot} u */
  #drawEmpty(u) {
    const g = u.ctx;
    const dpr = uPlot.pxRatio || 1;
    g.save();
    g.fillStyle = getComputedStyle(this.container).getPropertyValue('--muted').trim() || '#5f6368';
    g.font = `${12 * dpr}px system-ui, sans-serif`;
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(this.empty, u.bbox.left + u.bbox.width / 2, u.bbox.top + u.bbox.height / 2);
    g.restore();
  }

  /** @param {uPlot} u */
  #drawMarkers(u) {
    if (!this.hasData() && this.empty) this.#drawEmpty(u);
    if (this.mark !== null) this.#drawMark(u, this.mark);
    if (!this.markers.length) return;
    const g = u.ctx;
    const dpr = uPlot.pxRatio || 1;
    g.save();
    const css = getComputedStyle(this.container);
    g.strokeStyle = css.getPropertyValue('--muted').trim() || '#5f6368';
    g.fillStyle = css.getPropertyValue('--chart-ink').trim() || '#3c4043';
    g.lineWidth = dpr;
    g.setLineDash([4 * dpr, 4 * dpr]);
    g.font = `${11 * dpr}px system-ui, sans-serif`;
    g.textBaseline = 'top';
    g.textAlign = 'left';
    let free = -Infinity; // where the last label ended: a label that would overlap it goes a line lower
    let row = 0;
    for (const { x, label } of [...this.markers].sort((a, b) => a.x - b.x)) {
      const px = Math.round(u.valToPos(x, 'x', true));
      if (px < u.bbox.left - 1 || px > u.bbox.left + u.bbox.width + 1) continue;
      g.beginPath();
      g.moveTo(px + 0.5, u.bbox.top);
      g.lineTo(px + 0.5, u.bbox.top + u.bbox.height);
      g.stroke();
      if (!label) continue;
      const left = px + 4 * dpr;
      row = left < free ? row + 1 : 0;
      g.fillText(label, left, u.bbox.top + (2 + 13 * row) * dpr);
      free = Math.max(row ? free : -Infinity, left + g.measureText(label).width + 4 * dpr);
    }
    g.restore();
  }

  /** @param {uPlot} u @param {number} step */
  #drawMark(u, step) {
    const px = Math.round(u.valToPos(step, 'x', true));
    if (px < u.bbox.left - 1 || px > u.bbox.left + u.bbox.width + 1) return;
    const g = u.ctx;
    const dpr = uPlot.pxRatio || 1;
    g.save();
    // In the text colour, not a series colour: a solid line with the step, which the replay shows.
    g.strokeStyle = g.fillStyle = getComputedStyle(this.container).getPropertyValue('--chart-ink').trim() || '#3c4043';
    g.lineWidth = 1.5 * dpr;
    g.beginPath();
    g.moveTo(px, u.bbox.top);
    g.lineTo(px, u.bbox.top + u.bbox.height);
    g.stroke();
    g.font = `600 ${11 * dpr}px system-ui, sans-serif`;
    g.textBaseline = 'top';
    const label = `replay: step ${step}`;
    const w = g.measureText(label).width;
    const right = px + 4 * dpr + w <= u.bbox.left + u.bbox.width; // the label on the side with room
    g.textAlign = right ? 'left' : 'right';
    g.fillText(label, right ? px + 4 * dpr : px - 4 * dpr, u.bbox.top + 2 * dpr);
    g.restore();
  }

  #schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      if (this.rebuild) this.#build();
      else this.plot?.setData(this.drawColumns());
    });
  }

  /** The chart as a PNG (title, plot, legend) on the page's card colour (white, or dark). @returns {Promise<Blob>} */
  toPNG() {
    const plot = /** @type {uPlot} */ (this.plot); // built by the constructor
    const src = plot.ctx.canvas;
    const series = this.#uplotSeries().slice(1);
    const dpr = src.width / plot.width || 1;
    const legendH = 18 * series.length;
    const out = document.createElement('canvas');
    out.width = src.width;
    out.height = src.height + (28 + legendH) * dpr;
    const g = /** @type {CanvasRenderingContext2D} */ (out.getContext('2d'));
    const css = getComputedStyle(this.container);
    const ink = css.getPropertyValue('--ink').trim() || '#202124';
    g.fillStyle = css.getPropertyValue('--card').trim() || '#fff';
    g.fillRect(0, 0, out.width, out.height);
    g.scale(dpr, dpr);
    g.fillStyle = ink;
    g.font = '600 14px system-ui, sans-serif';
    g.fillText(this.title, 8, 18);
    g.drawImage(src, 0, 24, src.width / dpr, src.height / dpr);
    g.font = '12px system-ui, sans-serif';
    series.forEach((s, k) => {
      const y = 24 + src.height / dpr + 14 + 18 * k;
      g.fillStyle = /** @type {string} */ (s.stroke);
      g.fillRect(8, y - 8, 14, 4);
      g.fillStyle = ink;
      g.fillText(s.label, 28, y);
    });
    return new Promise((resolve) => out.toBlob((blob) => resolve(/** @type {Blob} */ (blob)), 'image/png'));
  }

  destroy() {
    cancelAnimationFrame(this.frame);
    this.resize.disconnect();
    this.scheme?.removeEventListener?.('change', this.onScheme);
    this.plot?.destroy();
  }
}
