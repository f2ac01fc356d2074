// A comparison (state/compare.js): the same setup trained once per run with the settings that
// differ, all at once on a worker pool, one run controller per run (run/run-set.js makes them and
// builds their models; the page hands the set in). The runs share the seed, so they see the same
// batches and the same held-out examples. On screen: one table row per run (its colour, what sets
// it apart, step, loss, held-out accuracy, and with `files` its model's export and import), the
// loss and held-out accuracy charts with one colour per run, and per run, side by side, the
// attention maps and predictions of the same held-out examples, and (view "heads") a table of what
// each run's heads do. The widget (compare attribute, LightLineChart) and the playground (uPlot)
// both show it. Training pauses while not visible (setVisible).
import { styleChanged } from '../charts/detached-canvas.js';
import { fmt } from '../charts/heatmap.js';
import { AttentionPanel } from './attention-panel.js';
import { PredictionsPanel } from './predictions-panel.js';
import { LengthsPanel } from './lengths-panel.js';
import { CompareHeads } from './compare-heads.js';
import { el, download, readFile } from './dom.js';
import { toConfig } from '../state/state.js';
import { runNames, compareTitle } from '../state/compare.js';
import { engineKind, engineNotice } from './engine-notice.js';
import './compare-view.css';

/** One colour per run (Okabe–Ito: told apart with colour-blindness too), and a dash for the 2nd to 4th. */
export const RUN_COLORS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7'];
const RUN_DASH = [undefined, [6, 3], [2, 3], [8, 3, 2, 3]];
/**
 * The page draws every run's new metrics together, at most this often: one frame for all runs.
 * Twice as seldom when the runs take every core (each frame the page draws is then a run's time).
 */
const DRAW_MS = 500;
const swatch = (/** @type {number} */ i) => el('span', { class: 'ap-swatch', style: { background: RUN_COLORS[i] } });

/** @typedef {import('../state/properties.js').State} State */
/** @typedef {import('../run/run-controller.js').RunController} RunController */
/**
 * @typedef {{state: State, name: string, color: string, run: RunController, attention?: AttentionPanel,
 *   predictions?: PredictionsPanel, cells: {step: HTMLElement, loss: HTMLElement, acc: HTMLElement},
 *   last: {step: number, loss: number|null, acc: number|null}}} Run
 */
/**
 * @typedef {object} CompareOptions
 * @property {import('../run/run-set.js').RunSet} runs the runs' controllers, on the pool where the models train
 * @property {import('../state/properties.js').Property[]} props
 * @property {{variant: string, simdArch?: string, threads?: number}} engineInfo for the footer
 * @property {import('../charts/line-chart-base.js').LineChartClass} LineChart
 * @property {string} title
 * @property {{runs: State[], fields: string[]}} compare
 * @property {string[]} view panels: chart, attention, predictions, heads (each run's head labels), lengths (accuracy against length, on demand)
 * @property {number} height of each chart
 * @property {boolean} autoplay
 * @property {boolean} [files] a per-run Export / Import of the model file
 */

