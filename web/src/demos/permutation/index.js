// Permutation demo: without a position encoding (and without the causal mask) an encoder is
// permutation-equivariant, f(πX) = πf(X), and mean pooling makes its answer order-blind. The
// reader edits and reorders a sequence (editor.js); the page runs the model on X and on πX and
// shows both final hidden states side by side with their largest difference, and the pooled
// prediction for both (check.js). Below, position = none and an encoding train on `order` (does A
// come before B?) on several seeds, each until it has learned the task or its budget runs out (pair.js).
// This file reads the options and wires the parts; view.js builds the DOM.
// mount(root, {pool, registry, LineChart, compact, autoplay, config}) → {start, pause, dispose, ready}.
import { injectStyles, modelOverrides, numOption, boolOption, Disposer } from '../common.js';
import { demoLists } from '../lists.js';
import { buildDom } from './view.js';
import { sequenceEditor } from './editor.js';
import { equivarianceCheck } from './check.js';
import { trainingPair } from './pair.js';
import { seedList, DEFAULT_SEEDS } from '../seeds.js';

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
 *   ui: import('./view.js').PermutationUi, s: PermutationState}} PermutationContext
 */

/**
 * Mount the permutation demo into `root`.
 * @param {HTMLElement|ShadowRoot} root
 * @param {{pool?: import('../../client/pool.js').WorkerPool, registry?: import('../../wasm-api').Registry,
 *   LineChart?: import('../../charts/line-chart-base.js').LineChartClass, compact?: boolean,
 *   autoplay?: boolean, config?: Record<string, any>}} options pool and LineChart are required; registry: the engine's (the
 *   encodings offered, demos/lists.js); LineChart: the pages' uPlot chart or the widget's light
 *   one; config: steps (the budget, default 3000), seeds (how many, default 3), encoding (the second model's), seed (the first), d_model, heads, layers, batch, lr ...;
 *   check_position / check_causal (the model checked first)
 * @returns {{start(): Promise<void>, pause(): Promise<void>, dispose(): Promise<void>, ready: Promise<void>, root: HTMLElement, results(): object[]}}
 */
export function mount(root, options = {}) {
  const { pool, registry, compact = false, autoplay = false, config: cfg = {}, LineChart } = options;
  if (!pool) throw new Error('permutation demo: options.pool (a WorkerPool) is required');
  if (!LineChart) throw new Error('permutation demo: options.LineChart (a line chart class of web/src/charts/) is required');
  const encodings = demoLists(registry).permutation;
  // The budget: RoPE, Shaw, URPE and FIRE learn `order` within it on seeds 1–3 at this lr (docs/demos.md).
  const steps = numOption(cfg.steps, 3000);
  const base = {
    task: 'order', position: 'none', causal: false, d_model: 32, heads: 4, layers: 2, seq_len: 8,
    batch: 32, seed: 1, lr: 0.001, eval_every: 25, steps, ...modelOverrides(cfg),
  };
  const seeds = seedList(base.seed, numOption(cfg.seeds, DEFAULT_SEEDS));
  const bag = new Disposer();
  const style = injectStyles(root);
  const ui = buildDom(LineChart, compact, encodings);
  root.append(ui.box);

  /** @type {PermutationState} */
  const s = {
    encoding: encodings.includes(cfg.encoding) ? cfg.encoding : 'learned',
    checkPosition: cfg.check_position ?? 'none',
    checkCausal: boolOption(cfg.check_causal, false),
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
  const ctx = { pool, base, steps, ui, s };
  const check = equivarianceCheck(ctx);
  const editor = sequenceEditor(ui, s, () => check.refresh());
  const pair = trainingPair(ctx, (playing) => playing || check.refresh());

  async function buildPair() {
    s.budget = steps;
    if (!(await pair.build())) return;
    if (s.vocab.length === 0) editor.start(/** @type {Session} */ (s.models.a).info.vocab, base.seq_len);
  }

  async function start() {
    await ready;
    if (!s.models.a || !s.models.b) return;
    await pair.play();
    pair.stateChanged();
  }

  async function pause() {
    await pair.pause();
    pair.stateChanged();
  }

  // --- wiring -----------------------------------------------------------------------------------
  ui.position.value = s.checkPosition;
  ui.causal.checked = s.checkCausal;
  ui.position.addEventListener('change', () => { s.checkPosition = ui.position.value; check.refresh(); });
  ui.causal.addEventListener('change', () => { s.checkCausal = ui.causal.checked; check.refresh(); });
  ui.encoding.value = s.encoding;
  ui.encoding.addEventListener('change', async () => {
    const wasPlaying = s.playing;
    s.encoding = ui.encoding.value;
    await buildPair();
    check.refresh();
    if (wasPlaying) start();
  });
  ui.play.addEventListener('click', () => (s.playing ? pause() : start()));
  ui.seed.value = String(seeds[0]);
  ui.seed.addEventListener('change', async () => {
    try {
      s.seeds = seedList(ui.seed.value.trim() === '' ? undefined : Number(ui.seed.value), s.seeds.length);
    } catch (err) {
      ui.seedError.hidden = false;
      ui.seedError.textContent = /** @type {Error} */ (err).message;
      return;
    }
    ui.seedError.hidden = true;
    await pause();
    await buildPair();
    check.refresh();
  });
  ui.reset.addEventListener('click', async () => {
    await pause();
    await buildPair();
    check.refresh();
  });
  bag.interval(() => check.tick(), 1200);

  const ready = (async () => {
    await buildPair();
    await check.refresh();
    ui.box.dataset.ready = 'true';
  })();
  ready.catch((err) => check.showError(err));
  if (autoplay) ready.then(start);

  return {
    root: ui.box,
    ready,
    start,
    pause,
    /** Per model of the training pair: position, seed, status (learned | budget | ...), steps, accuracy. */
    results: () => pair.results(),
    async dispose() {
      s.disposed = true;
      bag.run();
      await Promise.all([pair.dispose(), check.dispose()]);
      ui.acc.destroy();
      ui.loss.destroy();
      Object.values(ui.maps).forEach((h) => h.destroy());
      ui.box.remove();
      style.remove();
    },
  };
}
