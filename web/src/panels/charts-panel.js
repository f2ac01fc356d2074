// The training curves: which metric goes on which chart, and the panel's buttons (CSV, PNG per
// chart). Feeds the charts from the model's metric events; the charts do the rest. Says in the
// charts why the longer evaluation is missing when the encoding cannot address that length, and
// which line is the pinned run, and the overfitting notice the page words (run/overfit.js). Series
// colours come from the page's CSS (light or dark).
import { LineChart } from '../charts/line-chart.js';
import { el, download } from './dom.js';
import './text-source.css';

/** @typedef {import('../wasm-api').StepMetrics} StepMetrics */
/** @typedef {import('../wasm-api').EvalMetrics} EvalMetrics */
/** @typedef {'train'|'eval'|'long'} SeriesKey */
/** @typedef {'loss'|'token_accuracy'|'bits_per_token'|'grad_norm'|'lr'} Metric */
/**
 * One chart: its title, file name, series [key, label, colour, metric] and y range.
 * @typedef {[string, string, [SeriesKey, string, string, Metric][], ([number, number]|undefined)?]} ChartSpec
 */
/** @typedef {LineChart & {metrics: [SeriesKey, Metric][], colors: string[]}} MetricChart a chart, which metric feeds each series, the series' colour keys */

// Series colours: CSS custom properties of the page (light or dark), these where unset.
const TRAIN = '#1a73e8';
const EVAL = '#188038';
const LONG = '#9334e6';
/** @type {Record<string, [string, string]>} series colour -> [CSS property, fallback] */
const COLOR_VARS = {
  [TRAIN]: ['--chart-train', TRAIN],
  [EVAL]: ['--chart-eval', EVAL],
  [LONG]: ['--chart-long', LONG],
};

/** @type {ChartSpec[]} */
const CHARTS = [
  [
    'Loss (cross-entropy, nats)',
    'loss',
    [
      ['train', 'train', TRAIN, 'loss'],
      ['eval', 'eval', EVAL, 'loss'],
      ['long', 'eval long', LONG, 'loss'],
    ],
  ],
  [
    'Token accuracy',
    'accuracy',
    [
      ['train', 'train', TRAIN, 'token_accuracy'],
      ['eval', 'eval', EVAL, 'token_accuracy'],
      ['long', 'eval long', LONG, 'token_accuracy'],
    ],
    [0, 1],
  ],
  [
    'Bits per token',
    'bits',
    [
      ['train', 'train', TRAIN, 'bits_per_token'],
      ['eval', 'eval', EVAL, 'bits_per_token'],
      ['long', 'eval long', LONG, 'bits_per_token'],
    ],
  ],
  ['Gradient norm (before clipping)', 'grad-norm', [['train', 'grad norm', TRAIN, 'grad_norm']]],
  ['Learning rate', 'lr', [['train', 'lr', TRAIN, 'lr']]],
];

export class ChartsPanel {
  /**
   * @param {HTMLElement} grid where the chart cards go
   * @param {{logScale?: boolean}} [opts]
   */
  constructor(grid, { logScale = false } = {}) {
    /** @type {number|undefined} the training length: evaluations at it are 'eval', others 'long' */
    this.seqLen = undefined;
    /** @type {number|undefined} the longer evaluation's length (undefined: none) */
    this.evalLen = undefined;
    /** @type {string|null} why the longer evaluation is missing (null: it is not) */
    this.longMissing = null;
    this.grid = grid;
    this.overfitNotice = el('p', {
      class: 'overfit-notice',
      role: 'status',
      hidden: true,
    });
    grid.before(this.overfitNotice);
    // Which line is which run, shown while a run is pinned.
    this.pinLegend = el('p', { class: 'pin-legend', hidden: true });
    grid.before(this.pinLegend);
    /** @type {HTMLElement[]} one note per chart with a longer-evaluation series */
    this.longNotes = [];
    /** @type {MetricChart[]} */
    this.charts = CHARTS.map((spec) => this.#chart(spec, logScale));
    // The system's light/dark switch: new series colours, axes redrawn.
    matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', () => {
      for (const c of this.charts) {
        c.series.forEach((s, i) => (s.color = this.#color(c.colors[i])));
        c.restyle();
      }
    });
  }

  /**
   * One chart's card in the grid (caption, buttons, body, the longer evaluation's note) and its chart.
   * @param {ChartSpec} spec
   * @param {boolean} logScale
   * @returns {MetricChart}
   */
  #chart([title, file, series, yRange], logScale) {
    const body = el('div', { class: 'chart-body' });
    const card = el(
      'figure',
      { class: 'chart-card', dataset: { chart: file } },
      el(
        'figcaption',
        {},
        el('span', { class: 'chart-title' }, title),
        el(
          'span',
          { class: 'chart-buttons' },
          this.#button('CSV', title, () => this.#csv(chart, file)),
          this.#button('PNG', title, () => this.#png(chart, file)),
        ),
      ),
      body,
    );
    if (series.some(([key]) => key === 'long')) {
      const note = el('p', { class: 'chart-note', hidden: true });
      card.append(note);
      this.longNotes.push(note);
    }
    this.grid.append(card);
    const chart = /** @type {MetricChart} */ (
      new LineChart(body, {
        title,
        logScale,
        yRange,
        series: series.map(([key, label, color]) => ({
          key,
          label,
          color: this.#color(color),
          points: key !== 'train',
          dash: key === 'long' ? [4, 3] : undefined,
        })),
      })
    );
    chart.metrics = series.map(([key, , , metric]) => /** @type {[SeriesKey, Metric]} */ ([key, metric]));
    chart.colors = series.map(([, , color]) => color);
    return chart;
  }

