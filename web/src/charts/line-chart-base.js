// What every line chart of the site shares, apart from drawing: the append-only runs (as in
// TensorFlow Playground: addDataPoint() and reset()), a pinned run kept for comparison, the series
// that have data, the lines to draw with their colours and labels, the columns aligned on the
// union of the x values, and CSV. Two renderers extend it: LineChart (line-chart.js, uPlot: the
// pages) and LightLineChart (light-line-chart.js, one canvas in a few KB: the widget and the demos
// inside it). A renderer implements redraw(kind): 'data' (values changed), 'series' (the set of
// lines or their labels changed, draw on the next frame) or 'rebuild' (the same, at once).
// No DOM here (tests/node/line-chart-base.test.mjs runs it under Node).

export const PINNED_COLORS = ['#e8710a', '#c5221f', '#b06000', '#a142f4'];

/**
 * @typedef {{key: string, label: string, color: string, dash?: number[], points?: boolean}} SeriesSpec
 * @typedef {{xs: number[], cols: Record<string, (number|null)[]>}} Run
 * @typedef {{s: SeriesSpec, run: Run, color: string, dash?: number[], name: string, pinned: boolean}} Line
 * @typedef {{title: string, series: SeriesSpec[], logScale?: boolean, height?: number, yRange?: [number, number],
 *   xLabel?: string, markers?: {x: number, label: string}[]}} LineChartOptions
 */

/**
 * A renderer's class (LineChart or LightLineChart), as the demos take it.
 * @typedef {new (container: HTMLElement, opts: LineChartOptions) => LineChartBase & {destroy(): void, restyle(): void}} LineChartClass
 */

export class LineChartBase {
  /**
   * @param {LineChartOptions} opts xLabel: the x axis' name (default
   *   'step'); markers: dashed vertical lines with a label (e.g. the training length)
   */
  constructor({ title, series, logScale = false, height = 170, yRange, xLabel = 'step', markers = [] }) {
    this.title = title;
    this.series = series;
    this.logScale = logScale;
    this.height = height;
    this.yRange = yRange;
    this.xLabel = xLabel;
    this.markers = markers;
    /** @type {Run} */
    this.run = this.#emptyRun();
    /** @type {{label: string, run: Run, keys: Set<string>}|null} */
    this.pinned = null;
    /** @type {Set<string>} */
    this.shown = new Set(); // series keys of the current run that have data (only those are drawn)
  }

  /** @returns {Run} */
  #emptyRun() {
    return { xs: [], cols: Object.fromEntries(this.series.map((s) => [s.key, []])) };
  }

  /** @param {'data'|'series'|'rebuild'} kind what changed (see the header) */
  redraw(kind) {} // eslint-disable-line no-unused-vars

  /**
   * Append values at x (merged into the last point when x repeats); missing keys are gaps.
   * @param {number} x
   * @param {Record<string, number|null|undefined>} values
   */
  addDataPoint(x, values) {
    const { xs, cols } = this.run;
    let grew = false;
    for (const s of this.series) if (values[s.key] != null && !this.shown.has(s.key)) this.shown.add(s.key), (grew = true);
    const last = xs.length - 1;
    if (last >= 0 && xs[last] === x) {
      for (const s of this.series) {
        const v = values[s.key];
        if (v != null) cols[s.key][last] = v;
      }
    } else {
      xs.push(x);
      for (const s of this.series) cols[s.key].push(values[s.key] ?? null);
    }
    this.redraw(grew ? 'series' : 'data');
  }

  /** Forget the current run (a pinned run stays). */
  reset() {
    this.run = this.#emptyRun();
    this.shown.clear();
    this.redraw('series');
  }

  /** Keep the current run's curves under `label`, dashed; the current run starts empty. @param {string} label */
  pin(label) {
    this.pinned = { label, run: this.run, keys: new Set(this.shown) };
    this.run = this.#emptyRun();
    this.shown.clear();
    this.redraw('rebuild');
  }

  /** Relabel the pinned run (e.g. when what differs changes). @param {string} label */
  setPinnedLabel(label) {
    if (!this.pinned || this.pinned.label === label) return;
    this.pinned.label = label;
    this.redraw('rebuild');
  }

  unpin() {
    this.pinned = null;
    this.redraw('rebuild');
  }

  /** Rename series ({key: label}). @param {Record<string, string>} labels */
  setLabels(labels) {
    for (const s of this.series) if (labels[s.key]) s.label = labels[s.key];
    this.redraw('rebuild');
  }

  /** @param {boolean} on */
  setLogScale(on) {
    if (this.logScale === on) return;
    this.logScale = on;
    this.redraw('rebuild');
  }

  /**
   * The lines drawn: the current run's series with data (the first before any, so that the legend
   * says what comes), then the pinned run's, in other colours and dashed.
   * @returns {Line[]}
   */
  lines() {
    const cur = this.shown.size ? this.series.filter((s) => this.shown.has(s.key)) : this.series.slice(0, 1);
    const out = cur.map((s) => ({ s, run: this.run, color: s.color, dash: s.dash, name: s.label, pinned: false }));
    const pinned = this.pinned;
    if (pinned)
      for (const s of this.series.filter((q) => pinned.keys.has(q.key)))
        out.push({ s, run: pinned.run, color: PINNED_COLORS[this.series.indexOf(s) % PINNED_COLORS.length], dash: s.dash ?? [6, 3], name: `${s.label} · ${pinned.label}`, pinned: true });
    return out;
  }

  /**
   * The lines' values aligned on the union of their x values (a log scale drops values <= 0).
   * @param {Line[]} [lines]
   * @returns {[number[], ...(number|null)[][]]} [xs, one column per line]
   */
  columns(lines = this.lines()) {
    const clean = (/** @type {number|null} */ v) => (v == null || (this.logScale && v <= 0) ? null : v);
    const runs = [...new Set(lines.map((l) => l.run))];
    if (runs.length <= 1) return [this.run.xs.slice(), ...lines.map((l) => l.run.cols[l.s.key].map(clean))];
    const xs = [...new Set(runs.flatMap((r) => r.xs))].sort((a, b) => a - b);
    const index = new Map(runs.map((r) => [r, new Map(r.xs.map((x, i) => [x, i]))]));
    return [xs, ...lines.map((l) => xs.map((x) => {
      const i = index.get(l.run)?.get(x);
      return i === undefined ? null : clean(l.run.cols[l.s.key][i]);
    }))];
  }

  /** The chart's data as CSV (one column per line, pinned run included). */
  toCSV() {
    const lines = this.lines();
    const data = this.columns(lines);
    const labels = [this.xLabel, ...lines.map((l) => l.name)].map((t) => `"${String(t).replaceAll('"', '""')}"`);
    const rows = [labels.join(',')];
    for (let r = 0; r < data[0].length; r++) rows.push(data.map((col) => col[r] ?? '').join(','));
    return `${rows.join('\n')}\n`;
  }
}
