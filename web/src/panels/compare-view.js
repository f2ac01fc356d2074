// A comparison's view (state/compare.js: the same setup trained once per run with the settings
// that differ; run/compare-runs.js trains the runs, on a run set the page owns, and calls this
// view's drawing methods: it implements CompareViews). The runs share the seed, so they see the
// same batches and the same held-out examples. On screen: one table row per run (its colour, what
// sets it apart, step, loss, held-out accuracy, and with `files` its model's export and import),
// the loss and held-out accuracy charts with one colour per run, and per run, side by side, the
// attention maps and predictions of the same held-out examples, and (view "heads") a table of what
// each run's heads do. The widget (compare attribute, LightLineChart) and the playground (uPlot)
// both show it. It draws only: its buttons call `actions` (set by CompareRuns).
import { styleChanged } from '../charts/detached-canvas.js';
import { fmt } from '../charts/heatmap.js';
import { AttentionPanel } from './attention-panel.js';
import { PredictionsPanel } from './predictions-panel.js';
import { LengthsPanel } from './lengths-panel.js';
import { CompareHeads } from './compare-heads.js';
import { el, download, readFile } from './dom.js';
import { runNames, compareTitle } from '../state/compare.js';
import { engineKind, engineNotice } from './engine-notice.js';
import { hasMessage, translator } from '../common/messages.js';
import './compare-view.css';

/** One colour per run (Okabe–Ito: told apart with colour-blindness too), and a dash for the 2nd to 4th. */
export const RUN_COLORS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7'];
const RUN_DASH = [undefined, [6, 3], [2, 3], [8, 3, 2, 3]];
const swatch = (/** @type {number} */ i) => el('span', { class: 'ap-swatch', style: { background: RUN_COLORS[i] } });

/** @typedef {import('../state/properties.js').State} State */
/**
 * A run's new metrics (run/run-controller.js MetricsBatch, as this view reads it).
 * @typedef {{steps: import('../wasm-api').StepMetrics[], evals: import('../wasm-api').EvalMetrics[], step: number}} MetricsBatch
 */
/**
 * A run's model, as this view uses it (client/session.js's EngineSession has it): its free
 * predictions, the lengths panel's evaluation, the crash notice's view of it.
 * @typedef {import('./lengths-panel.js').Session & import('./engine-notice.js').Session & {run(ids: number[]): Promise<any>}} RunModel
 */
/**
 * What the view's buttons do, and each run's model: set by the run set that drives the view
 * (run/compare-runs.js CompareRuns; this view imports no run/ module, not even its type).
 * @typedef {{play(): void, pause(): void, reset(): void, exportModel(i: number): Promise<{bytes: Uint8Array, name: string}|null>,
 *   importModel(i: number, file: {name: string, bytes: Uint8Array}): Promise<void>, model(i: number): RunModel|null}} Actions
 */
/**
 * @typedef {{state: State, name: string, color: string, attention?: AttentionPanel,
 *   predictions?: PredictionsPanel, cells: {step: HTMLElement, loss: HTMLElement, acc: HTMLElement},
 *   last: {step: number, loss: number|null, acc: number|null}, seqLen: number}} Run
 */
/**
 * @typedef {object} CompareOptions
 * @property {EventTarget} pool where the models train (its 'crash' and 'recovered' events: the notice)
 * @property {{variant: string, simdArch?: string, threads?: number}} engineInfo for the footer
 * @property {import('../charts/line-chart-base.js').LineChartClass} LineChart
 * @property {string} title
 * @property {{runs: State[], fields: string[]}} compare
 * @property {string[]} view panels: chart, attention, predictions, heads (each run's head labels), lengths (accuracy against length, on demand)
 * @property {number} height of each chart
 * @property {boolean} [files] a per-run Export / Import of the model file
 * @property {import('../common/messages.js').Lang} [lang] the language of its words (the message
 *   table's compare and panels parts, loaded before: loadMessages(lang, ['compare', 'panels'])); English by default
 */

