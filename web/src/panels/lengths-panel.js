// "Accuracy against length": on demand, evaluates the current model on a held-out batch at each
// length from L (its training length) to 4L in steps of L/4, and plots held-out accuracy and loss
// against length. A length the model cannot be evaluated at (learned positions past their table,
// a task's longest sequence) is marked on the charts and listed with the engine's own reason: it
// never just goes missing. The evaluation is the engine's (Session::evaluate); nothing is computed
// here but the list of lengths. Results belong to the step they were taken at: a new model clears them.
import { el } from './dom.js';

/** @typedef {import('../client/session.js').Session} Session */
/** @typedef {{length: number, accuracy: number|null, loss: number|null, reason?: string}} LengthPoint */

/** The multiples of L evaluated: 1, 1.25, … 4. */
export const FACTORS = Array.from({ length: 13 }, (_, i) => 1 + i / 4);

/**
 * The lengths to evaluate for training length L: round(f·L) for each factor, without repeats.
 * @param {number} L
 */
export function lengthsFor(L) {
  return [...new Set(FACTORS.map((f) => Math.max(1, Math.round(f * L))))];
}

/**
 * The reasons the engine gave, one entry per reason with the lengths it covers (a reason that
 * names its own length, "this sequence has 20 tokens", counts as one reason for every length),
 * worded as the engine said it for the first of them.
 * @param {LengthPoint[]} points
 * @returns {{lengths: number[], reason: string}[]}
 */
export function refusals(points) {
  /** @type {Map<string, {lengths: number[], reason: string}>} */
  const by = new Map();
  for (const p of points) {
    if (!p.reason) continue;
    const key = p.reason.replace(new RegExp(`\\b${p.length}\\b`, 'g'), '#');
    const entry = by.get(key) ?? { lengths: [], reason: p.reason };
    entry.lengths.push(p.length);
    by.set(key, entry);
  }
  return [...by.values()];
}

export class LengthsPanel {
  /**
   * @param {HTMLElement} box the panel's body
   * @param {() => Session|null} model the page's current model
   * @param {import('../charts/line-chart-base.js').LineChartClass} LineChart
   */
  constructor(box, model, LineChart) {
    this.model = model;
    this.LineChart = LineChart;
    this.token = 0;
    this.button = el('button', { type: 'button', class: 'lengths-run' }, 'Evaluate at lengths');
    this.status = el('p', { class: 'muted lengths-status', role: 'status' }, 'Not evaluated yet.');
    this.refused = el('ul', { class: 'lengths-refused' });
    const card = (/** @type {string} */ title, /** @type {string} */ name) => {
      const body = el('div', { class: 'chart-body' });
      return { body, card: el('figure', { class: 'chart-card', dataset: { chart: name } }, el('figcaption', {}, el('span', { class: 'chart-title' }, title)), body) };
    };
    const acc = card('Held-out token accuracy against length', 'length-accuracy');
    const loss = card('Held-out loss against length', 'length-loss');
    box.replaceChildren(el('div', { class: 'lengths-tools' }, this.button, this.status), el('div', { class: 'charts-grid' }, acc.card, loss.card), this.refused);
    this.acc = new LineChart(acc.body, { title: 'accuracy', series: [{ key: 'acc', label: 'held-out accuracy', color: '#188038', points: true }], yRange: [0, 1], xLabel: 'length', height: 170 });
    this.loss = new LineChart(loss.body, { title: 'loss', series: [{ key: 'loss', label: 'held-out loss', color: '#1a73e8', points: true }], xLabel: 'length', height: 170 });
    this.button.addEventListener('click', () => void this.evaluate());
    /** @type {LengthPoint[]} the last evaluation's points */
    this.points = [];
  }

  /** A new model (or a reset): the old curves are not this model's. */
  clear() {
    this.token++;
    this.points = [];
    for (const c of [this.acc, this.loss]) {
      c.reset();
      c.markers = [];
      c.redraw('rebuild');
    }
    this.refused.replaceChildren();
    this.status.textContent = 'Not evaluated yet.';
    this.button.disabled = false;
  }

  /** Evaluate the current model at every length, one after the other, and draw the curves. */
  async evaluate() {
    const model = this.model();
    if (!model) return;
    const token = ++this.token;
    const L = Number(model.info.config.seq_len);
    this.button.disabled = true;
    /** @type {LengthPoint[]} */
    const points = [];
    /** @type {number|undefined} the step the model was at (the first evaluation's) */
    let step;
    for (const length of lengthsFor(L)) {
      this.status.textContent = `Evaluating at length ${length} (${points.length + 1} of ${lengthsFor(L).length})…`;
      try {
        const ev = await model.evaluate(length);
        points.push({ length, accuracy: ev.token_accuracy, loss: ev.loss });
        step ??= ev.step;
      } catch (err) {
        points.push({ length, accuracy: null, loss: null, reason: /** @type {Error} */ (err).message });
      }
      if (token !== this.token) return; // a new model came meanwhile
    }
    this.#draw(points, L, step ?? model.info.step);
    this.button.disabled = false;
  }

  /**
   * @param {LengthPoint[]} points
   * @param {number} L
   * @param {number} step
   */
  #draw(points, L, step) {
    this.points = points;
    const refused = refusals(points);
    const markers = [{ x: L, label: `trained at ${L}` }, ...refused.map((r) => ({ x: r.lengths[0], label: `✕ ${r.lengths[0]}+: not evaluable` }))];
    for (const [chart, key] of /** @type {const} */ ([[this.acc, 'accuracy'], [this.loss, 'loss']])) {
      chart.reset();
      chart.markers = markers;
      for (const p of points) chart.addDataPoint(p.length, { [key === 'accuracy' ? 'acc' : 'loss']: p[key] });
      chart.redraw('rebuild');
    }
    const ok = points.filter((p) => p.accuracy != null);
    const last = ok.at(-1);
    this.status.textContent = `At step ${step}: evaluated at ${ok.length} of ${points.length} lengths (${L} to ${points.at(-1)?.length})` +
      (!last ? '.' : ok.length === 1 ? `; accuracy ${fmtPct(last.accuracy)} at ${last.length}.`
        : `; accuracy ${fmtPct(ok[0].accuracy)} at ${ok[0].length}, ${fmtPct(last.accuracy)} at ${last.length}.`);
    this.refused.replaceChildren(...refused.map((r) => el('li', { dataset: { from: String(r.lengths[0]) } },
      el('strong', {}, `Not evaluable at ${r.lengths.join(', ')}: `), r.reason)));
  }
}

/** @param {number|null} x */
const fmtPct = (x) => (x == null ? '–' : `${(100 * x).toFixed(1)}%`);
