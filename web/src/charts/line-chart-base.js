// What every line chart of the site shares, apart from drawing: the append-only runs (as in
// TensorFlow Playground: addDataPoint() and reset()), a pinned run kept for comparison, the series
// that have data, the lines to draw with their colours and labels, the columns aligned on the
// union of the x values, and CSV. Two renderers extend it: LineChart (line-chart.js, uPlot: the
// pages) and LightLineChart (light-line-chart.js, one canvas in a few KB: the widget and the demos
// inside it). A renderer implements redraw(kind): 'data' (values changed), 'series' (the set of
// lines or their labels changed, draw on the next frame) or 'rebuild' (the same, at once).
// No DOM here (tests/node/line-chart-base.test.mjs runs it under Node).
import { Decimator } from './decimate.js';

export const PINNED_COLORS = ['#e8710a', '#c5221f', '#b06000', '#a142f4'];
/** The pinned run's line style: dotted, whatever the series' own dash. */
export const PINNED_DASH = [2, 3];
/** Rows drawn at most (drawColumns): the full data stays for CSV. */
export const DRAW_ROWS = 1200;

/**
 * A pinned line's colour: its series' colour at 60% opacity (a hex colour), else a fixed one.
 * @param {string} color
 * @param {number} index
 */
export function pinnedColor(color, index) {
  return /^#[0-9a-f]{6}$/i.test(color) ? `${color}99` : PINNED_COLORS[index % PINNED_COLORS.length];
}

/**
 * The first index of sorted `xs` whose value is >= x.
 * @param {number[]} xs
 * @param {number} x
 */