/** What it draws: run/compare-runs.js's CompareViews. */
export class CompareView {
  /** @param {HTMLElement} box @param {CompareOptions} opts */
  constructor(box, opts) {
    this.box = box;
    box.classList.add('ap-compare');
    this.opts = opts;
    /** its words in its language */
    this.tr = translator(opts.lang ?? 'en');
    const { runs: states, fields } = opts.compare;
    this.names = runNames(states, fields);
    const has = (/** @type {string} */ v) => opts.view.includes(v);
    this.inspected = {
      attention: has('attention'),
      predictions: has('predictions'),
      heads: has('heads'),
    };
    /** @type {Actions} what the buttons do (CompareRuns sets it) */
    this.actions = {
      play() {},
      pause() {},
      reset() {},
      exportModel: async () => null,
      importModel: async () => {},
      model: () => null,
    };
    this.playButton = el(
      'button',
      {
        type: 'button',
        class: 'primary ap-compare-play',
        onclick: () => this.actions.play(),
      },
      this.tr('cmp.play'),
    );
    this.tbody = el('tbody');
    this.attn = el('div', { class: 'ap-compare-side' });
    this.preds = el('div', { class: 'ap-compare-side' });
    this.headsBox = el('div', {});
    this.lengthsBox = el('div', {});
    this.chartBox = el('div', { class: 'ap-charts' });
    this.notice = el('p', { class: 'config-error', role: 'alert', hidden: true });
    /** @type {Run[]} */
    this.runs = states.map((state, i) => this.#run(state, i));
    this.#parts();
    box.replaceChildren(this.#head(), this.notice, this.#table(), this.#panels(), this.#foot());
    this.unnotice = engineNotice(
      opts.pool,
      box,
      (model) => this.runs.some((_, i) => this.actions.model(i) === model),
      opts.lang,
    );
    /** @type {[import('../charts/line-chart-base.js').LineChartBase & {destroy(): void, restyle(): void}, 'loss'|'token_accuracy'][]} */
    this.charts = [];
    this.disposed = false;
  }

  /** Run i's table row, attention maps and predictions. @param {State} state @param {number} i @returns {Run} */
  #run(state, i) {
    const cells = {
      step: el('td', {}, '0'),
      loss: el('td', {}, '–'),
      acc: el('td', {}, '–'),
    };
    const name = this.names[i];
    const row = [el('th', { scope: 'row' }, swatch(i), name), cells.step, cells.loss, cells.acc];
    this.tbody.append(el('tr', { dataset: { run: String(i) } }, ...row, this.opts.files ? this.#files(i) : null));
    const side = (/** @type {HTMLElement} */ into, /** @type {HTMLElement} */ body) =>
      into.append(
        el(
          'figure',
          { class: 'ap-compare-map', dataset: { run: String(i) } },
          el('figcaption', {}, swatch(i), name),
          body,
        ),
      );
    const attention = this.inspected.attention
      ? new AttentionPanel(el('div', { class: 'attention-grid' }), {
          frameMs: 8,
          lang: this.opts.lang,
        })
      : undefined;
    if (attention) side(this.attn, attention.grid);
    let predictions;
    if (this.inspected.predictions) {
      const list = el('div', { class: 'predictions' });
      side(this.preds, list);
      predictions = new PredictionsPanel(
        list,
        el('div', { hidden: true }, el('div', { class: 'free-out' })),
        (ids) => this.actions.model(i)?.run(ids) ?? Promise.reject(new Error('no model')),
        this.opts.lang,
      );
    }
    const last = { step: 0, loss: null, acc: null };
    return {
      state,
      name,
      color: RUN_COLORS[i],
      cells,
      last,
      attention,
      predictions,
      seqLen: Number(state.seq_len),
    };
  }

  /** Run i's Export and Import buttons. @param {number} i */
  #files(i) {
    return el(
      'td',
      { class: 'ap-compare-files' },
      el('button', { type: 'button', class: 'small', onclick: () => this.#export(i) }, this.tr('cmp.export')),
      el(
        'label',
        { class: 'button small' },
        this.tr('cmp.import'),
        el('input', {
          type: 'file',
          class: 'file-input',
          accept: '.safetensors,application/octet-stream',
          onchange: (/** @type {Event} */ e) => this.#import(i, /** @type {HTMLInputElement} */ (e.target)),
        }),
      ),
    );
  }

  /** The heads table and the lengths panel. */
  #parts() {
    const { opts } = this;
    /** @type {CompareHeads|undefined} */
    this.headsTable = this.inspected.heads
      ? new CompareHeads(
          this.headsBox,
          this.runs.map((r, i) => ({ name: r.name, swatch: () => swatch(i) })),
          this.tr('cmp.measuringHeads'),
          this.opts.lang,
        )
      : undefined;
    /** @type {LengthsPanel|undefined} */
    this.lengths = opts.view.includes('lengths')
      ? new LengthsPanel(
          this.lengthsBox,
          () =>
            this.runs.map((r, i) => ({
              name: r.name,
              color: r.color,
              model: this.actions.model(i),
            })),
          opts.LineChart,
        )
      : undefined;
  }

  #head() {
    const { runs: states, fields } = this.opts.compare;
    const reset = el(
      'button',
      {
        type: 'button',
        class: 'ap-compare-reset',
        onclick: () => this.actions.reset(),
      },
      this.tr('cmp.reset'),
    );
    return el(
      'header',
      { class: 'ap-head' },
      el(
        'div',
        { class: 'ap-title' },
        el('div', {}, this.opts.title),
        el(
          'span',
          { class: 'muted ap-compare-title' },
          this.tr('cmp.title', { what: compareTitle(states, fields, this.tr('cmp.vs'), this.tr('cmp.is')) }),
        ),
      ),
      el('div', { class: 'ap-transport' }, this.playButton, reset),
    );
  }

  #table() {
    const head = ['run', 'step', 'loss', 'acc', ...(this.opts.files ? ['file'] : [])].map((c) =>
      this.tr(`cmp.col.${c}`),
    );
    return el(
      'div',
      { class: 'ap-scroll' },
      el(
        'table',
        { class: 'ap-compare-runs' },
        el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col' }, h)))),
        this.tbody,
      ),
    );
  }

  #panels() {
    const panel = (/** @type {string} */ v, /** @type {string} */ title, /** @type {HTMLElement} */ body) =>
      this.opts.view.includes(v)
        ? el(
            'section',
            { class: 'ap-panel', dataset: { view: v }, 'aria-label': title },
            v === 'chart' ? null : el('h3', {}, title),
            body,
          )
        : null;
    return el(
      'div',
      { class: 'ap-panels' },
      panel('chart', this.tr('cmp.view.chart'), this.chartBox),
      panel('attention', this.tr('cmp.view.attention'), el('div', { class: 'ap-scroll' }, this.attn)),
      panel('predictions', this.tr('cmp.view.predictions'), this.preds),
      panel('heads', this.tr('cmp.view.heads'), el('div', { class: 'ap-scroll' }, this.headsBox)),
      panel('lengths', this.tr('cmp.view.lengths'), this.lengthsBox),
    );
  }

