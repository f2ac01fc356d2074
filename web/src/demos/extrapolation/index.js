// Extrapolation demo: each chosen position encoding trains at length L on copy_back (y_t = x_{t−k})
// and on a second task of the reader's choice, then is evaluated at lengths L … 4L. One chart of
// accuracy and one of loss against evaluation length per task, one curve per encoding. Learned
// positions cannot be evaluated past their table: their curve ends at L, with the engine's reason.
// RoPE can be evaluated with PI / NTK-aware / YaRN scaling (Session.loadWith through
// Session.derive, factor s = ℓ/L); the table beside shows the scaled frequencies the engine reports.
// This file owns the runs (ExtrapolationDemo: one run set, run/run-set.js, one model per task,
// encoding and seed), their evaluation and the wiring;
// view.js builds the DOM, results.js draws the curves, rope-table.js the RoPE table.
// mount(root, {pool, registry, LineChart, compact, autoplay, config}) → {start, pause, dispose, ready}.
import { demoHandle, requireOptions, el, injectStyles, Disposer, colorOf, completion } from '../common.js';
import { readDemoOptions, modelOverrides } from '../options.js';
import { demoLists } from '../lists.js';
import { RunSet } from '../../run/run-set.js';
import { buildDom, SCALINGS, taskTitle } from './view.js';
import { translator } from '../../common/messages.js';
import { drawResults, curvesOf } from './results.js';
import { seedList, DEFAULT_SEEDS } from '../seeds.js';
import { ropeTable } from './rope-table.js';

const MULTIPLES = [1, 1.5, 2, 3, 4];

/** @typedef {import('../../client/session.js').EngineSession} Session */
/** @typedef {{accuracy: number, loss: number}} Point a model evaluated at one length */
/**
 * One model (task, encoding, seed): its run (run-set.js), training progress and evaluation by length.
 * @typedef {{task: string, pos: string, seed: number, key: string, model: Session|null, step: number, loss: number|null,
 *   state: string, points: Map<number, Point|null>, scaled: Record<string, Map<number, Point|null|undefined>>,
 *   run: import('../../run/run-set.js').SetRun, error?: string, refusedAt?: number, evaluating?: boolean}} Run
 */
/**
 * @typedef {{encodings: string[], tasks: string[], scaling: Set<string>, factor: number, runs: Map<string, Run>,
 *   playing: boolean, disposed: boolean, refusal: string|null, seeds: number[], lang: import('../../common/messages.js').Lang,
 *   tr: ReturnType<typeof translator>}} ExtrapolationState lang, tr: its language and words
 */

/**
 * Mount the extrapolation demo into `root`.
 * @param {HTMLElement|ShadowRoot} root
 * @param {{pool?: import('../../client/pool.js').WorkerPool, registry?: import('../../wasm-api').Registry,
 *   compact?: boolean, autoplay?: boolean, config?: Record<string, any>, onDone?: () => void,
 *   LineChart?: import('../../charts/line-chart-base.js').LineChartClass, lang?: import('../../common/messages.js').Lang}} options pool and LineChart are required;
 *   registry: the engine's (the encodings offered, demos/lists.js); LineChart: the chart class (the pages' uPlot LineChart or the widget's LightLineChart); config: steps (default 800), seq_len (L, default 16),
 *   encodings (list), task2, scaling (list of pi, ntk, yarn shown at start), copy_back_k, seed (the first), seeds (how many, default 3),
 *   d_model, heads, layers, batch, lr
 * @returns {{start(): Promise<void>, pause(): Promise<void>, dispose(): Promise<void>, ready: Promise<void>,
 *   root: HTMLElement, results(): object, refusals: import('../../state/fields.js').FieldRefusal[]}}
 */
export function mount(root, options = {}) {
  return demoHandle(new ExtrapolationDemo(root, options));
}

/**
 * The demo's state from its options: what it trains, and its language.
 * @param {Record<string, any>} cfg the read options (options.js) @param {ReturnType<typeof demoLists>} lists
 * @param {import('../../common/messages.js').Lang} lang
 * @returns {ExtrapolationState}
 */
