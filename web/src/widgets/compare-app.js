// The widget's comparison (compare="position=none,learned"): the same setup trained once per run
// with the settings that differ, all at once on the shared pool, one run controller per run
// (run/run-controller.js). The runs share the seed, so they see the same batches and the same
// held-out example. On screen: one table row per run (its colour, what sets it apart, step, loss,
// held-out accuracy), the loss and held-out accuracy charts with one colour per run, and the
// attention maps of each run side by side for the same example. Training pauses off screen.
import { styleChanged } from '../charts/detached-canvas.js';
import { LightLineChart } from '../charts/light-line-chart.js';
import { fmt } from '../charts/heatmap.js';
import { AttentionPanel } from '../panels/attention-panel.js';
import { el } from '../panels/dom.js';
import { toConfig } from '../state/state.js';
import { runNames, compareTitle } from '../state/compare.js';
import { engineKind, engineNotice } from '../panels/engine-notice.js';
import { RunController } from '../run/run-controller.js';
import { withCorpus, loadCorpus, corpusBase } from '../run/text-source.js';

/** One colour per run (Okabe–Ito: told apart with colour-blindness too), and a dash for the 2nd to 4th. */
export const RUN_COLORS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7'];
const RUN_DASH = [undefined, [6, 3], [2, 3], [8, 3, 2, 3]];
const FLUSH_MS = 250;
const SNAPSHOT_MS = 1500;

/** @typedef {import('../state/properties.js').State} State */
/** @typedef {{state: State, name: string, color: string, run: RunController, attention?: AttentionPanel,
 *   cells: {step: HTMLElement, loss: HTMLElement, acc: HTMLElement}, last: {step: number, loss: number|null, acc: number|null}}} Run */

