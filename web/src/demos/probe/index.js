// Probe demo: n identical tokens in, each position must output its own index (Su's probe). A grid
// of small models, position encodings × attention normalizations, trains in parallel on the
// worker pool, each cell on several seeds. Each cell: a live accuracy sparkline, the final held-out
// accuracy (mean and min–max over the seeds), the spread
// max_i‖h_i − h_0‖∞ of the final hidden states (exactly 0 where Lemma 1 holds) and the mirror gap
// max_i‖h_i − h_{n−1−i}‖∞ (0 under Lemma 2), coloured by outcome (cells.js). Toggles: anchors,
// causal. This file owns the grid (ProbeDemo: its run set, run/run-set.js, one run per model)
// and the wiring; view.js builds the DOM, cells.js measures and draws a cell.
// mount(root, {pool, registry, compact, autoplay, config}) → {start, pause, dispose, ready}.
import { demoHandle, requireOptions, injectStyles, Disposer, completion } from '../common.js';
import { readDemoOptions, modelOverrides } from '../options.js';
import { demoLists } from '../lists.js';
import { RunSet } from '../../run/run-set.js';
import { buildDom, ANCHORS } from './view.js';
import { spreads, outcomeOf, summarizeCell, drawCell as draw } from './cells.js';
import { summaryOf } from './summary.js';
import { probeFigure } from './figure.js';
import { figureMenu } from '../../panels/figure-menu.js';
import { scrollCue } from '../../panels/dom.js';
import { seedList, seedWords, DEFAULT_SEEDS } from '../seeds.js';
import { translator } from '../../common/messages.js';
import { mapWords } from '../../panels/map-words.js';

/** @typedef {import('./cells.js').Cell} Cell */
/** @typedef {import('./cells.js').SeedRun} SeedRun */

/** @typedef {import('../../run/run-set.js').SetRun} SetRun */

/**
 * Mount the probe grid into `root`.
 * @param {HTMLElement|ShadowRoot} root
 * @param {{pool?: import('../../client/pool.js').WorkerPool, compact?: boolean, autoplay?: boolean, onDone?: () => void,
 *   registry?: import('../../wasm-api').Registry, config?: Record<string, any>, lang?: import('../../common/messages.js').Lang}} options pool is required; registry: the
 *   engine's (the default rows and columns, demos/lists.js); config: steps (default 600), seeds (models per
 *   cell, default 3), anchors, causal, positions / normalizations (lists or comma-separated), seed (the
 *   first), d_model, heads, layers, batch, lr
 * @returns {{start(): Promise<void>, pause(): Promise<void>, dispose(): Promise<void>, ready: Promise<void>,
 *   root: HTMLElement, results(): object[],
 *   refusals: import('../../state/fields.js').FieldRefusal[]}}
 */
export function mount(root, options = {}) {
  return demoHandle(new ProbeDemo(root, options));
}

const settled = (/** @type {{state: string}} */ r) => r.state === 'done' || r.state === 'invalid';

/**
 * Every cell's model: the probe task (n = seq_len), 2 layers of 4 heads, 32 wide, evaluated once at
 * the end of its `steps`, under the options' model fields.
 * @param {number} steps @param {import('../../wasm-api').Config} overrides
 */
function probeBase(steps, overrides) {
  return {
    task: 'probe',
    d_model: 32,
    heads: 4,
    layers: 2,
    seq_len: 8,
    batch: 16,
    seed: 1,
    steps,
    eval_every: Math.max(steps, 1),
    ...overrides,
  };
}

