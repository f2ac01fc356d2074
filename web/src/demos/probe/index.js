// Probe demo: n identical tokens in, each position must output its own index (Su's probe). A grid
// of small models, position encodings × attention normalizations, trains in parallel on the
// worker pool. Each cell: a live accuracy sparkline, the final held-out accuracy, the spread
// max_i‖h_i − h_0‖∞ of the final hidden states (exactly 0 where Lemma 1 holds) and the mirror gap
// max_i‖h_i − h_{n−1−i}‖∞ (0 under Lemma 2), coloured by outcome (cells.js). Toggles: anchors,
// causal. This file owns the grid's models and the wiring; view.js builds the DOM.
// mount(root, {pool, registry, compact, autoplay, config}) → {start, pause, dispose, ready}.
import { injectStyles, modelOverrides, listOption, boolOption, numOption, Disposer } from '../common.js';
import { demoLists } from '../lists.js';
import { RunController } from '../../run/run-controller.js';
import { buildDom, ANCHORS } from './view.js';
import { spreads, outcomeOf, drawCell as draw } from './cells.js';

/** @typedef {import('./cells.js').Cell} Cell */

/**
 * Mount the probe grid into `root`.
 * @param {HTMLElement|ShadowRoot} root
 * @param {{pool?: import('../../client/pool.js').WorkerPool, compact?: boolean, autoplay?: boolean,
 *   registry?: import('../../wasm-api').Registry, config?: Record<string, any>}} options pool is required; registry: the
 *   engine's (the default rows and columns, demos/lists.js); config: steps (default 600), anchors, causal,
 *   positions / normalizations (lists or comma-separated), seed, d_model, heads, layers, batch, lr
 * @returns {{start(): Promise<void>, pause(): Promise<void>, dispose(): Promise<void>, ready: Promise<void>,
 *   root: HTMLElement, results(): object[]}}
 */
