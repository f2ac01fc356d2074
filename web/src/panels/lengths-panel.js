// "Accuracy against length": on demand, evaluates the current model on a held-out batch at each
// length from L (its training length) to 4L in steps of L/4, and plots held-out accuracy and loss
// against length. A length the model cannot be evaluated at (learned positions past their table,
// a task's longest sequence) is marked on the charts and listed with the engine's own reason: it
// never just goes missing. The evaluation is the engine's (Session::evaluate); nothing is computed
// here but the list of lengths. Results belong to the step they were taken at: a new model clears them.
// In a comparison (compare-view.js) each run gets its own curve, named and coloured as the run.
import { el } from './dom.js';

/**
 * The model, as this panel uses it (client/session.js's EngineSession has it; the panel imports no
 * client module, not even its type).
 * @typedef {{evaluate(length?: number): Promise<any>, info: {config: Record<string, unknown>, step: number}}} Session
 */
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

/** @typedef {{name: string, color: string, model: Session|null}} LengthRun one model to evaluate (a comparison has several) */

export class LengthsPanel {
  /**
   * @param {HTMLElement} box the panel's body
   * @param {() => LengthRun[]} runs the models to evaluate: the page's current one, or each run of a comparison
   * @param {import('../charts/line-chart-base.js').LineChartClass} LineChart
   */
  constructor(box, runs, LineChart) {
    this.runs = runs;
    this.token = 0;
    this.button = el('button', { type: 'button', class: 'lengths-run' }, 'Evaluate at lengths');
    this.status = el('p', { class: 'muted lengths-status', role: 'status' }, 'Not evaluated yet.');
    this.refused = el('ul', { class: 'lengths-refused' });
    const card = (/** @type {string} */ title, /** @type {string} */ name) => {
      const body = el('div', { class: 'chart-body' });
      return {
        body,
        card: el(
          'figure',
          { class: 'chart-card', dataset: { chart: name } },
          el('figcaption', {}, el('span', { class: 'chart-title' }, title)),
          body,
        ),
      };
    };
    const acc = card('Held-out token accuracy against length', 'length-accuracy');
    const loss = card('Held-out loss against length', 'length-loss');
    box.replaceChildren(
      el('div', { class: 'lengths-tools' }, this.button, this.status),
      el('div', { class: 'charts-grid' }, acc.card, loss.card),
      this.refused,
    );
    // One series per run (at most 4); a run's line is drawn only once it has points.
    const series = (/** @type {string} */ what) =>
      [0, 1, 2, 3].map((i) => ({ key: `m${i}`, label: what, color: '#188038', points: true }));
    this.acc = new LineChart(acc.body, {
      title: 'accuracy',
      series: series('held-out accuracy'),
      yRange: [0, 1],
      xLabel: 'length',
      height: 170,
      empty: 'Not evaluated yet.',
      xText: (x) => String(Math.round(x)),
    });
    this.loss = new LineChart(loss.body, {
      title: 'loss',
      series: series('held-out loss'),
      xLabel: 'length',
      height: 170,
      empty: 'Not evaluated yet.',
      xText: (x) => String(Math.round(x)),
    });
    this.button.addEventListener('click', () => void this.evaluate());
    /** @type {LengthPoint[][]} the last evaluation's points, per run */
    this.results = [];
  }

  /** The last evaluation's points of the first run (the page's model). */
  get points() {
    return this.results[0] ?? [];
  }

  /** A new model (or a reset): the old curves are not this model's. */
  clear() {
    this.token++;
    this.results = [];
    for (const c of [this.acc, this.loss]) {
      c.reset();
      c.markers = [];
      c.redraw('rebuild');
    }
    this.refused.replaceChildren();
    this.status.textContent = 'Not evaluated yet.';
    this.button.disabled = false;
  }