export class CompareApp {
  /**
   * @param {HTMLElement} box the widget's card, inside its shadow root
   * @param {import('./shared.js').WidgetEngine} engine
   * @param {import('./attributes.js').WidgetSettings & {preset: import('./presets.js').Preset,
   *   compare: {runs: State[], fields: string[]}}} settings
   */
  constructor(box, engine, settings) {
    this.box = box;
    this.engine = engine;
    this.settings = settings;
    this.visible = false;
    this.wantPlay = settings.autoplay;
    this.disposed = false;
    const { runs: states, fields } = settings.compare;
    const names = runNames(states, fields);
    const view = settings.view;
    this.play_ = el('button', { type: 'button', class: 'primary', onclick: () => (this.wantPlay ? this.pause() : this.play()) }, 'Play');
    const reset = el('button', { type: 'button', onclick: () => this.reset() }, 'Reset');
    const tbody = el('tbody');
    const attnGrid = el('div', { class: 'ap-compare-attn' });
    /** @type {Run[]} */
    this.runs = states.map((state, i) => {
      const cells = { step: el('td', {}, '0'), loss: el('td', {}, '–'), acc: el('td', {}, '–') };
      tbody.append(el('tr', { dataset: { run: String(i) } },
        el('th', { scope: 'row' }, el('span', { class: 'ap-swatch', style: { background: RUN_COLORS[i] } }), names[i]), cells.step, cells.loss, cells.acc));
      const attention = view.includes('attention') ? new AttentionPanel(el('div', { class: 'attention-grid' }), { frameMs: 8 }) : undefined;
      if (attention)
        attnGrid.append(el('figure', { class: 'ap-compare-map', dataset: { run: String(i) } },
          el('figcaption', {}, el('span', { class: 'ap-swatch', style: { background: RUN_COLORS[i] } }), names[i]), attention.grid));
      const run = new RunController(engine.pool, this.#views(i), { refreshMs: SNAPSHOT_MS, flushMs: FLUSH_MS });
      return { state, name: names[i], color: RUN_COLORS[i], cells, last: { step: 0, loss: null, acc: null }, run, attention };
    });
    const table = el('table', { class: 'ap-compare-runs' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'run'), el('th', { scope: 'col' }, 'step'), el('th', { scope: 'col' }, 'train loss'), el('th', { scope: 'col' }, 'held-out acc.'))),
      tbody);
    this.chartBox = el('div', { class: 'ap-charts' });
    this.notice = el('p', { class: 'config-error', role: 'alert', hidden: true });
    const e = engine.info;
    box.replaceChildren(
      el('header', { class: 'ap-head' },
        el('div', { class: 'ap-title' }, el('div', {}, settings.preset.title), el('span', { class: 'muted ap-compare-title' }, `Compare ${compareTitle(states, fields)} · same seed, same batches`)),
        el('div', { class: 'ap-transport' }, this.play_, reset)),
      this.notice, table,
      el('div', { class: 'ap-panels' },
        view.includes('chart') ? el('section', { class: 'ap-panel', dataset: { view: 'chart' }, 'aria-label': 'Training curves' }, this.chartBox) : null,
        view.includes('attention') ? el('section', { class: 'ap-panel', dataset: { view: 'attention' }, 'aria-label': 'Attention' },
          el('h3', {}, 'Attention, one held-out example, each run'), el('div', { class: 'ap-scroll' }, attnGrid)) : null),
      el('footer', { class: 'ap-foot' }, el('span', {}, `Trains in your browser · ${engineKind(e)}`), el('span', {}, `${states.length} models`)));
    this.unnotice = engineNotice(engine.pool, box, (model) => this.runs.some((r) => r.run.model === model));
    /** @type {[LightLineChart, 'loss'|'token_accuracy'][]} */
    this.charts = [];
  }

  /** The step shown: the slowest run's. */
  get last() {
    return { step: Math.min(...this.runs.map((r) => r.last.step)) };
  }

  /** @param {number} i the run's index (its hooks run once this.runs is set) @returns {import('../run/run-controller.js').RunViews} */
  #views(i) {
    const run = () => this.runs[i];
    return {
      checked: (check) => {
        if (!check.ok) throw new Error(`${run().name}: this combination cannot train: ${check.error}`);
      },
      ready: () => this.wantPlay && this.visible && this.#runOne(run()),
      metrics: (batch) => this.#draw(run(), batch),
      state: ({ playing, reason, stalled }) => {
        if (stalled) this.#say(`${run().name}: training stopped: ${reason}`);
        if (!playing && this.runs.every((x) => !x.run.playing) && this.runs.every((x) => x.last.step >= this.#steps())) this.wantPlay = false;
        this.#label();
      },
      snapshot: this.settings.view.includes('attention') ? async (model, current) => {
        const snap = await model.snapshot({ attention: {} });
        if (current()) run().attention?.update(snap.attention);
      } : undefined,
      error: (err) => this.#say(`Could not read ${run().name}: ${err.message}`),
    };
  }

  #steps() {
    return Number(this.runs[0].state.steps);
  }

  /** Build every run's model; throws with a readable message when one cannot train. */
  async init() {
    const series = this.runs.map((r, i) => ({ key: `r${i}`, label: r.name, color: r.color, dash: RUN_DASH[i] }));
    for (const [title, metric, yRange] of /** @type {const} */ ([['Train loss', 'loss', undefined], ['Held-out token accuracy', 'token_accuracy', [0, 1]]])) {
      if (!this.settings.view.includes('chart')) break;
      const body = el('div', { class: 'ap-chart-body' });
      this.chartBox.append(el('figure', { class: 'ap-chart', style: 'margin:0' }, el('figcaption', { class: 'ap-chart-title' }, title), body));
      const points = metric === 'token_accuracy';
      this.charts.push([new LightLineChart(body, { title, series: series.map((s) => ({ ...s, points })), height: this.settings.height, yRange: yRange ? [...yRange] : undefined }), metric]);
    }
    const configs = await Promise.all(this.runs.map((r) => withCorpus(toConfig(this.engine.props, r.state), () => loadCorpus(corpusBase()))));
    for (const [i, r] of this.runs.entries()) {
      if (this.disposed) return;
      await r.run.apply(configs[i]);
    }
  }

  /** @param {string} text */
  #say(text) {
    this.notice.hidden = false;
    this.notice.textContent = text;
  }

  play() {
    this.wantPlay = true;
    this.#label();
    if (this.visible) for (const r of this.runs) this.#runOne(r);
  }

  pause() {
    this.wantPlay = false;
    this.#label();
    return Promise.all(this.runs.map((r) => r.run.model?.pause()));
  }

  /** @param {Run} r */
  #runOne(r) {
    const m = r.run.model;
    if (!m || m.playing) return;
    const steps = this.#steps();
    return r.run.play({ steps, every: Math.max(1, Math.ceil(steps / 500)) });
  }

  reset() {
    for (const [chart] of this.charts) chart.reset();
    for (const r of this.runs) Object.assign(r.last, { step: 0, loss: null, acc: null });
    return Promise.all(this.runs.map((r) => r.run.reset()));
  }

  /** @param {boolean} on */
  setVisible(on) {
    if (this.visible === on) return;
    this.visible = on;
    if (on && this.wantPlay) for (const r of this.runs) this.#runOne(r);
    if (!on) for (const r of this.runs) if (r.run.model?.playing) r.run.model.pause();
  }

  #label() {
    const text = this.wantPlay || this.runs.some((r) => r.run.playing) ? 'Pause' : 'Play';
    if (this.play_.textContent !== text) this.play_.textContent = text;
  }

  /** @param {Run} r @param {import('../run/run-controller.js').MetricsBatch} batch */
  #draw(r, { steps, evals }) {
    const i = this.runs.indexOf(r);
    const seqLen = r.run.model?.info.config.seq_len;
    const held = evals.filter((e) => e.length === seqLen);
    for (const [chart, metric] of this.charts) {
      if (metric === 'loss') for (const s of steps) chart.addDataPoint(s.step, { [`r${i}`]: s.loss });
      else for (const e of held) chart.addDataPoint(e.step, { [`r${i}`]: e.token_accuracy });
    }
    const s = steps.at(-1);
    if (s) Object.assign(r.last, { step: s.step, loss: s.loss });
    const e = held.at(-1);
    if (e) r.last.acc = e.token_accuracy;
    const set = (/** @type {HTMLElement} */ node, /** @type {string} */ text) => node.textContent !== text && (node.textContent = text);
    set(r.cells.step, String(r.last.step));
    set(r.cells.loss, r.last.loss == null ? '–' : fmt(r.last.loss));
    set(r.cells.acc, r.last.acc == null ? '–' : `${Math.round(100 * r.last.acc)}%`);
  }

  restyle() {
    styleChanged();
    for (const [chart] of this.charts) chart.restyle();
    for (const r of this.runs) {
      if (r.attention?.last) r.attention.update(r.attention.last);
      r.run.refresh();
    }
  }

  async dispose() {
    this.disposed = true;
    for (const [chart] of this.charts) chart.destroy();
    this.unnotice?.();
    await Promise.all(this.runs.map((r) => r.run.dispose()));
  }
}