export function mount(root, options = {}) {
  const { pool, registry, compact = false, autoplay = false, config: cfg = {} } = options;
  if (!pool) throw new Error('probe demo: options.pool (a WorkerPool) is required');
  const steps = numOption(cfg.steps, 600);
  const lists = demoLists(registry);
  const positions = listOption(cfg.positions, lists.probePositions);
  const norms = listOption(cfg.normalizations, lists.probeNormalizations);
  const base = { task: 'probe', d_model: 32, heads: 4, layers: 2, seq_len: 8, batch: 16, seed: 1, steps, eval_every: Math.max(steps, 1), ...modelOverrides(cfg) };
  const n = base.seq_len;
  const bag = new Disposer();
  const style = injectStyles(root);
  /** @type {{anchors: string, causal: boolean, cells: Cell[], playing: boolean, disposed: boolean, token: number}} */
  const s = {
    anchors: ANCHORS.some(([k]) => k === cfg.anchors) ? cfg.anchors : 'none',
    causal: boolOption(cfg.causal, false),
    cells: [], // {pos, norm, td, run, model, accs, final, spread, mirror, state}
    playing: false,
    disposed: false,
    token: 0,
  };
  const ui = buildDom(compact, positions, norms, n);
  root.append(ui.box);
  ui.anchors.value = s.anchors;
  ui.causal.checked = s.causal;

  /** @param {string} pos @param {string} norm */
  function config(pos, norm) {
    return { ...base, position: pos, normalization: norm, anchors: s.anchors, causal: s.causal };
  }

  const drawCell = (/** @type {Cell} */ c) => draw(c, { n, compact });

  function progress() {
    const done = s.cells.filter((c) => c.state === 'done' || c.state === 'invalid').length;
    const minStep = Math.min(...s.cells.filter((c) => c.state === 'training' || c.state === 'idle').map((c) => c.step ?? 0));
    ui.progress.textContent = `${done} of ${s.cells.length} models done${Number.isFinite(minStep) ? ` · slowest at step ${minStep} of ${steps}` : ''}`;
    ui.box.dataset.done = String(done);
    ui.box.dataset.complete = String(done === s.cells.length && s.cells.length > 0);
  }

  /** @param {Cell} c */
  async function finish(c) {
    if (c.finishing || !c.model) return;
    c.finishing = true;
    try {
      const [ev, snap] = await Promise.all([c.model.evaluate(0), c.model.snapshot({ attention: { example: 0 } })]);
      Object.assign(c, spreads(snap.attention.hidden, s.anchors));
      c.final = ev.token_accuracy;
      c.step = snap.step;
      c.state = 'done';
      Object.assign(c, outcomeOf(/** @type {Cell & {spread: number, mirror: number, final: number}} */ (c), n));
    } catch (err) {
      if (s.disposed || c.model?.disposed) return;
      c.state = 'invalid';
      c.outcome = 'invalid';
      c.error = /** @type {Error} */ (err).message;
      c.verdict = 'error';
    } finally {
      c.finishing = false;
    }
    drawCell(c);
    progress();
    if (s.cells.every((x) => x.state === 'done' || x.state === 'invalid')) {
      s.playing = false;
      showPlaying();
    }
  }

  async function buildGrid() {
    const token = ++s.token;
    const old = s.cells;
    s.cells = [];
    await Promise.all(old.map((c) => c.run?.dispose()));
    for (const td of ui.tds) {
      /** @type {Cell} */
      const c = { pos: /** @type {string} */ (td.dataset.pos), norm: /** @type {string} */ (td.dataset.norm), td, accs: [], state: 'idle', step: 0 };
      s.cells.push(c);
      drawCell(c);
    }
    progress();
    await Promise.all(s.cells.map(async (c) => {
      try {
        // One run controller per cell (run/run-controller.js): its model, its events.
        const run = new RunController(/** @type {import('../../client/pool.js').WorkerPool} */ (pool), { // (checked above)
          metrics: ({ steps: batch, step }) => {
            for (const st of batch) c.accs.push(st.token_accuracy);
            if (c.accs.length > 120) c.accs = c.accs.filter((_, i) => i % 2 === 0);
            c.step = step;
            drawCell(c);
          },
          state: ({ playing, step, reason }) => {
            if (!playing && step >= steps) finish(c);
            else if (!playing && !['paused', 'reset', 'play'].includes(reason)) {
              c.state = 'invalid';
              c.outcome = 'invalid';
              c.error = reason;
              c.verdict = 'stopped';
              drawCell(c);
            }
          },
        });
        c.run = run;
        if ((await run.apply(config(c.pos, c.norm), { check: false })) !== 'ready') return;
        if (token !== s.token || s.disposed) return run.dispose();
        c.model = run.model;
      } catch (err) {
        c.state = 'invalid';
        c.outcome = 'invalid';
        c.error = /** @type {Error} */ (err).message;
        c.verdict = 'cannot build';
        drawCell(c);
      }
    }));
    progress();
  }

  function showPlaying() {
    ui.play.textContent = s.playing ? 'Pause' : 'Train';
    ui.box.dataset.playing = String(s.playing);
  }

  async function start() {
    await ready;
    if (s.disposed) return;
    s.playing = true;
    showPlaying();
    const live = s.cells.filter((c) => c.model && c.state !== 'invalid' && c.state !== 'done');
    for (const c of live) c.state = 'training';
    await Promise.all(live.map((c) => c.run?.play({ until: steps, every: 10 })));
    progress();
  }

  async function pause() {
    s.playing = false;
    showPlaying();
    await Promise.all(s.cells.filter((c) => c.model && c.state === 'training').map((c) => c.run?.pause()));
  }

  async function rebuild() {
    const wasPlaying = s.playing || autoplay;
    await pause();
    ready = buildGrid();
    await ready;
    if (wasPlaying) start();
  }

  ui.play.addEventListener('click', () => (s.playing ? pause() : start()));
  ui.restart.addEventListener('click', rebuild);
  ui.anchors.addEventListener('change', () => { s.anchors = ui.anchors.value; ui.box.dataset.anchors = s.anchors; rebuild(); });
  ui.causal.addEventListener('change', () => { s.causal = ui.causal.checked; ui.box.dataset.causal = String(s.causal); rebuild(); });
  bag.interval(progress, 1000);
  ui.box.dataset.anchors = s.anchors;
  ui.box.dataset.causal = String(s.causal);
  ui.box.dataset.steps = String(steps);

  let ready = buildGrid().then(() => { ui.box.dataset.ready = 'true'; });
  if (autoplay) ready.then(start);

  return {
    root: ui.box,
    get ready() {
      return ready;
    },
    start,
    pause,
    /** Per cell: {position, normalization, state, accuracy, spread, mirror, outcome}. */
    results: () => s.cells.map((c) => ({ position: c.pos, normalization: c.norm, state: c.state, accuracy: c.final, spread: c.spread, mirror: c.mirror, outcome: c.outcome, error: c.error })),
    async dispose() {
      s.disposed = true;
      s.token++;
      bag.run();
      await Promise.all(s.cells.map((c) => c.run?.dispose()));
      ui.box.remove();
      style.remove();
    },
  };
}