/** The probe grid: its options, its runs (one run set), its views. */
export class ProbeDemo {
  /**
   * @param {HTMLElement|ShadowRoot} root
   * @param {NonNullable<Parameters<typeof mount>[1]>} options
   */
  constructor(root, options) {
    const { registry, compact = false, autoplay = false, lang = 'en' } = options;
    /** its words in its language (the table's widget and probe parts, loaded before mount) */
    this.tr = translator(lang);
    this.lang = lang;
    const { values: cfg, refusals } = readDemoOptions('probe', registry, options.config ?? {});
    /** the options that were refused (each named, with what is allowed): the demo took its defaults */
    this.refusals = refusals;
    const { pool } = requireOptions('probe', options, false);
    this.complete = completion(options.onDone); // every cell trained or marked n/a
    this.compact = compact;
    this.autoplay = autoplay;
    this.steps = /** @type {number} */ (cfg.steps ?? 600);
    const lists = demoLists(registry);
    this.positions = /** @type {string[]} */ (cfg.position ?? lists.probePositions);
    // Columns the setup cannot build (causal only, without the mask) are hidden, unless asked for.
    this.causalOnly = cfg.normalization ? [] : lists.probeCausalNormalizations;
    this.norms = /** @type {string[]} */ (cfg.normalization ?? [...lists.probeNormalizations, ...this.causalOnly]);
    const steps = this.steps;
    this.base = probeBase(steps, modelOverrides(cfg));
    this.seeds = seedList(this.base.seed, cfg.seeds ?? DEFAULT_SEEDS);
    this.n = this.base.seq_len;
    this.anchors = ANCHORS.some(([k]) => k === cfg.anchors) ? cfg.anchors : 'none';
    this.causal = /** @type {boolean} */ (cfg.causal ?? false);
    /** @type {Cell[]} {pos, norm, td, runs: one per seed, state, acc, spread, mirror, outcome} */
    this.cells = [];
    this.playing = false;
    this.disposed = false;
    /** @type {Set<Cell>} cells with new metrics, drawn at the next flush */
    this.dirty = new Set();
    /** @type {HTMLElement|undefined} the note under the grid that names hidden columns */
    this.note = undefined;
    // Twice as many runs train at once as the pool has workers (a worker has the next model's steps
    // queued while it evaluates a finished one), in the order buildGrid adds them.
    this.set = new RunSet(pool, {
      turns: 2 * (pool.size ?? 2),
      hooks: {
        metrics: (run, batch) => this.#metrics(run, batch),
        status: (run) => this.#status(run),
        draw: () => this.#drawDirty(),
      },
    });
    this.set.goal = { until: steps, every: 10 };
    this.bag = new Disposer();
    this.style = injectStyles(root);
    this.ui = buildDom(compact, this.positions, this.norms, this.n, this.seeds, lists.rowSum, this.tr, lang);
    root.append(this.ui.box);
    this.#wire();
    this.ready = this.buildGrid().then(() => {
      this.ui.box.dataset.ready = 'true';
    });
    if (autoplay) this.ready.then(() => this.start());
  }

  /** @param {string} pos @param {string} norm @param {number} seed */
  config(pos, norm, seed) {
    return { ...this.base, seed, position: pos, normalization: norm, anchors: this.anchors, causal: this.causal };
  }

  /** @param {Cell} c */
  drawCell(c) {
    draw(c, { n: this.n, compact: this.compact, tr: this.tr });
  }