function initialState(cfg, lists, lang) {
  return {
    encodings: /** @type {string[]} */ (cfg.position ?? lists.extrapolationDefault).filter((e) =>
      lists.extrapolation.includes(e),
    ),
    tasks: ['copy_back', cfg.task2 ?? 'copy_first'],
    scaling: new Set(/** @type {string[]} */ (cfg.rope_scaling ?? []).filter((x) => SCALINGS.includes(x))),
    factor: cfg.rope_factor ?? 2,
    runs: new Map(), // `${task}|${pos}|${seed}` -> run
    playing: false,
    disposed: false,
    refusal: null, // the engine's message for learned past L
    seeds: seedList(cfg.seed ?? 1, cfg.seeds ?? DEFAULT_SEEDS),
    lang,
    tr: translator(lang), // its words (the table's widget and extrapolation parts, loaded before mount)
  };
}

/** The extrapolation demo: its options, its runs (one run set), its views. */
export class ExtrapolationDemo {
  /**
   * @param {HTMLElement|ShadowRoot} root
   * @param {NonNullable<Parameters<typeof mount>[1]>} options
   */
  constructor(root, options) {
    const { registry, compact = false, autoplay = false, lang = 'en' } = options;
    const { values: cfg, refusals } = readDemoOptions('extrapolation', registry, options.config ?? {});
    /** the options that were refused (each named, with what is allowed): the demo took its defaults */
    this.refusals = refusals;
    const { pool, LineChart } = requireOptions('extrapolation', options);
    this.complete = completion(options.onDone); // every model trained (or failed) and evaluated
    const lists = demoLists(registry);
    this.autoplay = autoplay;
    this.steps = /** @type {number} */ (cfg.steps ?? 800);
    const L = (this.L = /** @type {number} */ (cfg.seq_len ?? 16));
    this.lengths = [...new Set(MULTIPLES.map((m) => Math.round(m * L)))];
    this.k = /** @type {number} */ (cfg.copy_back_k ?? 2);
    this.base = {
      causal: true,
      d_model: 32,
      heads: 4,
      layers: 2,
      seed: 1,
      ...modelOverrides(cfg),
      seq_len: L,
      steps: this.steps,
      eval_every: Math.max(this.steps, 1),
    };
    /** @type {ExtrapolationState} what the views read (results.js, rope-table.js) */
    this.s = initialState(cfg, lists, lang);
    // Twice as many runs train at once as the pool has workers, in the order sync() adds them.
    this.set = new RunSet(pool, {
      turns: 2 * (pool.size ?? 2),
      hooks: {
        metrics: (r, b) => this.#metrics(r.data, b),
        status: (r) => this.#status(r.data),
        draw: () => this.showStatus(),
      },
    });
    this.set.goal = { until: this.steps, every: 25 };
    this.bag = new Disposer();
    this.style = injectStyles(root);
    this.ui = buildDom(LineChart, compact, this.s, L, this.k, this.lengths, lists.extrapolation);
    root.append(this.ui.box);
    this.table = ropeTable({
      pool,
      config: { ...this.base, ...this.taskConfig('copy_back'), task: 'copy_back', position: 'rope', steps: 1 },
      ui: this.ui,
      s: this.s,
      L,
    });
    this.#wire();
    this.ready = Promise.all([this.sync(), this.table.draw()]).then(() => {
      this.ui.box.dataset.ready = 'true';
    });
    this.ready.catch((err) => {
      this.ui.error.hidden = false;
      this.ui.error.textContent = err.message;
    });
    if (autoplay) this.ready.then(() => this.start());
  }

  /** @param {string} task @returns {import('../../wasm-api').Config} */
  taskConfig(task) {
    return task === 'copy_back' ? { copy_back_k: this.k } : {};
  }

  /** @param {string} task @param {string} pos @param {number} seed @returns {Run} */
  newRun(task, pos, seed) {
    // A Run once its `run` is set, just below.
    const run = /** @type {Run} */ ({
      task,
      pos,
      seed,
      key: `${task}|${pos}|${seed}`,
      model: null,
      step: 0,
      loss: null,
      state: 'building',
      points: new Map(),
      scaled: {},
    });
    run.run = this.set.add(
      { ...this.base, ...this.taskConfig(task), task, position: pos, seed },
      { key: run.key, data: run },
    );
    return run;
  }

