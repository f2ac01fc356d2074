// Permutation demo: without a position encoding (and without the causal mask) an encoder is
// permutation-equivariant, f(πX) = πf(X), and mean pooling makes its answer order-blind. The
// reader edits and reorders a sequence (editor.js); the page runs the model on X and on πX and
// shows both final hidden states side by side with their largest difference, and the pooled
// prediction for both (check.js). Below, position = none and an encoding train on `order` (does A
// come before B?) on several seeds, each until it has learned the task or its budget runs out (pair.js).
// This file (PermutationDemo) reads the options and wires the parts; view.js builds the DOM.
// mount(root, {pool, registry, LineChart, compact, autoplay, config}) → {start, pause, dispose, ready}.
import { demoHandle, requireOptions, injectStyles, Disposer, completion } from '../common.js';
import { readDemoOptions, modelOverrides } from '../options.js';
import { demoLists } from '../lists.js';
import { buildDom } from './view.js';
import { SequenceEditor } from './editor.js';
import { EquivarianceCheck } from './check.js';
import { TrainingPair } from './pair.js';
import { seedList, DEFAULT_SEEDS } from '../seeds.js';
import { translator } from '../../common/messages.js';

/** @typedef {import('../../client/session.js').EngineSession} Session */
/**
 * What the parts share: the sequence X and π, the two trained models, the checked model's settings.
 * @typedef {{encoding: string, checkPosition: string, checkCausal: boolean, vocab: string[], x: number[],
 *   perm: number[], models: {a: Session|null, b: Session|null}, playing: boolean, disposed: boolean,
 *   seeds: number[], budget: number, extra: number}} PermutationState
 *   models: the first seed's pair (the check reuses them); budget: the steps a model may train
 *   (raised by "Train longer", by `extra`)
 */
/**
 * @typedef {{pool: import('../../client/pool.js').WorkerPool, base: import('../../wasm-api').Config, steps: number,
 *   ui: import('./view.js').PermutationUi, s: PermutationState, tr: import('./view.js').Tr,
 *   lang: import('../../common/messages.js').Lang, complete: (done: boolean) => void}} PermutationContext tr: its strings in its language;
 *   complete: told whether every model has finished (common.js completion)
 */

/**
 * Mount the permutation demo into `root`.
 * @param {HTMLElement|ShadowRoot} root
 * @param {{pool?: import('../../client/pool.js').WorkerPool, registry?: import('../../wasm-api').Registry,
 *   LineChart?: import('../../charts/line-chart-base.js').LineChartClass, compact?: boolean,
 *   autoplay?: boolean, config?: Record<string, any>, lang?: import('../../common/messages.js').Lang,
 *   onDone?: () => void}} options onDone: called when all its models have finished (their budget, or learned); pool and LineChart are required; registry: the engine's (the
 *   encodings offered, demos/lists.js); LineChart: the pages' uPlot chart or the widget's light
 *   one; config: steps (the budget, default 3000), seeds (how many, default 3), encoding (the second model's), seed (the first), d_model, heads, layers, batch, lr ...;
 *   check_position / check_causal (the model checked first)
 * @returns {{start(): Promise<void>, pause(): Promise<void>, dispose(): Promise<void>, ready: Promise<void>, root: HTMLElement, results(): object[],
 *   refusals: import('../../state/fields.js').FieldRefusal[]}}
 */
export function mount(root, options = {}) {
  return demoHandle(new PermutationDemo(root, options));
}

/** The demo's models: `order`, without positions on side a (the options may change any field). */
const BASE = {
  task: 'order',
  position: 'none',
  causal: false,
  d_model: 32,
  heads: 4,
  layers: 2,
  seq_len: 8,
  batch: 32,
  seed: 1,
  lr: 0.001,
  eval_every: 25,
};

