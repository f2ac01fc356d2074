// The training curves: which metric goes on which chart, and the panel's buttons (CSV, PNG per
// chart). Feeds the charts from the model's metric events; the charts do the rest.
import { LineChart } from '../charts/line-chart.js';
import { el, download } from './dom.js';

const TRAIN = '#1a73e8';
const EVAL = '#188038';
const LONG = '#9334e6';

// chart: [title, file name, [[series key, label, colour, from metric, kind]], y range]
const CHARTS = [
  ['Loss (cross-entropy, nats)', 'loss', [['train', 'train', TRAIN, 'loss'], ['eval', 'eval', EVAL, 'loss'], ['long', 'eval long', LONG, 'loss']]],
  ['Token accuracy', 'accuracy', [['train', 'train', TRAIN, 'token_accuracy'], ['eval', 'eval', EVAL, 'token_accuracy'], ['long', 'eval long', LONG, 'token_accuracy']], [0, 1]],
  ['Bits per token', 'bits', [['train', 'train', TRAIN, 'bits_per_token'], ['eval', 'eval', EVAL, 'bits_per_token'], ['long', 'eval long', LONG, 'bits_per_token']]],
  ['Gradient norm (before clipping)', 'grad-norm', [['train', 'grad norm', TRAIN, 'grad_norm']]],
  ['Learning rate', 'lr', [['train', 'lr', TRAIN, 'lr']]],
];

export class ChartsPanel {
  /** @param {HTMLElement} grid where the chart cards go */
  constructor(grid, { logScale = false } = {}) {
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
      const chart = new LineChart(body, {
        title, logScale, yRange,
        series: series.map(([key, label, color]) => ({ key, label, color, points: key !== 'train', dash: key === 'long' ? [4, 3] : undefined })),
      });
      chart.metrics = series.map(([key, , , metric]) => [key, metric]);
      return chart;
    });
  }

  #csv(chart, file) {
    download(new Blob([chart.toCSV()], { type: 'text/csv' }), `attnplay-${file}.csv`);
  }

  async #png(chart, file) {
    download(await chart.toPNG(), `attnplay-${file}.png`);
  }

  /** Label the evaluation series by their lengths. */
  setEvalLengths(seqLen, evalLen) {
    this.seqLen = seqLen;
    const long = evalLen && evalLen !== seqLen ? `eval @ length ${evalLen}` : 'eval @ longer length (off)';
    for (const c of this.charts) c.setLabels({ eval: `eval @ length ${seqLen}`, long });
  }

  /** Append one metrics event ({steps, evals}). */
  add({ steps, evals }) {
    for (const c of this.charts)
      for (const m of steps) c.addDataPoint(m.step, { train: m[c.metrics.find(([k]) => k === 'train')[1]] });
    for (const e of evals) {
      const key = e.length === this.seqLen ? 'eval' : 'long';
      for (const c of this.charts) {
        const pair = c.metrics.find(([k]) => k === key);
        if (pair) c.addDataPoint(e.step, { [key]: e[pair[1]] });
      }
    }
  }

  reset() {
    for (const c of this.charts) c.reset();
  }

  pin(label) {
    for (const c of this.charts) c.pin(label);
  }

  unpin() {
    for (const c of this.charts) c.unpin();
  }

  setPinnedLabel(label) {
    for (const c of this.charts) c.setPinnedLabel(label);
  }

  setLogScale(on) {
    for (const c of this.charts) c.setLogScale(on);
  }
}
