// Probe demo: n identical tokens in, each position must output its own index (Su's probe). A grid
// of small models, position encodings × attention normalizations, trains in parallel on the
// worker pool, each cell on several seeds. Each cell: a live accuracy sparkline, the final held-out
// accuracy (mean and min–max over the seeds), the spread
// max_i‖h_i − h_0‖∞ of the final hidden states (exactly 0 where Lemma 1 holds) and the mirror gap
// max_i‖h_i − h_{n−1−i}‖∞ (0 under Lemma 2), coloured by outcome (cells.js). Toggles: anchors,
// causal. This file owns the grid's models and the wiring; view.js builds the DOM.
// mount(root, {pool, registry, compact, autoplay, config}) → {start, pause, dispose, ready}.
import { injectStyles, modelOverrides, listOption, boolOption, numOption, Disposer } from '../common.js';
import { demoLists } from '../lists.js';
import { RunController } from '../../run/run-controller.js';
import { buildDom, ANCHORS } from './view.js';
import { spreads, outcomeOf, summarizeCell, drawCell as draw } from './cells.js';
import { summaryOf } from './summary.js';
import { probeFigure } from './figure.js';
import { figureMenu } from '../../panels/figure-menu.js';
import { seedList, seedWords, DEFAULT_SEEDS } from '../seeds.js';

/** @typedef {import('./cells.js').Cell} Cell */
/** @typedef {import('./cells.js').SeedRun} SeedRun */