/** The permutation demo: its options, the check, the editor and the training pair, and their wiring. */
export class PermutationDemo {
  /**
   * @param {HTMLElement|ShadowRoot} root
   * @param {NonNullable<Parameters<typeof mount>[1]>} options
   */
  constructor(root, options) {
    const { registry, compact = false, autoplay = false, lang = 'en' } = options;
    const tr = translator(lang);
    const { values: cfg, refusals } = readDemoOptions('permutation', registry, options.config ?? {});
    /** the options that were refused (each named, with what is allowed): the demo took its defaults */
    this.refusals = refusals;
    const { pool, LineChart } = requireOptions('permutation', options);
    const encodings = demoLists(registry).permutation;
    // The budget: RoPE, Shaw, URPE and FIRE learn `order` within it on seeds 1–3 at this lr (docs/demos.md).
    const steps = (this.steps = /** @type {number} */ (cfg.steps ?? 3000));
    this.base = { ...BASE, steps, ...modelOverrides(cfg) };
    const seeds = seedList(this.base.seed, cfg.seeds ?? DEFAULT_SEEDS);
    this.bag = new Disposer();
    this.style = injectStyles(root);
    this.ui = buildDom(LineChart, compact, encodings, tr);
    root.append(this.ui.box);
    /** @type {PermutationState} */
    this.s = {
      encoding: encodings.includes(String(cfg.position)) ? String(cfg.position) : 'learned',
      checkPosition: String(cfg.check_position ?? 'none'),
      checkCausal: /** @type {boolean} */ (cfg.check_causal ?? false),
      vocab: [],
      x: [], // token ids of X
      perm: [], // (πX)_i = X_{perm[i]}
      models: { a: null, b: null }, // the two trained models: none and the encoding
      playing: false,
      disposed: false,
      seeds,
      budget: steps,
      extra: Math.max(500, Math.round(steps / 2 / 25) * 25),
    };
    const ctx = {
      pool,
      base: this.base,
      steps,
      ui: this.ui,
      s: this.s,
      tr,
      lang,
      complete: completion(options.onDone),
    };
    this.check = new EquivarianceCheck(ctx);
    this.editor = new SequenceEditor(this.ui, this.s, () => this.check.refresh(), tr);
    this.pair = new TrainingPair(ctx, (playing) => playing || this.check.refresh());
    this.#wire(seeds);
    this.ready = (async () => {
      await this.buildPair();
      await this.check.refresh();
      this.ui.box.dataset.ready = 'true';
    })();
    this.ready.catch((err) => this.check.showError(err));
    if (autoplay) this.ready.then(() => this.start());
  }

  async buildPair() {
    const { s } = this;
    s.budget = this.steps;
    if (!(await this.pair.build())) return;
    if (s.vocab.length === 0) this.editor.start(/** @type {Session} */ (s.models.a).info.vocab, this.base.seq_len);
  }

  async start() {
    await this.ready;
    if (!this.s.models.a || !this.s.models.b) return;
    await this.pair.play();
    this.pair.stateChanged();
  }

  async pause() {
    await this.pair.pause();
    this.pair.stateChanged();
  }

  /** New models, then the check (the seed, the encoding or Reset changed). */
  async #rebuild() {
    await this.buildPair();
    this.check.refresh();
  }

  /** @param {number[]} seeds */
  #wire(seeds) {
    const { ui, s, check } = this;
    ui.position.value = s.checkPosition;
    ui.causal.checked = s.checkCausal;
    ui.position.addEventListener('change', () => {
      s.checkPosition = ui.position.value;
      check.refresh();
    });
    ui.causal.addEventListener('change', () => {
      s.checkCausal = ui.causal.checked;
      check.refresh();
    });
    ui.encoding.value = s.encoding;
    ui.encoding.addEventListener('change', async () => {
      const wasPlaying = s.playing;
      s.encoding = ui.encoding.value;
      await this.#rebuild();
      if (wasPlaying) this.start();
    });
    ui.play.addEventListener('click', () => (s.playing ? this.pause() : this.start()));
    ui.seed.value = String(seeds[0]);
    ui.seed.addEventListener('change', () => this.#seedChanged());
    ui.reset.addEventListener('click', async () => {
      await this.pause();
      await this.#rebuild();
    });
    this.bag.interval(() => check.tick(), 1200);
  }

  async #seedChanged() {
    const { ui, s } = this;
    try {
      s.seeds = seedList(ui.seed.value.trim() === '' ? undefined : Number(ui.seed.value), s.seeds.length);
    } catch (err) {
      ui.seedError.hidden = false;
      ui.seedError.textContent = /** @type {Error} */ (err).message;
      return;
    }
    ui.seedError.hidden = true;
    await this.pause();
    await this.#rebuild();
  }

  /** Per model of the training pair: position, seed, status (learned | budget | ...), steps, accuracy. */
  results() {
    return this.pair.results();
  }

  async dispose() {
    const { ui } = this;
    this.s.disposed = true;
    this.bag.run();
    await Promise.all([this.pair.dispose(), this.check.dispose()]);
    ui.acc.destroy();
    ui.loss.destroy();
    Object.values(ui.maps).forEach((h) => h.destroy());
    ui.box.remove();
    this.style.remove();
  }
}
