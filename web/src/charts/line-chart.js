// An append-only line chart over uPlot, as in TensorFlow Playground: addDataPoint() and reset().
// A run can be pinned: its curves stay, in other colours and with its own label, while the next
// run trains. Values show on hover (uPlot's live legend); export as CSV text or a PNG blob.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const PINNED_COLORS = ['#e8710a', '#c5221f', '#b06000', '#a142f4'];

/**
 * @typedef {{key: string, label: string, color: string, dash?: number[], points?: boolean}} SeriesSpec
 */

export class LineChart {
  /**
   * @param {HTMLElement} container
   * @param {{title: string, series: SeriesSpec[], logScale?: boolean, height?: number, yRange?: [number, number],
   *   xLabel?: string, markers?: {x: number, label: string}[]}} opts xLabel: the x axis' name (default
   *   'step'); markers: dashed vertical lines with a label (e.g. the training length)
   */
  constructor(container, { title, series, logScale = false, height = 170, yRange, xLabel = 'step', markers = [] }) {
    this.container = container;
    this.title = title;
    this.series = series;
    this.logScale = logScale;
    this.height = height;
    this.yRange = yRange;
    this.xLabel = xLabel;
    this.markers = markers;
    this.run = LineChart.#emptyRun(series);
    this.pinned = null; // {label, run, keys}
    this.shown = new Set(); // series keys of the current run that have data (only those are drawn)
    this.rebuild = false;
    this.plot = null;
    this.frame = 0;
    this.resize = new ResizeObserver(() => this.plot?.setSize(this.#size()));
    this.resize.observe(container);
    this.#build();
  }

  static #emptyRun(series) {
    return { xs: [], cols: Object.fromEntries(series.map((s) => [s.key, []])) };
  }

  /**
   * Append values at x (merged into the last point when x repeats); missing keys are gaps.
   * @param {number} x
   * @param {Record<string, number|null>} values
   */
  addDataPoint(x, values) {
    const { xs, cols } = this.run;
    for (const s of this.series)
      if (values[s.key] != null && !this.shown.has(s.key)) this.shown.add(s.key), (this.rebuild = true);
    const last = xs.length - 1;
    if (last >= 0 && xs[last] === x) {
      for (const s of this.series) if (values[s.key] != null) cols[s.key][last] = values[s.key];
    } else {
      xs.push(x);
      for (const s of this.series) cols[s.key].push(values[s.key] ?? null);
    }
    this.#schedule();
  }

  /** Forget the current run (a pinned run stays). */
  reset() {
    this.run = LineChart.#emptyRun(this.series);
    this.shown.clear();
    this.rebuild = true;
    this.#schedule();
  }

  /** Keep the current run's curves under `label`; the current run starts empty. */
  pin(label) {
    this.pinned = { label, run: this.run, keys: new Set(this.shown) };
    this.run = LineChart.#emptyRun(this.series);
    this.shown.clear();
    this.#build();
  }

  /** Relabel the pinned run (e.g. when what differs changes). */
  setPinnedLabel(label) {
    if (!this.pinned || this.pinned.label === label) return;
    this.pinned.label = label;
    this.#build();
  }

  unpin() {
    this.pinned = null;
    this.#build();
  }

  /** Rename series ({key: label}); the chart is rebuilt. */
  setLabels(labels) {
    for (const s of this.series) if (labels[s.key]) s.label = labels[s.key];
    this.#build();
  }

  setLogScale(on) {
    if (this.logScale === on) return;
    this.logScale = on;
    this.#build();
  }

  #size() {
    return { width: Math.max(200, this.container.clientWidth), height: this.height };
  }