export class CompareView {
  /** @param {HTMLElement} box @param {CompareOptions} opts */
  constructor(box, opts) {
    this.box = box;
    box.classList.add('ap-compare');
    this.opts = opts;
    this.settings = { view: opts.view }; // as the widget's apps (attention-playground.js reads nothing else)
    this.visible = false;
    this.wantPlay = opts.autoplay;
    this.disposed = false;
    const { runs: states, fields } = opts.compare;
    const names = runNames(states, fields);
    const has = (/** @type {string} */ v) => opts.view.includes(v);
    this.playButton = el(
      'button',
      { type: 'button', class: 'primary ap-compare-play', onclick: () => (this.wantPlay ? this.pause() : this.play()) },
      'Play',
    );
    const reset = el('button', { type: 'button', class: 'ap-compare-reset', onclick: () => this.reset() }, 'Reset');
    const tbody = el('tbody');
    const attn = el('div', { class: 'ap-compare-side' });
    const preds = el('div', { class: 'ap-compare-side' });
    const controllers = opts.runs.open(states.map((_, i) => this.#views(i)));
    /** @type {Run[]} */
    this.runs = states.map((state, i) => {
      const cells = { step: el('td', {}, '0'), loss: el('td', {}, '–'), acc: el('td', {}, '–') };
      const files = opts.files
        ? el(
            'td',
            { class: 'ap-compare-files' },
            el('button', { type: 'button', class: 'small', onclick: () => this.#export(i) }, 'Export'),
            el(
              'label',
              { class: 'button small' },
              'Import',
              el('input', {
                type: 'file',
                class: 'file-input',
                accept: '.safetensors,application/octet-stream',
                onchange: (/** @type {Event} */ e) => this.#import(i, /** @type {HTMLInputElement} */ (e.target)),
              }),
            ),
          )
        : null;
      tbody.append(
        el(
          'tr',
          { dataset: { run: String(i) } },
          el('th', { scope: 'row' }, swatch(i), names[i]),
          cells.step,
          cells.loss,
          cells.acc,
          files,
        ),
      );
      const side = (/** @type {HTMLElement} */ into, /** @type {HTMLElement} */ body) =>
        into.append(
          el(
            'figure',
            { class: 'ap-compare-map', dataset: { run: String(i) } },
            el('figcaption', {}, swatch(i), names[i]),
            body,
          ),
        );
      const attention = has('attention')
        ? new AttentionPanel(el('div', { class: 'attention-grid' }), { frameMs: 8 })
        : undefined;
      if (attention) side(attn, attention.grid);
      let predictions;
      if (has('predictions')) {
        const list = el('div', { class: 'predictions' });
        side(preds, list);
        predictions = new PredictionsPanel(
          list,
          el('div', { hidden: true }, el('div', { class: 'free-out' })),
          (ids) => this.runs[i].run.model?.run(ids) ?? Promise.reject(new Error('no model')),
        );
      }
      const run = controllers[i];
      return {
        state,
        name: names[i],
        color: RUN_COLORS[i],
        cells,
        last: { step: 0, loss: null, acc: null },
        run,
        attention,
        predictions,
      };
    });
    const headsBox = el('div', {});
    /** @type {CompareHeads|undefined} */
    this.heads = has('heads')
      ? new CompareHeads(
          headsBox,
          this.runs.map((r, i) => ({ name: r.name, swatch: () => swatch(i) })),
        )
      : undefined;
    const lengthsBox = el('div', {});
    /** @type {LengthsPanel|undefined} */
    this.lengths = has('lengths')
      ? new LengthsPanel(
          lengthsBox,
          () => this.runs.map((r) => ({ name: r.name, color: r.color, model: r.run.model })),
          opts.LineChart,
        )
      : undefined;
    const head = ['run', 'step', 'train loss', 'held-out acc.', ...(opts.files ? ['file'] : [])];
    this.chartBox = el('div', { class: 'ap-charts' });
    this.notice = el('p', { class: 'config-error', role: 'alert', hidden: true });
    const panel = (/** @type {string} */ v, /** @type {string} */ title, /** @type {HTMLElement} */ body) =>
      has(v)
        ? el(
            'section',
            { class: 'ap-panel', dataset: { view: v }, 'aria-label': title },
            v === 'chart' ? null : el('h3', {}, title),
            body,
          )
        : null;
    const e = opts.engineInfo;
    box.replaceChildren(
      el(
        'header',
        { class: 'ap-head' },
        el(
          'div',
          { class: 'ap-title' },
          el('div', {}, opts.title),
          el(
            'span',
            { class: 'muted ap-compare-title' },
            `Compare ${compareTitle(states, fields)} · same seed, same batches`,
          ),
        ),
        el('div', { class: 'ap-transport' }, this.playButton, reset),
      ),
      this.notice,
      el(
        'div',
        { class: 'ap-scroll' },
        el(
          'table',
          { class: 'ap-compare-runs' },
          el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col' }, h)))),
          tbody,
        ),
      ),
      el(
        'div',
        { class: 'ap-panels' },
        panel('chart', 'Training curves', this.chartBox),
        panel('attention', 'Attention, one held-out example, each run', el('div', { class: 'ap-scroll' }, attn)),
        panel('predictions', 'Predictions on the same held-out examples, each run', preds),
        panel('heads', 'Heads: what each one does, each run', el('div', { class: 'ap-scroll' }, headsBox)),
        panel('lengths', 'Accuracy against length, each run (L to 4L, on demand)', lengthsBox),
      ),
      el(
        'footer',
        { class: 'ap-foot' },
        el('span', {}, `Trains in your browser · ${engineKind(e)}`),
        el('span', {}, `${states.length} models`),
      ),
    );
    this.unnotice = engineNotice(opts.runs.pool, box, (model) => this.runs.some((r) => r.run.model === model));
    /** @type {[import('../charts/line-chart-base.js').LineChartBase & {destroy(): void, restyle(): void}, 'loss'|'token_accuracy'][]} */
    this.charts = [];
    /** @type {[Run, import('../run/run-controller.js').MetricsBatch][]} metrics not drawn yet (#queue) */
    this.queued = [];
    /** @type {any} */
    this.drawTimer = 0;
    this.drawnAt = -Infinity;
    this.drawMs = this.runs.length >= (navigator.hardwareConcurrency || 2) ? 2 * DRAW_MS : DRAW_MS;
  }

  /** The step shown: the slowest run's. */
  get last() {
    return { step: Math.min(...this.runs.map((r) => r.last.step)) };
  }

  /** @param {number} i the run's index (its hooks run once this.runs is set) @returns {import('../run/run-controller.js').RunViews} */
  #views(i) {
    const run = () => this.runs[i];
    const inspected = ['attention', 'predictions', 'heads'].some((v) => this.opts.view.includes(v));
    return {
      checked: (check) => {
        if (!check.ok) throw new Error(`${run().name}: this combination cannot train: ${check.error}`);
      },
      fresh: (info) => {
        run().predictions?.setModel(info);
        this.heads?.set(i, null);
        this.lengths?.clear(); // curves of another model
      },
      ready: () => this.wantPlay && this.visible && this.#runOne(run()),
      metrics: (batch) => this.#queue(run(), batch),
      state: ({ playing, reason, stalled }) => {
        if (stalled) this.#say(`${run().name}: training stopped: ${reason}`);
        // every run done (its last reported step; the table's may be drawn later): Play again
        if (
          !playing &&
          this.runs.every((x) => !x.run.playing) &&
          this.runs.every((x) => Math.max(x.run.step, x.last.step) >= this.#steps())
        )
          this.wantPlay = false;
        this.#label();
      },
      inspect: inspected
        ? async (model, current) => {
            const r = run();
            if (r.attention || r.predictions) {
              const snap = await model.inspect({
                attention: r.attention ? {} : undefined,
                predictions: r.predictions ? { n: 3 } : undefined,
              });
              if (!current()) return;
              if (snap.attention) r.attention?.update(snap.attention);
              if (snap.predictions) r.predictions?.update(snap.predictions);
            }
            if (this.heads) {
              const { diagnostics } = await model.heads(-1, false);
              if (current()) this.heads.set(i, diagnostics);
            }
          }
        : undefined,
      error: (err) => this.#say(`Could not read ${run().name}: ${err.message}`),
    };
  }

  #steps() {
    return Number(this.runs[0].state.steps);
  }

  /** Build every run's model; throws with a readable message when one cannot train. */
  async init() {
    const series = this.runs.map((r, i) => ({ key: `r${i}`, label: r.name, color: r.color, dash: RUN_DASH[i] }));
    for (const [title, metric, yRange] of /** @type {const} */ ([
      ['Train loss', 'loss', undefined],
      ['Held-out token accuracy', 'token_accuracy', [0, 1]],
    ])) {
      if (!this.opts.view.includes('chart')) break;
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
        }),
        metric,
      ]);
    }
    await this.opts.runs.apply(this.runs.map((r) => toConfig(this.opts.props, r.state)));
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
    this.queued = [];
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
    if (this.playButton.textContent !== text) this.playButton.textContent = text;
  }

  /**
   * Keep run r's new metrics for the next draw of all runs: at once when the last draw is drawMs
   * old, else when it will be, so that the runs' updates share one frame (with a core per run,
   * every frame the page draws is time taken from a run).
   * @param {Run} r @param {import('../run/run-controller.js').MetricsBatch} batch
   */
  #queue(r, batch) {
    this.queued.push([r, batch]);
    if (this.drawTimer) return;
    const wait = Math.max(0, this.drawnAt + this.drawMs - performance.now());
    this.drawTimer = setTimeout(() => this.#drawQueued(), wait);
  }

  #drawQueued() {
    this.drawTimer = 0;
    this.drawnAt = performance.now();
    const queued = this.queued;
    this.queued = [];
    if (!this.disposed) for (const [r, batch] of queued) this.#draw(r, batch);
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
    const set = (/** @type {HTMLElement} */ node, /** @type {string} */ text) =>
      node.textContent !== text && (node.textContent = text);
    set(r.cells.step, String(r.last.step));
    set(r.cells.loss, r.last.loss == null ? '–' : fmt(r.last.loss));
    set(r.cells.acc, r.last.acc == null ? '–' : `${Math.round(100 * r.last.acc)}%`);
  }

  /** Run i's model file (its weights, optimizer state and config). @param {number} i */
  async #export(i) {
    const m = this.runs[i].run.model;
    if (!m) return;
    const bytes = await m.exportModel();
    download(
      new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (bytes)], { type: 'application/octet-stream' }),
      `attnplay-run${i + 1}-${m.info.config.task}-step${m.info.step}.safetensors`,
    );
  }

  /**
   * Load a model file into run i (the others go on); its curves start again from the file's step.
   * A file the engine refuses leaves the run as it was, and says why.
   * @param {number} i @param {HTMLInputElement} input
   */
  async #import(i, input) {
    const r = this.runs[i];
    const file = await readFile(input);
    if (!file || !r.run.model) return;
    try {
      await r.run.model.pause();
      const info = await r.run.model.importModel(file.bytes);
      this.notice.hidden = true;
      Object.assign(r.last, { step: info.step, loss: null, acc: null });
      await r.run.fresh(info);
    } catch (err) {
      this.#say(`Could not import ${file.name} into ${r.name}: ${/** @type {Error} */ (err).message}`);
    }
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
    clearTimeout(this.drawTimer);
    for (const [chart] of this.charts) chart.destroy();
    this.unnotice?.();
    for (const r of this.runs) r.predictions?.dispose();
    await this.opts.runs.dispose();
  }
}