/**
 * Mount the probe grid into `root`.
 * @param {HTMLElement|ShadowRoot} root
 * @param {{pool?: import('../../client/pool.js').WorkerPool, compact?: boolean, autoplay?: boolean,
 *   registry?: import('../../wasm-api').Registry, config?: Record<string, any>}} options pool is required; registry: the
 *   engine's (the default rows and columns, demos/lists.js); config: steps (default 600), seeds (models per
 *   cell, default 3), anchors, causal, positions / normalizations (lists or comma-separated), seed (the
 *   first), d_model, heads, layers, batch, lr
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
  const seeds = seedList(base.seed, numOption(cfg.seeds, DEFAULT_SEEDS));
  const n = base.seq_len;
  const bag = new Disposer();
  const style = injectStyles(root);
  /** @type {{anchors: string, causal: boolean, cells: Cell[], playing: boolean, disposed: boolean, token: number}} */
  const s = {
    anchors: ANCHORS.some(([k]) => k === cfg.anchors) ? cfg.anchors : 'none',
    causal: boolOption(cfg.causal, false),
    cells: [], // {pos, norm, td, runs: one per seed, state, acc, spread, mirror, outcome}
    playing: false,
    disposed: false,
    token: 0,
  };
  const ui = buildDom(compact, positions, norms, n, seeds, lists.rowSum);
  root.append(ui.box);
  ui.anchors.value = s.anchors;
  ui.causal.checked = s.causal;

  /** @param {string} pos @param {string} norm @param {number} seed */
  function config(pos, norm, seed) {
    return { ...base, seed, position: pos, normalization: norm, anchors: s.anchors, causal: s.causal };
  }

  const drawCell = (/** @type {Cell} */ c) => draw(c, { n, compact });
  const allRuns = () => s.cells.flatMap((c) => c.runs);
  const settled = (/** @type {{state: string}} */ r) => r.state === 'done' || r.state === 'invalid';

  function progress() {
    const runs = allRuns();
    const done = s.cells.filter(settled).length;
    const invalid = s.cells.filter((c) => c.state === 'invalid');
    const live = runs.filter((r) => r.state === 'training' || r.state === 'idle').map((r) => r.step ?? 0);
    const minStep = live.length ? Math.min(...live) : NaN;
    const trained = s.cells.filter((c) => c.state === 'done').length, buildable = s.cells.length - invalid.length;
    const built = s.cells.filter((c) => c.state !== 'invalid').flatMap((c) => c.runs);
    ui.progress.textContent = `${trained} of ${buildable} cells done (${built.filter((r) => r.state === 'done').length} of ${built.length} models, ${seedWords(seeds)})`
      + `${Number.isFinite(minStep) ? ` · slowest at step ${minStep} of ${steps}` : ''}`;
    // The cells marked n/a, and why, in words (a cell's tooltip says it too, but not on a phone).
    const why = new Map(); // reason -> cells
    for (const c of invalid) why.set(c.error ?? '', [...(why.get(c.error ?? '') ?? []), `${c.pos} × ${c.norm}`]);
    ui.invalid.hidden = !invalid.length;
    ui.invalid.textContent = [...why].map(([reason, cells]) => `n/a (${cells.length === 1 ? cells[0] : `${cells.length} cells`}): ${reason.replace(/^[a-z_]+: /, '')}.`).join(' ');
    ui.box.dataset.done = String(done);
    ui.box.dataset.complete = String(done === s.cells.length && s.cells.length > 0);
  }

  /** @param {Cell} c @param {SeedRun} r */
  async function finish(c, r) {
    if (r.finishing || !r.model) return;
    r.finishing = true;
    try {
      const [ev, snap] = await Promise.all([r.model.evaluate(0), r.model.inspect({ attention: { example: 0 } })]);
      Object.assign(r, spreads(snap.attention.hidden, s.anchors));
      r.final = ev.token_accuracy;
      r.step = snap.step;
      r.state = 'done';
      r.outcome = outcomeOf(/** @type {SeedRun & {spread: number, mirror: number, final: number}} */ (r));
    } catch (err) {
      if (s.disposed || r.model?.disposed) return;
      r.state = 'invalid';
      r.outcome = 'invalid';
      r.error = /** @type {Error} */ (err).message;
    } finally {
      r.finishing = false;
    }
    if (c.runs.every(settled)) summarizeCell(c, n);
    drawCell(c);
    progress();
    if (s.cells.every(settled)) {
      s.playing = false;
      showPlaying();
      showSummary();
    }
  }

  /** The measured grid in words (view.js): only once every cell is done. */
  function showSummary() {
    ui.summary.replaceChildren(...summaryOf(s.cells, { steps, seeds, anchors: s.anchors, causal: s.causal }));
  }

  /** @param {Cell} c @param {SeedRun} r @param {number} token */
  async function buildRun(c, r, token) {
    try {
      // One run controller per model (run/run-controller.js): its model, its events.
      const run = new RunController(/** @type {import('../../client/pool.js').WorkerPool} */ (pool), { // (checked above)
        metrics: ({ steps: batch, step }) => {
          for (const st of batch) r.accs.push(st.token_accuracy);
          if (r.accs.length > 120) r.accs = r.accs.filter((_, i) => i % 2 === 0);
          r.step = step;
          drawCell(c);
        },
        state: ({ playing, step, reason }) => {
          if (!playing && step >= steps) finish(c, r);
          else if (!playing && !['paused', 'reset', 'play'].includes(reason)) {
            r.state = 'invalid';
            r.error = reason;
            c.state = 'invalid';
            c.outcome = 'invalid';
            c.error = reason;
            c.verdict = 'stopped';
            drawCell(c);
          }
        },
      });
      r.run = run;
      if ((await run.apply(config(c.pos, c.norm, r.seed), { check: false })) !== 'ready') return;
      if (token !== s.token || s.disposed) return run.dispose();
      r.model = run.model;
    } catch (err) {
      r.state = 'invalid';
      r.error = /** @type {Error} */ (err).message;
      c.state = 'invalid';
      c.outcome = 'invalid';
      c.error = r.error;
      c.verdict = 'cannot build';
      drawCell(c);
    }
  }

  async function buildGrid() {
    const token = ++s.token;
    const old = s.cells;
    s.cells = [];
    ui.summary.replaceChildren();
    await Promise.all(old.flatMap((c) => c.runs.map((r) => r.run?.dispose())));
    for (const td of ui.tds) {
      /** @type {Cell} */
      const c = { pos: /** @type {string} */ (td.dataset.pos), norm: /** @type {string} */ (td.dataset.norm), td, state: 'idle',
        runs: seeds.map((seed) => ({ seed, accs: [], state: 'idle', step: 0 })) };
      s.cells.push(c);
      drawCell(c);
    }
    progress();
    await Promise.all(s.cells.flatMap((c) => c.runs.map((r) => buildRun(c, r, token))));
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
    const live = s.cells.flatMap((c) => c.runs.map((r) => ({ c, r }))).filter(({ r }) => r.model && !settled(r));
    for (const { c, r } of live) (r.state = 'training'), (c.state = c.state === 'invalid' ? c.state : 'training');
    await Promise.all(live.map(({ r }) => r.run?.play({ until: steps, every: 10 })));
    progress();
  }

  async function pause() {
    s.playing = false;
    showPlaying();
    await Promise.all(allRuns().filter((r) => r.model && r.state === 'training').map((r) => r.run?.pause()));
  }

  async function rebuild() {
    ui.box.dataset.complete = 'false'; // the old grid's results no longer stand (a script waiting for them must wait)
    const wasPlaying = s.playing || autoplay;
    await pause();
    ready = buildGrid();
    await ready;
    if (wasPlaying) start();
  }

  // The scroll cue: shades on the sides with more columns, and a sentence while the grid overflows.
  function scrollCue() {
    const w = ui.gridWrap;
    const over = w.scrollWidth > w.clientWidth + 1;
    ui.gridScroll.dataset.moreLeft = String(over && w.scrollLeft > 1);
    ui.gridScroll.dataset.moreRight = String(over && w.scrollLeft + w.clientWidth < w.scrollWidth - 1);
    ui.scrollHint.hidden = !over;
    ui.box.dataset.gridOverflows = String(over);
  }
  bag.listen(ui.gridWrap, 'scroll', scrollCue);
  const resize = new ResizeObserver(scrollCue);
  resize.observe(ui.gridWrap);
  bag.add(() => resize.disconnect());

  ui.play.addEventListener('click', () => (s.playing ? pause() : start()));
  ui.restart.addEventListener('click', rebuild);
  ui.anchors.addEventListener('change', () => { s.anchors = ui.anchors.value; ui.box.dataset.anchors = s.anchors; rebuild(); });
  ui.causal.addEventListener('change', () => { s.causal = ui.causal.checked; ui.box.dataset.causal = String(s.causal); rebuild(); });
  bag.interval(progress, 1000);
  ui.box.dataset.anchors = s.anchors;
  ui.box.dataset.causal = String(s.causal);
  ui.box.dataset.steps = String(steps);
  // Download ▾: the grid as a heatmap of accuracy (SVG, PNG), its numbers (JSON, CSV).
  ui.play.parentElement?.append(figureMenu(
    () => probeFigure(s.cells, { positions, norms, n, steps, seeds, anchors: s.anchors, causal: s.causal }),
    () => `attnplay-probe-grid-${s.anchors}${s.causal ? '-causal' : ''}`));

  let ready = buildGrid().then(() => { ui.box.dataset.ready = 'true'; });
  if (autoplay) ready.then(start);

  return {
    root: ui.box,
    get ready() {
      return ready;
    },
    start,
    pause,
    /**
     * Per cell: {position, normalization, state, accuracy (the mean over seeds), accMin, accMax,
     * spread and mirror (the largest over seeds), outcome, seeds: per seed {seed, accuracy, spread, mirror, outcome}}.
     */
    results: () => s.cells.map((c) => ({ position: c.pos, normalization: c.norm, state: c.state, accuracy: c.acc?.mean, accMin: c.acc?.min, accMax: c.acc?.max,
      spread: c.spread, mirror: c.mirror, outcome: c.outcome, error: c.error,
      seeds: c.runs.map((r) => ({ seed: r.seed, accuracy: r.final, spread: r.spread, mirror: r.mirror, scale: r.scale, outcome: r.outcome })) })),
    async dispose() {
      s.disposed = true;
      s.token++;
      bag.run();
      await Promise.all(allRuns().map((r) => r.run?.dispose()));
      ui.box.remove();
      style.remove();
    },
  };
}
