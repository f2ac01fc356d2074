// The training curves: which metric goes on which chart, and the panel's buttons (CSV, PNG per
// chart). Feeds the charts from the model's metric events; the charts do the rest.
import { LineChart } from '../charts/line-chart.js';
import { el, download } from './dom.js';
import { OverfitDetector, overfitMessage } from '../run/overfit.js';
import './text-source.css';

/** @typedef {import('../wasm-api').StepMetrics} StepMetrics */
/** @typedef {import('../wasm-api').EvalMetrics} EvalMetrics */
/** @typedef {'train'|'eval'|'long'} SeriesKey */
/** @typedef {'loss'|'token_accuracy'|'bits_per_token'|'grad_norm'|'lr'} Metric */
/**
 * One chart: its title, file name, series [key, label, colour, metric] and y range.
 * @typedef {[string, string, [SeriesKey, string, string, Metric][], ([number, number]|undefined)?]} ChartSpec
 */
/** @typedef {LineChart & {metrics: [SeriesKey, Metric][]}} MetricChart a chart and which metric feeds each series */

const TRAIN = '#1a73e8';
const EVAL = '#188038';
const LONG = '#9334e6';

/** @type {ChartSpec[]} */
const CHARTS = [
  ['Loss (cross-entropy, nats)', 'loss', [['train', 'train', TRAIN, 'loss'], ['eval', 'eval', EVAL, 'loss'], ['long', 'eval long', LONG, 'loss']]],
  ['Token accuracy', 'accuracy', [['train', 'train', TRAIN, 'token_accuracy'], ['eval', 'eval', EVAL, 'token_accuracy'], ['long', 'eval long', LONG, 'token_accuracy']], [0, 1]],
  ['Bits per token', 'bits', [['train', 'train', TRAIN, 'bits_per_token'], ['eval', 'eval', EVAL, 'bits_per_token'], ['long', 'eval long', LONG, 'bits_per_token']]],
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
    /** @type {string|undefined} the run's task (the overfitting notice names its data) */
    this.task = undefined;
    this.overfit = new OverfitDetector();
    this.overfitNotice = el('p', { class: 'overfit-notice', role: 'status', hidden: true });
    grid.before(this.overfitNotice);
    /** @type {MetricChart[]} */
    this.charts = CHARTS.map(([title, file, series, yRange]) => {
      const body = el('div', { class: 'chart-body' });
      const card = el('figure', { class: 'chart-card', dataset: { chart: file } },
        el('figcaption', {},
          el('span', { class: 'chart-title' }, title),
          el('span', { class: 'chart-buttons' },
            el('button', { type: 'button', class: 'small', 'aria-label': `Download ${title} as CSV`, onclick: () => this.#csv(chart, file) }, 'CSV'),
            el('button', { type: 'button', class: 'small', 'aria-label': `Download ${title} as PNG`, onclick: () => this.#png(chart, file) }, 'PNG'))),
        body);
      grid.append(card);
      const chart = /** @type {MetricChart} */ (new LineChart(body, {
        title, logScale, yRange,
        series: series.map(([key, label, color]) => ({ key, label, color, points: key !== 'train', dash: key === 'long' ? [4, 3] : undefined })),
      }));
      chart.metrics = series.map(([key, , , metric]) => /** @type {[SeriesKey, Metric]} */ ([key, metric]));
      return chart;
    });
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
   * @param {string} [task] the run's task (for the overfitting notice's words)
   */
  setEvalLengths(seqLen, evalLen, task) {
    this.seqLen = seqLen;
    this.task = task;
    const long = evalLen && evalLen !== seqLen ? `eval @ length ${evalLen}` : 'eval @ longer length (off)';
    for (const c of this.charts) c.setLabels({ eval: `eval @ length ${seqLen}`, long });
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
    for (const e of evals) {
      const key = e.length === this.seqLen ? 'eval' : 'long';
      for (const c of this.charts) {
        const pair = c.metrics.find(([k]) => k === key);
        if (pair && pair[1] in e) c.addDataPoint(e.step, { [key]: e[/** @type {keyof EvalMetrics} */ (pair[1])] });
      }
    }
    this.#checkOverfit(steps, evals);
  }

  /** @param {StepMetrics[]} steps @param {EvalMetrics[]} evals */
  #checkOverfit(steps, evals) {
    for (const m of steps) this.overfit.addTrain(m.step, m.loss);
    for (const e of evals) if (e.length === this.seqLen) this.overfit.addEval(e.step, e.loss);
    if (!evals.length) return;
    const v = this.overfit.verdict();
    this.overfitNotice.hidden = !v;
    this.overfitNotice.textContent = v ? overfitMessage(v, this.task) : '';
  }

  reset() {
    for (const c of this.charts) c.reset();
    this.overfit.reset();
    this.overfitNotice.hidden = true;
  }

  /** @param {string} label */
  pin(label) {
    for (const c of this.charts) c.pin(label);
  }

  unpin() {
    for (const c of this.charts) c.unpin();
  }

  /** @param {string} label */
  setPinnedLabel(label) {
    for (const c of this.charts) c.setPinnedLabel(label);
  }

  /** @param {boolean} on */
  setLogScale(on) {
    for (const c of this.charts) c.setLogScale(on);
  }
}
