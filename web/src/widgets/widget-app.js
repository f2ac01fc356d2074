// The widget's own view for presets that are a config (playground, one per encoding): a header
// with Play / Step / Reset and counters, the controls it was asked for, and the panels named in
// `view` (widget-panels.js: the panels of web/src/panels/, each loaded when named; and light line
// charts). Its model runs through the run controller (run/run-controller.js) on the shared pool;
// the widget only renders on the main thread: metrics are buffered and drawn every FLUSH_MS, the
// panels drawn from the weights (attention, positions, predictions, heads, interventions) are
// refreshed every INSPECT_MS while training and visible.
// When the model's worker crashes or goes silent, the client restores the model from its last
// checkpoint (client/client.js); the widget says so in its notice and trains on.
import { styleChanged } from '../charts/detached-canvas.js';
import { LightLineChart } from '../charts/light-line-chart.js';
import { fmt } from '../charts/format.js';
import { Controls } from '../panels/controls.js';
import { el } from '../panels/dom.js';
import { toConfig, withValue } from '../state/state.js';
import { engineKind, engineNotice, reasonOf } from '../panels/engine-notice.js';
import { RunController } from '../run/run-controller.js';
import { withCorpus, loadCorpus, corpusBase } from '../run/text-source.js';
import { WidgetPanels } from './widget-panels.js';
import { hasMessage, translator } from '../common/messages.js';
import { StepQueue } from './step-queue.js';
import { refusalIn } from '../panels/engine-refusal.js';

const FLUSH_MS = 250;
const nextTask = () => new Promise((r) => setTimeout(r, 0));
const INSPECT_MS = 1500;
const TRAIN = '#1a73e8';
const EVAL = '#188038';
const LONG = '#9334e6';
/** @typedef {import('../client/session.js').EngineSession} Session */
/** @typedef {import('../state/properties.js').Value} Value */
/**
 * The widget's elements (#build).
 * @typedef {{play: HTMLButtonElement, step: HTMLButtonElement, reset: HTMLButtonElement, stepCount: HTMLElement,
 *   loss: HTMLElement, acc: HTMLElement, subtitle: HTMLElement, form: HTMLFormElement, configError: HTMLElement,
 *   engine: HTMLElement, params: HTMLElement}} WidgetUi
 */

/**
 * 12345 -> '12,345'. Not toLocaleString(): the first Intl call of a page loads ICU's locale data,
 * 40 to 120 ms of main thread on a slow machine (a long task in a page of widgets).
 */