function lowerBound(xs, x) {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * @typedef {{key: string, label: string, color: string, dash?: number[], points?: boolean}} SeriesSpec
 * @typedef {{xs: number[], cols: Record<string, (number|null)[]>}} Run
 * @typedef {{s: SeriesSpec, run: Run, color: string, dash?: number[], name: string, pinned: boolean}} Line
 * @typedef {{title: string, series: SeriesSpec[], logScale?: boolean, height?: number, yRange?: [number, number],
 *   xLabel?: string, markers?: {x: number, label: string}[], empty?: string, xText?: (x: number) => string}} LineChartOptions
 */

/**
 * A renderer's class (LineChart or LightLineChart), as the demos take it.
 * @typedef {new (container: HTMLElement, opts: LineChartOptions) => LineChartBase & {destroy(): void, restyle(): void}} LineChartClass
 */

export class LineChartBase {
  /**
   * @param {LineChartOptions} opts xLabel: the x axis' name (default
   *   'step'); markers: dashed vertical lines with a label (e.g. the training length); empty: what
   *   the plot says while it has nothing to draw (an empty frame reads as broken); xText: how the
   *   legend writes an x value, for charts whose x are discrete (lengths: integers), see line-chart.js
   */
  constructor({
    title,
    series,
    logScale = false,
    height = 170,
    yRange,
    xLabel = 'step',
    markers = [],
    empty = 'No data yet.',
    xText,
  }) {
    this.empty = empty;
    this.xText = xText;
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
    this.shown = new Set();
    /** @type {WeakMap<Run, Decimator>} what each run draws (drawColumns) */
    this.decimators = new WeakMap(); // series keys of the current run that have data (only those are drawn)
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
    for (const s of this.series)
      if (values[s.key] != null && !this.shown.has(s.key)) (this.shown.add(s.key), (grew = true));
    // xs stay sorted and unique: a value for an x already there (an evaluation that arrives after
    // later training steps) merges into its row; an earlier x goes in its place.
    let at = xs.length;
    if (at && xs[at - 1] >= x) at = lowerBound(xs, x);
    this.decimators.get(this.run)?.edited(at);
    if (xs[at] === x) {
      for (const s of this.series) {
        const v = values[s.key];
        if (v != null) cols[s.key][at] = v;
      }
    } else if (at === xs.length) {
      xs.push(x);
      for (const s of this.series) cols[s.key].push(values[s.key] ?? null);
    } else {
      xs.splice(at, 0, x);
      for (const s of this.series) cols[s.key].splice(at, 0, values[s.key] ?? null);
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
   * says what comes), then the pinned run's: the same hue, lighter, and dotted (PINNED_DASH), so
   * that colour says which metric and the line style says which run.
   * @returns {Line[]}
   */
  /** Whether any line has a value to draw. */
  hasData() {
    return this.lines().some((l) =>
      (l.run.cols[l.s.key] ?? []).some((v) => v !== null && v !== undefined && Number.isFinite(v)),
    );
  }

  lines() {
    const cur = this.shown.size ? this.series.filter((s) => this.shown.has(s.key)) : this.series.slice(0, 1);
    const out = cur.map((s) => ({ s, run: this.run, color: s.color, dash: s.dash, name: s.label, pinned: false }));
    const pinned = this.pinned;
    if (pinned)
      for (const s of this.series.filter((q) => pinned.keys.has(q.key)))
        out.push({
          s,
          run: pinned.run,
          color: pinnedColor(s.color, this.series.indexOf(s)),
          dash: PINNED_DASH,
          name: `${s.label} · ${pinned.label}`,
          pinned: true,
        });
    return out;
  }

  /**
   * The lines' values aligned on the union of their x values (a log scale drops values <= 0).
   * @param {Line[]} [lines]
   * @param {(run: Run) => Run} [rowsOf] the rows of a run to use (drawColumns: the decimated ones)
   * @returns {[number[], ...(number|null)[][]]} [xs, one column per line]
   */
  columns(lines = this.lines(), rowsOf = (/** @type {Run} */ run) => run) {
    const clean = (/** @type {number|null} */ v) => (v == null || (this.logScale && v <= 0) ? null : v);
    const runs = [...new Set(lines.map((l) => l.run))];
    if (runs.length <= 1) {
      const run = rowsOf(runs[0] ?? this.run);
      return [run.xs.slice(), ...lines.map((l) => run.cols[l.s.key].map(clean))];
    }
    const xs = [...new Set(runs.flatMap((r) => rowsOf(r).xs))].sort((a, b) => a - b);
    const index = new Map(runs.map((r) => [r, new Map(rowsOf(r).xs.map((x, i) => [x, i]))]));
    return [
      xs,
      ...lines.map((l) =>
        xs.map((x) => {
          const i = index.get(l.run)?.get(x);
          return i === undefined ? null : clean(rowsOf(l.run).cols[l.s.key][i]);
        }),
      ),
    ];
  }

  /**
   * The columns to draw: at most about `max` rows per run, whatever the length of the run,
   * kept incrementally (decimate.js), so that a redraw costs the same at step 100 and 100 000.
   * @param {number} [max]
   * @returns {[number[], ...(number|null)[][]]}
   */
  drawColumns(max = DRAW_ROWS) {
    const lines = this.lines();
    const views = this.drawRuns(lines, max);
    return this.columns(lines, (run) => /** @type {Run} */ (views.get(run)));
  }

  /**
   * The rows to draw of each run of `lines` (decimate.js), by run.
   * @param {Line[]} lines
   * @param {number} [max]
   * @returns {Map<Run, Run>}
   */
  drawRuns(lines, max = DRAW_ROWS) {
    /** @type {Map<Run, Run>} */
    const views = new Map();
    for (const run of new Set(lines.map((l) => l.run))) {
      const mine = lines.filter((l) => l.run === run);
      let d = this.decimators.get(run);
      if (!d || d.max !== max) this.decimators.set(run, (d = new Decimator(max)));
      views.set(
        run,
        d.view(
          run,
          mine.map((l) => l.s.key),
          mine.map((l) => Boolean(l.s.points)),
        ),
      );
    }
    return views;
  }

  /**
   * The chart as a figure to download (figure-layout.js): every line with all its rows (not the
   * decimated ones), its colour and dash, the markers and the fixed y range.
   * @param {string} [yLabel]
   * @returns {import('./figure-layout.js').LineFigure}
   */
  figure(yLabel) {
    const lines = this.lines();
    const [xs, ...cols] = this.columns(lines);
    return {
      kind: 'lines',
      title: this.title,
      xLabel: this.xLabel,
      yLabel,
      xs,
      markers: this.markers,
      yRange: this.yRange,
      series: lines.map((l, i) => ({ label: l.name, values: cols[i], color: l.color, dash: l.dash })),
    };
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