  /** Evaluate every run's model at every length, one after the other, and draw the curves. */
  async evaluate() {
    const runs = this.runs().filter((r) => r.model);
    if (!runs.length) return;
    const token = ++this.token;
    this.button.disabled = true;
    /** @type {LengthPoint[][]} */
    const results = [];
    /** @type {number[]} */
    const steps = [];
    for (const [k, run] of runs.entries()) {
      const model = /** @type {Session} */ (run.model);
      const L = Number(model.info.config.seq_len);
      /** @type {LengthPoint[]} */
      const points = [];
      for (const length of lengthsFor(L)) {
        this.status.textContent = `Evaluating${runs.length > 1 ? ` ${run.name}` : ''} at length ${length} (${points.length + 1} of ${lengthsFor(L).length}${runs.length > 1 ? `, run ${k + 1} of ${runs.length}` : ''})…`;
        try {
          const ev = await model.evaluate(length);
          points.push({ length, accuracy: ev.token_accuracy, loss: ev.loss });
          steps[k] ??= ev.step;
        } catch (err) {
          points.push({ length, accuracy: null, loss: null, reason: /** @type {Error} */ (err).message });
        }
        if (token !== this.token) return; // a new model came meanwhile
      }
      steps[k] ??= model.info.step;
      results.push(points);
    }
    this.#draw(runs, results, steps);
    this.button.disabled = false;
  }

  /**
   * @param {LengthRun[]} runs
   * @param {LengthPoint[][]} results
   * @param {number[]} steps
   */
  #draw(runs, results, steps) {
    this.results = results;
    const many = runs.length > 1;
    const L = Math.min(...results.map((p) => p[0].length));
    /** @type {{x: number, label: string}[]} */
    const markers = [{ x: L, label: `trained at ${L}` }];
    const lists = results.map((points, k) => refusals(points).map((r) => ({ ...r, run: k })));
    for (const list of lists)
      for (const r of list)
        if (!markers.some((m) => m.x === r.lengths[0]))
          markers.push({
            x: r.lengths[0],
            label: `✕ ${r.lengths[0]}+${many ? ` (${runs[r.run].name})` : ''}: not evaluable`,
          });
    for (const [chart, key] of /** @type {const} */ ([
      [this.acc, 'accuracy'],
      [this.loss, 'loss'],
    ])) {
      chart.reset();
      chart.series.forEach((s, i) =>
        Object.assign(s, {
          label: many ? (runs[i]?.name ?? '') : key === 'accuracy' ? 'held-out accuracy' : 'held-out loss',
          color: many ? (runs[i]?.color ?? s.color) : key === 'accuracy' ? '#188038' : '#1a73e8',
        }),
      );
      chart.markers = markers;
      results.forEach((points, k) => {
        for (const p of points) chart.addDataPoint(p.length, { [`m${k}`]: p[key] });
      });
      chart.redraw('rebuild');
    }
    this.status.textContent = results
      .map((points, k) => {
        const ok = points.filter((p) => p.accuracy != null);
        const last = ok.at(-1);
        const who = many ? `${runs[k].name}, step ${steps[k]}` : `At step ${steps[k]}`;
        return (
          `${who}: evaluated at ${ok.length} of ${points.length} lengths (${points[0].length} to ${points.at(-1)?.length})` +
          (!last
            ? '.'
            : ok.length === 1
              ? `; accuracy ${fmtPct(last.accuracy)} at ${last.length}.`
              : `; accuracy ${fmtPct(ok[0].accuracy)} at ${ok[0].length}, ${fmtPct(last.accuracy)} at ${last.length}.`)
        );
      })
      .join(' ');
    this.refused.replaceChildren(
      ...lists
        .flat()
        .map((r) =>
          el(
            'li',
            { dataset: { from: String(r.lengths[0]), run: String(r.run) } },
            el('strong', {}, `${many ? `${runs[r.run].name}: n` : 'N'}ot evaluable at ${r.lengths.join(', ')}: `),
            r.reason,
          ),
        ),
    );
  }
}

/** @param {number|null} x */
const fmtPct = (x) => (x == null ? '–' : `${(100 * x).toFixed(1)}%`);