  /** @param {SetRun} run @param {import('../../run/run-controller.js').MetricsBatch} batch */
  #metrics(run, { steps: batch, step }) {
    const { c, r } = run.data;
    for (const st of batch) r.accs.push(st.token_accuracy);
    if (r.accs.length > 120) r.accs = r.accs.filter((/** @type {number} */ _, /** @type {number} */ i) => i % 2 === 0);
    r.step = step;
    this.dirty.add(c);
  }

  #drawDirty() {
    for (const c of this.dirty) this.drawCell(c);
    this.dirty.clear();
  }

  /** A run's status (run-set.js): trained, stopped on a refused step, or not built. @param {SetRun} run */
  #status(run) {
    const { c, r } = run.data;
    if (run.status === 'idle') r.model = run.ctl.model;
    else if (run.status === 'learning')
      ((r.state = 'training'), (c.state = c.state === 'invalid' || c.state === 'partial' ? c.state : 'training'));
    else if (run.status === 'done') this.finish(c, r);
    else if (run.status === 'stalled' || run.status === 'refused') {
      r.state = 'invalid';
      r.error = run.error;
      Object.assign(c, {
        state: 'invalid',
        outcome: 'invalid',
        error: run.error,
        verdict: this.tr(run.status === 'stalled' ? 'probe.verdict.stopped' : 'probe.verdict.cannotBuild'),
      });
      this.drawCell(c);
    }
  }

  /** The grid's progress in words, and the cells marked n/a with the reason. */
  progress() {
    const { ui, cells } = this;
    const done = cells.filter(settled).length;
    this.complete(cells.length > 0 && done === cells.length);
    const invalid = cells.filter((c) => c.state === 'invalid');
    const live = cells
      .flatMap((c) => c.runs)
      .filter((r) => r.state === 'training' || r.state === 'idle')
      .map((r) => r.step ?? 0);
    const minStep = live.length ? Math.min(...live) : NaN;
    const trained = cells.filter((c) => c.state === 'done').length,
      buildable = cells.length - invalid.length;
    const built = cells.filter((c) => c.state !== 'invalid').flatMap((c) => c.runs);
    const { tr } = this;
    ui.progress.textContent =
      tr('probe.progress', {
        trained,
        buildable,
        done: built.filter((r) => r.state === 'done').length,
        models: built.length,
        seeds: seedWords(this.seeds, this.lang),
      }) + (Number.isFinite(minStep) ? tr('probe.slowest', { step: minStep, steps: this.steps }) : '');
    // The cells marked n/a, and why, in words (a cell's tooltip says it too, but not on a phone).
    const why = new Map(); // reason -> cells
    for (const c of invalid) why.set(c.error ?? '', [...(why.get(c.error ?? '') ?? []), `${c.pos} × ${c.norm}`]);
    ui.invalid.hidden = !invalid.length;
    ui.invalid.textContent = [...why]
      .map(([reason, cs]) =>
        tr('probe.na', {
          which: cs.length === 1 ? cs[0] : tr('probe.cellsN', { n: cs.length }),
          reason: reason.replace(/^[a-z_]+: /, ''),
        }),
      )
      .join(' ');
    ui.box.dataset.done = String(done);
    ui.box.dataset.complete = String(done === cells.length && cells.length > 0);
  }

  /** A model that reached its steps: its accuracy, spread and mirror gap. @param {Cell} c @param {SeedRun} r */
  async finish(c, r) {
    if (r.finishing || !r.model) return;
    r.finishing = true;
    try {
      const [ev, snap] = await Promise.all([r.model.evaluate(0), r.model.inspect({ attention: { example: 0 } })]);
      Object.assign(r, spreads(snap.attention.hidden, this.anchors));
      r.final = ev.token_accuracy;
      r.step = snap.step;
      r.state = 'done';
      r.outcome = outcomeOf(/** @type {SeedRun & {spread: number, mirror: number, final: number}} */ (r));
    } catch (err) {
      if (this.disposed || r.model?.disposed) return;
      Object.assign(r, { state: 'invalid', outcome: 'invalid', error: /** @type {Error} */ (err).message });
    } finally {
      r.finishing = false;
    }
    summarizeCell(c, this.n, this.tr, this.lang); // so far: its seeds done (cells.js says how many)
    this.drawCell(c);
    this.progress();
    if (this.cells.every(settled)) {
      this.playing = false;
      this.showPlaying();
      this.showSummary();
    }
  }

  /** The measured grid in words (view.js): only once every cell is done. */
  showSummary() {
    this.ui.summary.replaceChildren(
      ...summaryOf(
        this.cells,
        { steps: this.steps, seeds: this.seeds, anchors: this.anchors, causal: this.causal },
        this.tr,
        this.lang,
      ),
    );
  }

  /** New cells and models for the current toggles (the old ones are disposed). */
  /** The columns this setup builds (a causal-only normalization needs the causal mask on). */
  shownNorms() {
    return this.norms.filter((nm) => this.causal || !this.causalOnly.includes(nm));
  }

  async buildGrid() {
    this.cells = [];
    this.ui.summary.replaceChildren();
    await this.set.clear();
    const shown = this.shownNorms();
    for (const cell of this.ui.box.querySelectorAll('.apd-grid th[data-norm], .apd-grid td[data-norm]'))
      /** @type {HTMLElement} */ (cell).hidden = !shown.includes(
        /** @type {string} */ (/** @type {HTMLElement} */ (cell).dataset.norm),
      );
    const table = /** @type {HTMLElement} */ (this.ui.gridWrap.firstElementChild);
    table.dataset.cols = String(shown.length); // more than 2 stack on a phone (demos.css)
    this.ui.box.dataset.models = String(this.positions.length * shown.length * this.seeds.length);
    const off = this.norms.filter((nm) => !shown.includes(nm));
    if (!this.note) this.ui.gridWrap.after((this.note = document.createElement('p')));
    this.note.className = 'apd-note apd-small apd-hidden-cols';
    this.note.hidden = !off.length;
    this.note.textContent = off.length
      ? this.tr(off.length === 1 ? 'probe.notShown1' : 'probe.notShownN', { list: off.join(', ') })
      : '';
    for (const td of this.ui.tds) {
      if (td.hidden) continue;
      /** @type {Cell} */
      const c = {
        pos: /** @type {string} */ (td.dataset.pos),
        norm: /** @type {string} */ (td.dataset.norm),
        td,
        state: 'idle',
        runs: this.seeds.map((seed) => ({ seed, accs: [], state: 'idle', step: 0 })),
      };
      this.cells.push(c);
      this.drawCell(c);
    }
    // One seed of every cell first, then the next seed (the set trains them in turns, in this
    // order): each cell has a first result after about a third of the grid's time, not at its end.
    for (let k = 0; k < this.seeds.length; k++)
      for (const c of this.cells) {
        const r = c.runs[k];
        r.run = this.set.add(this.config(c.pos, c.norm, r.seed), { data: { c, r } });
      }
    this.progress();
    await this.set.built();
    this.progress();
  }

  showPlaying() {
    this.ui.play.textContent = this.tr(this.playing ? 'probe.pause' : 'probe.train');
    this.ui.box.dataset.playing = String(this.playing);
  }

  async start() {
    await this.ready;
    if (this.disposed) return;
    this.playing = true;
    this.showPlaying();
    await this.set.play({ until: this.steps, every: 10 });
    this.progress();
  }

  async pause() {
    this.playing = false;
    this.showPlaying();
    await this.set.pause();
  }

  async rebuild() {
    this.ui.box.dataset.complete = 'false'; // the old grid's results no longer stand (a script waiting for them must wait)
    const wasPlaying = this.playing || this.autoplay;
    await this.pause();
    this.ready = this.buildGrid();
    await this.ready;
    if (wasPlaying) this.start();
  }

  /** The scroll cue: shades on the sides with more columns, and a sentence while the grid overflows. */
  scrollCue() {
    this.ui.box.dataset.gridOverflows = String(scrollCue(this.ui));
  }

  #wire() {
    const { ui, bag } = this;
    ui.anchors.value = this.anchors;
    ui.causal.checked = this.causal;
    bag.listen(ui.gridWrap, 'scroll', () => this.scrollCue());
    const resize = new ResizeObserver(() => this.scrollCue());
    resize.observe(ui.gridWrap);
    bag.add(() => resize.disconnect());
    ui.play.addEventListener('click', () => (this.playing ? this.pause() : this.start()));
    ui.restart.addEventListener('click', () => this.rebuild());
    ui.anchors.addEventListener('change', () => {
      this.anchors = ui.anchors.value;
      ui.box.dataset.anchors = this.anchors;
      this.rebuild();
    });
    ui.causal.addEventListener('change', () => {
      this.causal = ui.causal.checked;
      ui.box.dataset.causal = String(this.causal);
      this.rebuild();
    });
    bag.interval(() => this.progress(), 1000);
    ui.box.dataset.anchors = this.anchors;
    ui.box.dataset.causal = String(this.causal);
    ui.box.dataset.steps = String(this.steps);
    // Download ▾: the grid as a heatmap of accuracy (SVG, PNG), its numbers (JSON, CSV).
    const { positions, n, steps, seeds } = this;
    ui.play.parentElement?.append(
      figureMenu(
        () =>
          probeFigure(
            this.cells,
            {
              positions,
              norms: this.shownNorms(),
              n,
              steps,
              seeds,
              anchors: this.anchors,
              causal: this.causal,
            },
            this.tr,
          ),
        () => `attnplay-probe-grid-${this.anchors}${this.causal ? '-causal' : ''}`,
        mapWords(this.lang).menu,
      ),
    );
  }

  /**
   * Per cell: {position, normalization, state, accuracy (the mean over seeds), accMin, accMax,
   * spread and mirror (the largest over seeds), outcome, seeds: per seed {seed, accuracy, spread, mirror, outcome}}.
   */
  results() {
    return this.cells.map((c) => ({
      position: c.pos,
      normalization: c.norm,
      state: c.state,
      accuracy: c.acc?.mean,
      accMin: c.acc?.min,
      accMax: c.acc?.max,
      spread: c.spread,
      mirror: c.mirror,
      outcome: c.outcome,
      error: c.error,
      seeds: c.runs.map((r) => ({
        seed: r.seed,
        accuracy: r.final,
        spread: r.spread,
        mirror: r.mirror,
        scale: r.scale,
        outcome: r.outcome,
      })),
    }));
  }

  async dispose() {
    this.disposed = true;
    this.bag.run();
    await this.set.dispose();
    this.ui.box.remove();
    this.style.remove();
  }
}