  /** @param {Run} run @param {import('../../run/run-controller.js').MetricsBatch} batch */
  #metrics(run, { steps: batch, step }) {
    run.step = step;
    const last = batch[batch.length - 1];
    if (last) run.loss = last.loss;
  }

  /** A run's status (run-set.js): built, training, trained (then evaluated), stopped or refused. @param {Run} run */
  #status(run) {
    const st = run.run.status;
    if (st === 'idle' && run.state === 'building') ((run.model = run.run.ctl.model), (run.state = 'idle'));
    else if (st === 'learning') run.state = 'training';
    else if (st === 'done') this.evaluateRun(run);
    else if (st === 'stalled' || st === 'refused') ((run.state = 'error'), (run.error = run.run.error));
    this.showStatus();
  }

  /** Evaluate a trained run at every length (and RoPE with each scaling). @param {Run} run */
  async evaluateRun(run) {
    if (run.evaluating || !run.model) return;
    run.evaluating = true;
    run.state = 'evaluating';
    this.showStatus();
    try {
      for (const len of this.lengths) await this.#evaluateAt(run, len);
      if (run.pos === 'rope') for (const method of SCALINGS) run.scaled[method] = await this.#scaled(run, method);
      run.state = 'done';
    } catch (err) {
      if (this.s.disposed) return;
      run.state = 'error';
      run.error = /** @type {Error} */ (err).message;
    } finally {
      run.evaluating = false;
    }
    this.drawCharts();
    this.showStatus();
  }

  /** @param {Run} run @param {number} len */
  async #evaluateAt(run, len) {
    try {
      const ev = await /** @type {Session} */ (run.model).evaluate(len);
      run.points.set(len, { accuracy: ev.token_accuracy, loss: ev.loss });
    } catch (err) {
      run.points.set(len, null);
      run.refusedAt ??= len;
      if (run.pos === 'learned' && run.refusedAt === len) this.s.refusal = /** @type {Error} */ (err).message;
    }
  }

  /** RoPE evaluated past L with a scaling (factor ℓ/L). @param {Run} run @param {string} method */
  async #scaled(run, method) {
    const { L } = this;
    const pts = new Map([[L, run.points.get(L)]]);
    for (const len of this.lengths.filter((x) => x > L)) {
      const d = await /** @type {Session} */ (run.model).derive({ rope_scaling: method, rope_factor: len / L });
      try {
        const ev = await d.evaluate(len);
        pts.set(len, { accuracy: ev.token_accuracy, loss: ev.loss });
      } finally {
        d.dispose();
      }
    }
    return pts;
  }

  /** The runs for the chosen tasks, encodings and seeds: the others removed, the missing ones added. */
  sync() {
    const { s } = this;
    const want = new Set();
    // One seed of every curve first, then the next seed (the set trains them in turns, in this
    // order): every curve is drawn after about a third of the demo's time, not at its end.
    for (const seed of s.seeds)
      for (const task of s.tasks) for (const pos of s.encodings) want.add(`${task}|${pos}|${seed}`);
    for (const [key, run] of s.runs)
      if (!want.has(key)) {
        s.runs.delete(key);
        this.set.remove(run.run);
      }
    for (const key of want)
      if (!s.runs.has(key)) {
        const [task, pos, seed] = key.split('|');
        s.runs.set(key, this.newRun(task, pos, Number(seed)));
      }
    for (const block of this.ui.blocks)
      block.title.replaceChildren(...taskTitle(block.index === 0 ? 'copy_back' : s.tasks[1], this.k, s.tr));
    this.drawCharts();
    this.showStatus();
    return this.set.built();
  }

  drawCharts() {
    drawResults(this.ui, this.s, { lengths: this.lengths, L: this.L });
  }

  /** One line per (encoding, task): its seeds' state, the slowest seed's step. */
  showStatus() {
    const { ui, s } = this;
    const runs = [...s.runs.values()];
    const done = runs.filter((r) => r.state === 'done' || r.state === 'error').length;
    /** @type {Map<string, Run[]>} */
    const groups = new Map();
    for (const r of runs) groups.set(`${r.task}|${r.pos}`, [...(groups.get(`${r.task}|${r.pos}`) ?? []), r]);
    ui.status.replaceChildren(...[...groups.values()].map((g) => this.#statusLine(g)));
    ui.progress.textContent = s.tr('ext.progress', { done, n: runs.length });
    ui.box.dataset.complete = String(runs.length > 0 && done === runs.length);
    this.complete(runs.length > 0 && done === runs.length);
    if (done === runs.length && s.playing) {
      s.playing = false;
      this.showPlaying();
    }
  }

  /** A (task, encoding)'s state in words. @param {Run} r its slowest seed @param {Run[]} g @param {boolean} allDone */
  #stateWords(r, g, allDone) {
    const { tr } = this.s;
    if (r.state === 'error') return tr('ext.status.error', { error: String(r.error) });
    if (allDone) return tr('ext.status.evaluated');
    if (g.some((x) => x.state === 'evaluating')) return tr('ext.status.evaluating');
    const loss = r.loss == null ? '' : tr('ext.status.loss', { loss: r.loss.toFixed(3) });
    return tr('ext.status.step', { step: r.step, steps: this.steps }) + loss;
  }

  /** @param {Run[]} g the seeds of one (task, encoding) */
  #statusLine(g) {
    const { tr } = this.s;
    const r = g.find((x) => x.state === 'error') ?? g.reduce((a, b) => (b.step < a.step ? b : a));
    const allDone = g.every((x) => x.state === 'done');
    const state = allDone ? 'done' : r.state;
    return el(
      'li',
      { dataset: { key: `${r.task}|${r.pos}`, state } },
      el('span', { class: 'apd-swatch', style: { background: colorOf(r.pos) } }),
      tr('ext.status.line', { pos: r.pos, task: r.task, n: g.length, state: this.#stateWords(r, g, allDone) }),
    );
  }

  showPlaying() {
    this.ui.play.textContent = this.s.tr(this.s.playing ? 'ext.pause' : 'ext.train');
    this.ui.box.dataset.playing = String(this.s.playing);
  }

  async start() {
    await this.ready;
    if (this.s.disposed) return;
    this.s.playing = true;
    this.showPlaying();
    await this.set.play({ until: this.steps, every: 25 });
  }

  async pause() {
    this.s.playing = false;
    this.showPlaying();
    await this.set.pause();
  }

  #wire() {
    const { ui, s } = this;
    for (const box of ui.encodingBoxes)
      box.addEventListener('change', async () => {
        s.encodings = ui.encodingBoxes.filter((b) => b.checked).map((b) => b.value);
        await this.sync();
        if (s.playing) this.start();
      });
    ui.task2.addEventListener('change', async () => {
      s.tasks[1] = ui.task2.value;
      await this.sync();
      if (s.playing || this.autoplay) this.start();
    });
    for (const box of ui.scalingBoxes)
      box.addEventListener('change', () => {
        if (box.checked) s.scaling.add(box.value);
        else s.scaling.delete(box.value);
        this.drawCharts();
      });
    ui.factor.addEventListener('change', () => {
      s.factor = Number(ui.factor.value);
      this.table.draw();
    });
    ui.play.addEventListener('click', () => (s.playing ? this.pause() : this.start()));
    this.bag.interval(() => this.showStatus(), 1000);
  }

  results() {
    const { s } = this;
    /** @type {Record<string, Record<string, Record<number, object|null>>>} */
    const out = {};
    for (const task of s.tasks) {
      out[task] = {};
      for (const [key, pts] of curvesOf(s, task))
        out[task][key] = Object.fromEntries(
          [...pts.entries()].map(([len, p]) => [
            len,
            p && {
              accuracy: p.acc.mean,
              accMin: p.acc.min,
              accMax: p.acc.max,
              loss: p.loss.mean,
              lossMin: p.loss.min,
              lossMax: p.loss.max,
              n: p.acc.n,
            },
          ]),
        );
    }
    return out;
  }

  async dispose() {
    this.s.disposed = true;
    this.bag.run();
    await this.set.dispose();
    await this.table.dispose();
    for (const b of this.ui.blocks) (b.acc.destroy(), b.loss.destroy());
    this.ui.box.remove();
    this.style.remove();
  }
}