  /**
   * A chart's download button.
   * @param {'CSV'|'PNG'} format
   * @param {string} title the chart's
   * @param {() => void} onclick
   */
  #button(format, title, onclick) {
    return el(
      'button',
      {
        type: 'button',
        class: 'small',
        'aria-label': `Download ${title} as ${format}`,
        onclick,
      },
      format,
    );
  }

  /** A series colour as the page's CSS sets it now. @param {string} color */
  #color(color) {
    const [name, fallback] = COLOR_VARS[color] ?? ['', color];
    return (name && getComputedStyle(this.grid).getPropertyValue(name).trim()) || fallback;
  }

  /**
   * @param {LineChart} chart
   * @param {string} file
   */
  #csv(chart, file) {
    download(new Blob([chart.toCSV()], { type: 'text/csv' }), `attnplay-${file}.csv`);
  }

  /**
   * @param {LineChart} chart
   * @param {string} file
   */
  async #png(chart, file) {
    download(await chart.toPNG(), `attnplay-${file}.png`);
  }

  /**
   * Label the evaluation series by their lengths.
   * @param {number} seqLen
   * @param {number} [evalLen] 0 or seqLen: no longer evaluation
   * @param {string|null} [missing] why the model cannot be evaluated at evalLen (null: it can)
   */
  setEvalLengths(seqLen, evalLen, missing = null) {
    this.seqLen = seqLen;
    this.evalLen = evalLen && evalLen !== seqLen ? evalLen : undefined;
    const long = this.evalLen ? `eval @ length ${evalLen}` : 'eval @ longer length (off)';
    for (const c of this.charts) c.setLabels({ eval: `eval @ length ${seqLen}`, long });
    this.#missing(this.evalLen ? missing : null);
  }

  /** Say in the charts why the longer evaluation has no points (null: it has). @param {string|null} why */
  #missing(why) {
    this.longMissing = why;
    for (const n of this.longNotes) {
      n.hidden = !why;
      n.textContent = why ? `No “eval @ length ${this.evalLen}” line: ${why}.` : '';
    }
  }

  /**
   * Append one metrics event's new points (only those: the charts keep the history).
   * @param {{steps: StepMetrics[], evals: EvalMetrics[]}} batch
   */
  add({ steps, evals }) {
    for (const c of this.charts) {
      const train = c.metrics.find(([k]) => k === 'train');
      if (train) for (const m of steps) c.addDataPoint(m.step, { train: m[train[1]] });
    }
    // An evaluation at the training length with none at the longer one: the engine skipped it.
    if (
      this.evalLen &&
      !this.longMissing &&
      evals.some((e) => e.length === this.seqLen) &&
      !evals.some((e) => e.length === this.evalLen)
    )
      this.#missing(`the position encoding cannot address length ${this.evalLen}`);
    for (const e of evals) {
      const key = e.length === this.seqLen ? 'eval' : 'long';
      for (const c of this.charts) {
        const pair = c.metrics.find(([k]) => k === key);
        if (pair && pair[1] in e)
          c.addDataPoint(e.step, {
            [key]: e[/** @type {keyof EvalMetrics} */ (pair[1])],
          });
      }
    }
  }

  /**
   * Mark the step the replay shows on every chart (null: none).
   * @param {number|null} step
   */
  markStep(step) {
    for (const c of this.charts) c.setMark(step);
  }

  /** Show the overfitting notice (null: hide it). @param {string|null} message */
  showOverfit(message) {
    this.overfitNotice.hidden = !message;
    this.overfitNotice.textContent = message ?? '';
  }

  reset() {
    for (const c of this.charts) c.reset();
    this.overfitNotice.hidden = true;
  }

  /** @param {string} label */
  pin(label) {
    for (const c of this.charts) c.pin(label);
    this.#pinLegend(label);
  }

  unpin() {
    for (const c of this.charts) c.unpin();
    this.#pinLegend(null);
  }

  /** @param {string} label */
  setPinnedLabel(label) {
    for (const c of this.charts) c.setPinnedLabel(label);
    this.#pinLegend(label);
  }

  /** Which line is which run: solid this run, dotted the pinned one (null hides it). @param {string|null} label */
  #pinLegend(label) {
    this.pinLegend.hidden = !label;
    if (label)
      this.pinLegend.replaceChildren(
        el('span', { class: 'pin-key solid' }),
        el('span', {}, 'this run'),
        el('span', { class: 'pin-key dotted' }),
        el('span', { class: 'pin-label' }, label),
      );
  }

  /** @param {boolean} on */
  setLogScale(on) {
    for (const c of this.charts) c.setLogScale(on);
  }
}