  // The series drawn: those with data (all of them before any data, so the legend says what comes).
  #current() {
    return this.shown.size ? this.series.filter((s) => this.shown.has(s.key)) : this.series.slice(0, 1);
  }

  #pinnedSeries() {
    return this.pinned ? this.series.filter((s) => this.pinned.keys.has(s.key)) : [];
  }

  #uplotSeries() {
    const out = [{ label: this.xLabel }];
    for (const s of this.#current())
      out.push({ label: s.label, stroke: s.color, width: 1.5, dash: s.dash, spanGaps: true, points: { show: s.points ?? false, size: 4 } });
    if (this.pinned)
      this.#pinnedSeries().forEach((s) =>
        out.push({
          label: `${s.label} · ${this.pinned.label}`,
          stroke: PINNED_COLORS[this.series.indexOf(s) % PINNED_COLORS.length],
          width: 1.25,
          dash: s.dash ?? [6, 3],
          spanGaps: true,
          points: { show: s.points ?? false, size: 4 },
        }),
      );
    return out;
  }

  #build() {
    this.rebuild = false;
    this.plot?.destroy();
    const y = this.logScale ? { distr: 3 } : { auto: true, range: this.yRange ? () => this.yRange : undefined };
    this.plot = new uPlot(
      {
        ...this.#size(),
        scales: { x: { time: false }, y },
        axes: [{ label: this.xLabel, size: 36, labelSize: 14, ...this.#axisColors() }, { size: 48, ...this.#axisColors() }],
        series: this.#uplotSeries(),
        legend: { live: true },
        cursor: { drag: { x: false, y: false } },
        hooks: this.markers.length ? { draw: [(u) => this.#drawMarkers(u)] } : {},
      },
      this.#data(),
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

  #drawMarkers(u) {
    const g = u.ctx;
    const dpr = uPlot.pxRatio || 1;
    g.save();
    g.strokeStyle = '#5f6368';
    g.fillStyle = '#3c4043';
    g.lineWidth = dpr;
    g.setLineDash([4 * dpr, 4 * dpr]);
    g.font = `${11 * dpr}px system-ui, sans-serif`;
    g.textBaseline = 'top';
    g.textAlign = 'left';
    for (const { x, label } of this.markers) {
      const px = Math.round(u.valToPos(x, 'x', true));
      if (px < u.bbox.left - 1 || px > u.bbox.left + u.bbox.width + 1) continue;
      g.beginPath();
      g.moveTo(px + 0.5, u.bbox.top);
      g.lineTo(px + 0.5, u.bbox.top + u.bbox.height);
      g.stroke();
      if (label) g.fillText(label, px + 4 * dpr, u.bbox.top + 2 * dpr);
    }
    g.restore();
  }

  #schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      if (this.rebuild) this.#build();
      else this.plot?.setData(this.#data());
    });
  }

  /** Columns aligned on the union of the x values: [xs, current..., pinned...]. */
  #data() {
    const cur = this.run;
    const clean = (v) => (v == null || (this.logScale && v <= 0) ? null : v);
    const curSeries = this.#current();
    if (!this.pinned) return [cur.xs.slice(), ...curSeries.map((s) => cur.cols[s.key].map(clean))];
    const pin = this.pinned.run;
    const pinSeries = this.#pinnedSeries();
    const xs = [];
    const colsA = curSeries.map(() => []);
    const colsB = pinSeries.map(() => []);
    let i = 0;
    let j = 0;
    while (i < cur.xs.length || j < pin.xs.length) {
      const a = cur.xs[i] ?? Infinity;
      const b = pin.xs[j] ?? Infinity;
      const x = Math.min(a, b);
      xs.push(x);
      curSeries.forEach((s, k) => colsA[k].push(a === x ? clean(cur.cols[s.key][i]) : null));
      pinSeries.forEach((s, k) => colsB[k].push(b === x ? clean(pin.cols[s.key][j]) : null));
      if (a === x) i++;
      if (b === x) j++;
    }
    return [xs, ...colsA, ...colsB];
  }

  /** The chart's data as CSV (one column per series, pinned run included). */
  toCSV() {
    const data = this.#data();
    const labels = this.#uplotSeries().map((s) => `"${String(s.label).replaceAll('"', '""')}"`);
    const rows = [labels.join(',')];
    for (let r = 0; r < data[0].length; r++) rows.push(data.map((col) => col[r] ?? '').join(','));
    return `${rows.join('\n')}\n`;
  }

  /** The chart as a PNG (title, plot, legend) on white. @returns {Promise<Blob>} */
  toPNG() {
    const src = this.plot.ctx.canvas;
    const series = this.#uplotSeries().slice(1);
    const dpr = src.width / this.plot.width || 1;
    const legendH = 18 * series.length;
    const out = document.createElement('canvas');
    out.width = src.width;
    out.height = src.height + (28 + legendH) * dpr;
    const g = out.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, out.width, out.height);
    g.scale(dpr, dpr);
    g.fillStyle = '#202124';
    g.font = '600 14px system-ui, sans-serif';
    g.fillText(this.title, 8, 18);
    g.drawImage(src, 0, 24, src.width / dpr, src.height / dpr);
    g.font = '12px system-ui, sans-serif';
    series.forEach((s, k) => {
      const y = 24 + src.height / dpr + 14 + 18 * k;
      g.fillStyle = s.stroke;
      g.fillRect(8, y - 8, 14, 4);
      g.fillStyle = '#202124';
      g.fillText(s.label, 28, y);
    });
    return new Promise((resolve) => out.toBlob(resolve, 'image/png'));
  }

  destroy() {
    cancelAnimationFrame(this.frame);
    this.resize.disconnect();
    this.plot?.destroy();
  }
}