  #foot() {
    return el(
      'footer',
      { class: 'ap-foot' },
      el('span', {}, this.tr('cmp.trains', { kind: this.#kind() })),
      el('span', {}, this.tr('cmp.models', { n: this.runs.length })),
    );
  }

  /** The build that trains, in its language (the widget's words for it when loaded, as widget-app.js). */
  #kind() {
    const { engineInfo: e, lang = 'en' } = this.opts;
    return lang !== 'en' && hasMessage(lang, `widget.kind.${e.variant}`)
      ? this.tr(`widget.kind.${e.variant}`)
      : engineKind(e);
  }

  /** The charts (before the models are built). */
  prepare() {
    if (!this.opts.view.includes('chart')) return;
    const series = this.runs.map((r, i) => ({
      key: `r${i}`,
      label: r.name,
      color: r.color,
      dash: RUN_DASH[i],
    }));
    for (const [title, metric, yRange] of /** @type {const} */ ([
      [this.tr('cmp.chart.loss'), 'loss', undefined],
      [this.tr('cmp.chart.accuracy'), 'token_accuracy', [0, 1]],
    ])) {
      const body = el('div', { class: 'ap-chart-body' });
      this.chartBox.append(
        el(
          'figure',
          { class: 'ap-chart', style: 'margin:0', dataset: { chart: metric } },
          el('figcaption', { class: 'ap-chart-title' }, title),
          body,
        ),
      );
      const points = metric === 'token_accuracy';
      this.charts.push([
        new this.opts.LineChart(body, {
          title,
          series: series.map((s) => ({ ...s, points })),
          height: this.opts.height,
          yRange: yRange ? [...yRange] : undefined,
          xLabel: this.tr('cmp.col.step'),
          empty: this.tr('cmp.chart.empty'),
        }),
        metric,
      ]);
    }
  }

  /** @param {string|null} text */
  say(text) {
    this.notice.hidden = text === null;
    this.notice.textContent = text ?? '';
  }

  /** @param {boolean} playing */
  label(playing) {
    const text = this.tr(playing ? 'cmp.pause' : 'cmp.play');
    if (this.playButton.textContent !== text) this.playButton.textContent = text;
  }

  /** Run i has a new model (or restarted from `info`). @param {number} i @param {import('../wasm-api').SessionInfo} info */
  fresh(i, info) {
    const r = this.runs[i];
    r.seqLen = Number(info.config.seq_len);
    Object.assign(r.last, { step: info.step, loss: null, acc: null });
    r.predictions?.setModel(info);
    this.headsTable?.set(i, null);
    this.lengths?.clear(); // curves of another model
  }

  /** @param {number} i @param {{attention?: any, predictions?: any}} snap */
  showInspection(i, snap) {
    const r = this.runs[i];
    if (snap.attention) r.attention?.update(snap.attention);
    if (snap.predictions) r.predictions?.update(snap.predictions);
  }

  /** @param {number} i @param {any} diagnostics */
  heads(i, diagnostics) {
    this.headsTable?.set(i, diagnostics);
  }

  /** Every chart back to step 0. */
  reset() {
    for (const [chart] of this.charts) chart.reset();
    for (const r of this.runs) Object.assign(r.last, { step: 0, loss: null, acc: null });
  }

  /** Run i's new metrics (the run set's drawing queue hands every run's together). @param {number} i @param {MetricsBatch} batch */
  metrics(i, { steps, evals }) {
    const r = this.runs[i];
    if (!r || this.disposed) return;
    const held = evals.filter((e) => e.length === r.seqLen);
    for (const [chart, metric] of this.charts) {
      if (metric === 'loss') for (const s of steps) chart.addDataPoint(s.step, { [`r${i}`]: s.loss });
      else for (const e of held) chart.addDataPoint(e.step, { [`r${i}`]: e.token_accuracy });
    }
    const s = steps.at(-1);
    if (s) Object.assign(r.last, { step: s.step, loss: s.loss });
    const e = held.at(-1);
    if (e) r.last.acc = e.token_accuracy;
    const set = (/** @type {HTMLElement} */ node, /** @type {string} */ text) =>
      node.textContent !== text && (node.textContent = text);
    set(r.cells.step, String(r.last.step));
    set(r.cells.loss, r.last.loss == null ? '–' : fmt(r.last.loss));
    set(r.cells.acc, r.last.acc == null ? '–' : `${Math.round(100 * r.last.acc)}%`);
  }

  /** @param {number} i */
  async #export(i) {
    const file = await this.actions.exportModel(i);
    if (file)
      download(
        new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (file.bytes)], {
          type: 'application/octet-stream',
        }),
        file.name,
      );
  }

  /** @param {number} i @param {HTMLInputElement} input */
  async #import(i, input) {
    const file = await readFile(input);
    if (file) await this.actions.importModel(i, file);
  }

  restyle() {
    styleChanged();
    for (const [chart] of this.charts) chart.restyle();
    for (const r of this.runs) if (r.attention?.last) r.attention.update(r.attention.last);
  }

  dispose() {
    this.disposed = true;
    for (const [chart] of this.charts) chart.destroy();
    this.unnotice?.();
    for (const r of this.runs) r.predictions?.dispose();
  }
}