const thousands = (/** @type {number} */ n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * The labels of the evaluation series for a config (or state).
 * @param {Record<string, Value>} config
 * @param {ReturnType<typeof translator>} tr
 * @returns {Record<string, string>}
 */
function evalLabels({ seq_len: seqLen, eval_len: evalLen }, tr) {
  return {
    eval: tr('widget.series.eval', { n: String(seqLen) }),
    long:
      evalLen && evalLen !== seqLen ? tr('widget.series.eval', { n: String(evalLen) }) : tr('widget.series.longOff'),
  };
}

/**
 * A preset's title in the widget's language: the hand-made presets' from the message table, an
 * encoding's from the registry (its name).
 * @param {import('./presets.js').Preset} preset
 * @param {ReturnType<typeof translator>} tr
 * @param {import('../common/messages.js').Lang} lang
 */
function presetTitle(preset, tr, lang) {
  const key = `preset.${preset.name}`;
  if (hasMessage(lang, key)) return tr(key);
  // an encoding's preset: the registry's title (English), or its name in another language
  return lang === 'en' ? preset.title : tr('preset.encoding', { name: encodingName(preset.name, tr, lang) });
}

/**
 * An encoding's name in a language other than English: the table's `enc.<name>`, else its key.
 * @param {string} name @param {ReturnType<typeof translator>} tr @param {import('../common/messages.js').Lang} lang
 */
function encodingName(name, tr, lang) {
  return hasMessage(lang, `enc.${name}`) ? tr(`enc.${name}`) : name;
}

export class WidgetApp {
  /**
   * @param {HTMLElement} box the widget's card, inside its shadow root
   * @param {import('./shared.js').WidgetEngine} engine
   * @param {import('./attributes.js').WidgetSettings & {preset: import('./presets.js').Preset,
   *   state: import('../state/properties.js').State}} settings a config preset's (so with a state)
   */
  constructor(box, engine, settings) {
    this.box = box;
    this.engine = engine;
    this.settings = settings;
    this.state = settings.state;
    /** the widget's strings in its language (common/messages.js) */
    this.tr = translator(settings.lang ?? 'en');
    this.visible = false;
    /** @type {Promise<unknown>|null} the pause for leaving the screen, until the worker has stopped */
    this.pausing = null;
    this.wantPlay = settings.autoplay;
    /**
     * The counters shown (acc: held-out accuracy once evaluated, else the training batch's) and
     * the `step` event's metrics.
     * @type {{step: number, loss: number|null, acc: number|null, trainAcc?: number|null, evalAcc?: number|null,
     *   longAcc?: number|null}} longAcc: held out at eval_len
     */
    this.last = { step: 0, loss: null, acc: null };
    // Set by #build() (the panels only when in `view`), #charts() and the run:
    /** @type {WidgetUi} */ this.ui;
    /** @type {Controls} */ this.controls;
    /** @type {WidgetPanels} the panels named in `view` */ this.panels;
    /** @type {(() => void)|undefined} */ this.unnotice;
    /** @type {[LightLineChart, 'loss'|'token_accuracy'][]|undefined} each chart and the metric it shows */ this.charts;
    /** @type {string|undefined} the charts' eval labels (JSON), to relabel only on a change */ this.labels;
    /** @type {boolean|undefined} */ this.started;
    /** @type {boolean|undefined} the charts have points since the last reset */ this.drawn;
    /** @type {boolean|undefined} */ this.disposed;
    /** What the element re-fires as its events (`step`, `trained`): set by the element. @type {(type: string, detail: object) => void} */
    this.onEvent = () => {};
    this.#build();
    this.run = new RunController(engine.pool, this.#views(), { refreshMs: INSPECT_MS, flushMs: FLUSH_MS });
    /** step(n) calls: one runs, at most one waits (step-queue.js) */
    this.steps = new StepQueue((n) => this.run.train(n));
  }

  /** The current model (null while none). */
  get model() {
    return this.run?.model ?? null;
  }

  /** The attention panel, when in `view`. */
  get attention() {
    return this.panels.attention;
  }

  /**
   * What the widget shows at each point of a run (run/run-controller.js calls these).
   * @returns {import('../run/run-controller.js').RunViews}
   */
  #views() {
    const ui = this.ui;
    return {
      checked: (check) => {
        this.controls.clearErrors();
        ui.configError.hidden = check.ok;
        if (check.ok) return;
        const why = this.tr('widget.cannotTrain', { error: this.#checkError(check) });
        if (!this.started) throw Object.assign(new Error(why), { said: true }); // in the widget's language
        ui.configError.textContent = why;
        for (const k of this.controls.keysOf(check)) this.controls.fieldError(k, this.tr('widget.seeAbove'));
        this.#enable(false);
      },
      fresh: (info) => this.#fresh(info),
      ready: () => this.wantPlay && this.visible && this.#run(),
      metrics: (batch) => this.#draw(batch),
      state: ({ playing, reason, stalled, step }) => {
        if (!playing && (reason === 'done' || stalled)) this.wantPlay = false;
        if (!playing && reason === 'done') this.onEvent('trained', { ...this.#metrics(), step });
        if (stalled) this.#notice(this.tr('widget.stopped', { reason: String(reason) }));
        this.#label(playing);
      },
      restored: (model, { step, playing }) => {
        for (const [chart] of this.charts ?? []) chart.reset();
        this.drawn = false;
        this.last = { step, loss: null, acc: null };
        this.#stats();
        this.refresh();
        if (!playing && this.wantPlay && this.visible) this.#run();
      },
      inspect: this.panels.needsInspection ? (model, current) => this.panels.inspect(model, current) : undefined,
      error: (err) => this.#notice(this.tr('widget.readError', { message: err.message })),
    };
  }

  /**
   * A refused config's reason in the widget's language: the engine's message in English, else the
   * table's words for its refusal's code (panels/engine-refusal.js).
   * @param {import('../wasm-api').CheckResult & {ok: false}} check
   */
  #checkError(check) {
    return refusalIn(this.settings.lang ?? 'en', { message: check.error, refusal: check.refusal });
  }

  #build() {
    const { view, controls } = this.settings;
    const tr = this.tr;
    this.ui = /** @type {WidgetUi} */ ({}); // filled below
    const ui = this.ui;
    const head = this.#head();
    ui.form = el('form', { class: 'controls ap-controls', 'aria-label': tr('widget.settings') });
    ui.configError = el('p', { class: 'config-error', role: 'alert', hidden: true });
    const fields = this.engine.props.filter((p) => controls.includes(p.key));
    const onChange = (/** @type {string} */ k, /** @type {Value} */ v) => this.set(k, v);
    this.controls = new Controls(ui.form, fields, this.engine.registry, onChange, undefined, this.settings.lang);
    this.controls.render(this.state);
    ui.form.hidden = fields.length === 0;

    this.panels = new WidgetPanels(view, () => this.model, this.settings.lang, this.settings.inspectLen);
    ui.engine = el('span', {});
    ui.params = el('span', {});
    this.box.replaceChildren(
      head,
      ui.form,
      ui.configError,
      this.panels.element,
      el('footer', { class: 'ap-foot' }, ui.engine, ui.params),
    );
    // Says when this model's worker crashed and was restarted (the model comes back by itself).
    this.unnotice = engineNotice(this.engine.pool, this.box, (model) => model === this.model, this.settings.lang);
    const e = this.engine.info;
    // the build that runs, by its variant (simd, scalar, threads)
    const kind = hasMessage(this.settings.lang ?? 'en', `widget.kind.${e.variant}`)
      ? tr(`widget.kind.${e.variant}`, { n: e.threads ?? 1 })
      : engineKind(e);
    ui.engine.textContent = tr('widget.trains', { kind });
  }

  // The header: title, Play / Step / Reset (those in `controls`), the counters.
  #head() {
    const { preset, controls } = this.settings;
    const { tr, ui } = this;
    const has = (/** @type {string} */ c) => controls.includes(c);
    const button = (/** @type {string} */ name, /** @type {() => void} */ onclick, cls = '') =>
      el('button', { type: 'button', class: cls, hidden: !has(name), onclick }, tr(`widget.${name}`));
    ui.play = button('play', () => (this.wantPlay || this.steps.busy ? this.pause() : this.play()), 'primary');
    ui.step = button('step', () => this.train());
    ui.reset = button('reset', () => this.reset());
    ui.stepCount = el('dd', { class: 'ap-step' }, '0');
    ui.loss = el('dd', { class: 'ap-loss' }, '–');
    ui.acc = el('dd', { class: 'ap-acc' }, '–');
    ui.subtitle = el('span', { class: 'muted' });
    const stat = (/** @type {string} */ key, /** @type {HTMLElement} */ dd) =>
      el('div', {}, el('dt', {}, tr(`widget.stat.${key}`)), dd);
    return el(
      'header',
      { class: 'ap-head' },
      el('div', { class: 'ap-title' }, el('div', {}, presetTitle(preset, tr, this.settings.lang ?? 'en')), ui.subtitle),
      el('div', { class: 'ap-transport' }, ui.play, ui.step, ui.reset),
      el(
        'dl',
        { class: 'ap-stats', 'aria-live': 'off' },
        stat('step', ui.stepCount),
        stat('loss', ui.loss),
        stat('accuracy', ui.acc),
      ),
    );
  }

  // The charts are made one per task (a uPlot chart lays out and draws when created), so that a
  // page of widgets starting together never blocks the main thread for long.
  /** @param {HTMLElement} body @param {number} height */
  async #charts(body, height) {
    const series = () => [
      { key: 'train', label: this.tr('widget.series.train'), color: TRAIN },
      { key: 'eval', label: 'eval', color: EVAL, points: true },
      { key: 'long', label: this.tr('widget.series.long'), color: LONG, points: true, dash: [4, 3] },
    ];
    const labels = evalLabels(this.state, this.tr);
    this.labels = JSON.stringify(labels);
    const chart = (/** @type {string} */ title, /** @type {[number, number]|undefined} */ yRange) => {
      const box = el('div', { class: 'ap-chart-body' });
      body.append(
        el(
          'figure',
          { class: 'ap-chart', style: 'margin:0' },
          el('figcaption', { class: 'ap-chart-title' }, title),
          box,
        ),
      );
      return new LightLineChart(box, {
        title,
        series: series().map((s) => ({ ...s, label: labels[s.key] ?? s.label })),
        height,
        yRange,
        xLabel: this.tr('widget.stat.step'),
        empty: this.tr('widget.chart.empty'),
      });
    };
    this.charts = [];
    /** @type {[string, [number, number]|undefined, 'loss'|'token_accuracy'][]} */
    const kinds = [
      [this.tr('widget.chart.loss'), undefined, 'loss'],
      [this.tr('widget.chart.accuracy'), [0, 1], 'token_accuracy'],
    ];
    for (const [title, range, metric] of kinds) {
      await nextTask();
      if (this.disposed) return;
      this.charts.push([chart(title, range), metric]);
    }
  }

  /** Check the config and build the model; throws with a readable message when it cannot train. */
  async init() {
    if (this.panels.chartBody) await this.#charts(this.panels.chartBody, this.settings.height);
    await this.panels.ready; // the panels' code (loaded per view: lazy-views.js)
    if (this.disposed) return;
    const state = this.state;
    const config = await this.#config();
    // A control changed while the config was being made: set() has built that newer model, which
    // this older config must not overtake.
    if (state === this.state) await this.run.apply(config);
    this.started = true;
  }

  /** @param {import('../wasm-api').SessionInfo} info */
  async #fresh(info) {
    const c = info.config;
    this.last = { step: info.step, loss: null, acc: null };
    // Reset and relabel only when needed (startup stays short).
    const labels = evalLabels(c, this.tr);
    const relabel = JSON.stringify(labels) !== this.labels;
    this.labels = JSON.stringify(labels);
    for (const [chart] of this.charts ?? []) {
      if (this.drawn) chart.reset();
      if (relabel) chart.setLabels(labels);
    }
    this.drawn = false;
    const pos = this.engine.registry.positions.find((p) => p.name === c.position);
    this.ui.subtitle.textContent = this.tr('widget.subtitle', {
      // in another language the task as the config writes it (an identifier: copy_back), the encoding by its name
      task: this.settings.lang === 'zh' ? String(c.task) : /** @type {string} */ (c.task).replaceAll('_', ' '),
      position:
        (this.settings.lang ?? 'en') === 'en'
          ? (pos?.title ?? String(c.position))
          : encodingName(String(c.position), this.tr, this.settings.lang ?? 'en'),
      normalization: String(c.normalization),
    });
    this.ui.params.textContent = this.tr('widget.parameters', { n: thousands(info.parameter_count) });
    this.panels.setModel(info);
    this.#stats();
    this.#enable(true);
    this.onEvent('model', { step: info.step, config: { ...c } });
  }

  /** @param {boolean} on */
  #enable(on) {
    for (const b of [this.ui.play, this.ui.step, this.ui.reset]) b.disabled = !on;
  }

  /**
   * Change one setting from a control: a new model.
   * @param {string} key
   * @param {Value} value
   */
  set(key, value) {
    if (this.state[key] === value) return;
    this.state = withValue(this.engine.props, this.engine.registry, this.state, key, value);
    this.controls.render(this.state);
    return this.#config()
      .then((config) => this.run.apply(config))
      .catch((err) => this.#notice(this.#failure(err)));
  }

  /** The config to train: the text task without a text of its own trains on the bundled corpus (fetched then, never before). */
  #config() {
    return withCorpus(toConfig(this.engine.props, this.state), () => loadCorpus(corpusBase()));
  }

  /**
   * A new model that could not be built (set()), in the widget's language (`widget.failed`): in
   * English with the reason as it comes; else the table's words for its code (the training text
   * not fetched, run/text-source.js, or the engine's: engine-notice.js reasonOf), never the
   * engine's English text. A reason already in the widget's language (`said`: views.checked's) stays.
   * @param {Error & {said?: boolean}} err
   */
  #failure(err) {
    const lang = this.settings.lang ?? 'en';
    const message = String(err?.message ?? err);
    if (err?.said) return message;
    return this.tr('widget.failed', { reason: lang === 'en' ? message : reasonOf(err, lang) });
  }

  /** @param {string|null} text */
  #notice(text) {
    this.ui.configError.hidden = !text;
    this.ui.configError.textContent = text ?? '';
  }

  // --- training -------------------------------------------------------------------------------

  /** Train (now if visible, else as soon as the widget is on screen). */
  play() {
    this.wantPlay = true;
    this.#label();
    if (this.visible) return this.#run();
  }

  /** Stop training, step(n) calls too (it stays stopped when the widget comes back on screen). */
  async pause() {
    this.wantPlay = false;
    this.steps.cancel(); // the waiting steps; the worker's pause halts the running one
    this.#label();
    await this.model?.pause();
  }

  #run() {
    const m = this.model;
    if (!m || m.playing) return;
    const steps = /** @type {number} */ (this.state.steps);
    this.#label(true);
    // past the end, Play continues without limit
    return this.run.play({ steps, every: Math.max(1, Math.ceil(steps / 500)) });
  }

  /**
   * n training steps (exactly n), then the inspection views: true once trained, false when a pause,
   * a reset or leaving the screen cancelled them; null when they do not fit in the queue
   * (step-queue.js: at most MAX_WAITING steps wait behind the running ones).
   * @param {number} [n]
   * @returns {Promise<boolean>|null}
   */
  train(n = 1) {
    const done = this.steps.add(n);
    this.#label();
    done?.finally(() => this.#label());
    return done;
  }

  /**
   * Train a new model for `state` (setConfig), in one round trip (RunController.propose: create
   * validates); when the engine refuses, nothing changes (the model, the views and the state stay)
   * and its verdict is returned.
   * @param {import('../state/properties.js').State} state
   * @returns {Promise<import('../wasm-api').CheckResult>}
   */
  async setState(state) {
    const config = await withCorpus(toConfig(this.engine.props, state), () => loadCorpus(corpusBase()));
    if (this.disposed) return { ok: true, config }; // gone: nothing to build (as before)
    const old = this.state;
    this.state = state; // what the views read while the new model arrives
    const check = await this.run.propose(config);
    if (!check.ok) this.state = old;
    else this.controls.render(state);
    return check;
  }

  /**
   * Pick a head in the attention panel (0-based; row optional), or none. Returns the error (the
   * field and its range) when the panel is not shown or the model has no such head or row.
   * @param {import('./api.js').Highlight} sel
   * @returns {import('./api.js').ApiError|null}
   */
  highlight(sel) {
    if (!this.attention)
      return {
        field: 'highlight',
        message: 'highlight needs the attention panel: add attention to the view attribute (view="chart,attention").',
      };
    const c = this.model?.info.config ?? this.state;
    const rows = this.attention.last?.tokens.length ?? /** @type {number} */ (c.seq_len);
    /** @type {[string, number][]} */
    const limits = [
      ['layer', /** @type {number} */ (c.layers)],
      ['head', /** @type {number} */ (c.heads)],
      ['row', rows],
    ];
    for (const [field, n] of limits) {
      const v = sel?.[/** @type {'layer'|'head'|'row'} */ (field)];
      if (typeof v === 'number' && v >= n)
        return {
          field,
          message: `${field}=${v}: this model has ${n} ${field}s, 0 to ${n - 1}.`,
          allowed: [`0…${n - 1}`],
        };
    }
    this.attention.highlight(sel);
    return null;
  }

  /** The latest metrics, as the element's `step` event gives them. */
  #metrics() {
    const { step, loss, trainAcc, acc } = this.last;
    const evalAccuracy = this.last.evalAcc ?? null;
    return {
      step,
      loss,
      trainAccuracy: trainAcc ?? null,
      evalAccuracy,
      longAccuracy: this.last.longAcc ?? null,
      accuracy: acc,
    };
  }

  reset() {
    this.steps.cancel(); // the worker's reset halts the running step(n)
    return this.run.reset(); // then `ready` plays on when wanted
  }

  /** On or off screen (or tab hidden): training pauses off screen and resumes on screen. @param {boolean} on */
  setVisible(on) {
    if (this.visible === on) return;
    this.visible = on;
    if (!on && this.steps.busy) this.steps.cancel(); // step(n) calls are dropped, not resumed
    if (!on && (this.model?.playing || this.steps.running)) {
      const pausing = Promise.resolve(this.model?.pause())
        .catch(() => {}) // a model gone meanwhile: nothing to resume
        .finally(() => this.pausing === pausing && (this.pausing = null));
      this.pausing = pausing;
    }
    // Back on screen while that pause is still on its way to the worker (the model still reads as
    // playing, so #run would do nothing): play once the worker has stopped.
    if (on && this.wantPlay && !this.pausing) this.#run();
    else if (on && this.wantPlay) this.pausing?.then(() => this.visible && this.wantPlay && this.#run());
  }

  /** @param {boolean} [playing] */
  #label(playing = this.model?.playing) {
    this.ui.play.textContent = this.tr(this.wantPlay || playing || this.steps?.busy ? 'widget.pause' : 'widget.play');
  }

  // Draw what arrived since the last flush (the charts themselves redraw once per frame at most).
  /** @param {import('../run/run-controller.js').MetricsBatch} batch */
  #draw({ steps, evals }) {
    this.drawn = true;
    const seqLen = this.model?.info.config.seq_len;
    for (const [chart, metric] of this.charts ?? []) {
      for (const s of steps) chart.addDataPoint(s.step, { train: s[metric] });
      for (const e of evals) chart.addDataPoint(e.step, { [e.length === seqLen ? 'eval' : 'long']: e[metric] });
    }
    const s = steps[steps.length - 1];
    if (s) Object.assign(this.last, { step: s.step, loss: s.loss, acc: s.token_accuracy, trainAcc: s.token_accuracy });
    const e = evals.filter((x) => x.length === seqLen).pop();
    if (e) this.last.acc = this.last.evalAcc = e.token_accuracy;
    const long = evals.filter((x) => x.length !== seqLen).pop();
    if (long) this.last.longAcc = long.token_accuracy;
    this.#stats();
    this.onEvent('metrics', this.#metrics());
  }

  // Text written only when it changes: each write dirties the page's layout.
  #stats() {
    const set = (/** @type {HTMLElement} */ node, /** @type {string} */ text) =>
      node.textContent !== text && (node.textContent = text);
    set(this.ui.stepCount, String(this.last.step));
    set(this.ui.loss, this.last.loss == null ? '–' : fmt(this.last.loss));
    set(this.ui.acc, this.last.acc == null ? '–' : `${Math.round(100 * this.last.acc)}%`);
  }

  /** Redraw the inspection panels (one request at a time; calls during one are merged). */
  refresh() {
    return this.run.refresh();
  }

  /** Redraw the canvases with the current theme's colours. */
  restyle() {
    styleChanged(); // heatmaps read their colours again
    for (const [chart] of this.charts ?? []) chart.restyle();
    if (this.attention?.last) this.attention.update(this.attention.last);
    this.refresh();
  }

  async dispose() {
    this.disposed = true;
    for (const [chart] of this.charts ?? []) chart.destroy();
    this.unnotice?.();
    this.panels.dispose();
    await this.run.dispose();
  }
}
