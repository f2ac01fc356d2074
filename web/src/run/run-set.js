// N runs on one worker pool: the one object behind every "train N models and watch them" (the
// comparison, the probe grid, the permutation pair, the extrapolation demo, the experiments page's
// runs and grid). It makes and owns one run controller per run and keeps, per run, its status:
//   building → idle → learning → done (reached its goal) | budget (the step budget ran out before
//   the held-out accuracy target) | stalled (a refused NaN/Inf step) ; refused (could not be built).
// A goal is "train to `until` steps", or with `target` "until the held-out accuracy at the training
// length reaches `target`, within `until` steps". All runs' metrics go through one drawing queue:
// one timer flush delivers every run's buffered metrics and then calls the set's `draw` once, so
// the views only draw. No DOM. With `lanes`, at most that many runs hold a model at once (a run
// waits, 'building', for a lane; remove() frees it): a grid larger than the pool trains in turns.
// With `turns`, at most that many runs train at once: play() starts the first ones in the order
// they were added and each run that settles hands its turn to the next, so that the first results
// come after a few runs' time rather than all at the end (the probe grid: one seed of every cell
// first, then the next seed).
// A run can take more hooks of its own (add()'s `views`: fresh, ready, inspect ...: the comparison's
// inspection views, run/compare-runs.js) and a goal of its own (train()).
import { RunController } from './run-controller.js';
import { withCorpus, loadCorpus, corpusBase } from './text-source.js';

/** @typedef {import('./run-controller.js').RunClient} RunClient */
/** @typedef {import('./run-controller.js').RunViews} RunViews */
/** @typedef {import('./run-controller.js').MetricsBatch} MetricsBatch */
/** @typedef {import('../wasm-api').Config} Config */
/** @typedef {'building'|'idle'|'learning'|'done'|'budget'|'stalled'|'refused'} RunStatus */
/**
 * One run of the set (see add()).
 * @typedef {object} SetRun
 * @property {string} key
 * @property {Config} config
 * @property {RunController} ctl
 * @property {RunStatus} status
 * @property {number} step the last step the model reported
 * @property {string} error why it was refused or stalled
 * @property {number} [reachedAt] the step at which it reached the accuracy target
 * @property {number|null} lastLoss the last training loss
 * @property {Promise<void>} built resolves once built (or refused)
 * @property {any} data the caller's own record of this run
 * @property {Goal} [goal] the goal it trains towards (train(); else the set's)
 * @property {boolean} [lane] it holds one of the set's lanes
 */
/** @typedef {{until: number, target?: number, every?: number}} Goal until: the step budget (0: none);
 *   target: stop a run once its held-out accuracy at the training length reaches it; every: eval period hint for Session.play */
/**
 * @typedef {object} SetHooks what the page does (every hook optional)
 * @property {(run: SetRun, batch: MetricsBatch) => void} [metrics] a run's metrics since the last flush
 * @property {(run: SetRun) => void} [status] a run's status changed (called at once: start follow-up work here)
 * @property {(runs: SetRun[]) => void} [draw] once per flush, after the runs' metrics: draw
 */

/** Statuses after which a run trains no more for the current goal. */
export const SETTLED = ['done', 'budget', 'stalled', 'refused'];

export class RunSet {
  /**
   * @param {RunClient & EventTarget} pool where the models train (its 'crash' and 'recovered'
   *   events: the comparison's engine notice)
   * @param {{corpusBase?: () => string, hooks?: SetHooks, drawMs?: number, lanes?: number, turns?: number}} [opts] corpusBase: where the
   *   text task's corpus is (default: beside the built chunks); hooks: see SetHooks; drawMs: the drawing queue's period;
   *   lanes: at most this many runs hold a model at once (0: no limit); turns: at most this many
   *   runs train at once, in the order they were added (0: every run)
   */
  constructor(pool, { corpusBase: base = corpusBase, hooks = {}, drawMs = 150, lanes = 0, turns = 0 } = {}) {
    this.pool = pool;
    this.corpusBase = base;
    this.hooks = hooks;
    this.drawMs = drawMs;
    this.lanes = lanes;
    this.turns = turns;
    /** whether play() was asked for and no pause() since (with turns: runs waiting for a turn start) */
    this.wanted = false;
    /** @type {SetRun[]} the runs added with add() */
    this.runs = [];
    /** @type {Goal} the current goal (play()) */
    this.goal = { until: 0 };
    this.timer = 0;
    /** @type {Map<SetRun, MetricsBatch>} metrics waiting for the next flush */
    this.pending = new Map();
    /** @type {{ready: () => boolean, resolve: () => void}[]} callers of settled() */
    this.waiting = [];
    /** @type {(() => void)[]} runs waiting for a lane */
    this.queue = [];
    this.disposed = false;
  }

  /** @param {Config} config */
  #withCorpus(config) {
    const base = this.corpusBase;
    return withCorpus(config, () => loadCorpus(base()));
  }

  /**
   * Add a run and start building its model (see `built`); a config the engine refuses makes a
   * 'refused' run with the engine's message.
   * @param {Config} config
   * @param {{key?: string, data?: any, check?: boolean, views?: RunViews, refreshMs?: number}} [opts]
   *   check: ask the engine to check the config first (its words in `error`); data: the caller's
   *   record, handed back on the run; views: more hooks of this run's controller (fresh, ready,
   *   inspect, error, restored; the set keeps metrics, state, checked and failed); refreshMs: its
   *   inspection refresh while training (run-controller.js)
   * @returns {SetRun}
   */
  add(config, { key = String(this.runs.length), data, check = false, views = {}, refreshMs = 0 } = {}) {
    /** @type {SetRun} */
    const run = /** @type {any} */ ({
      key,
      config,
      status: 'building',
      step: 0,
      error: '',
      lastLoss: null,
      data,
    });
    const own = {
      metrics: (/** @type {MetricsBatch} */ batch) => this.#onMetrics(run, batch),
      state: (/** @type {import('./run-controller.js').RunState} */ st) => this.#onState(run, st),
      checked: (/** @type {import('../wasm-api').CheckResult} */ r) => void (run.error = r.ok ? '' : r.error),
      failed: (/** @type {Error} */ err) => void (run.error = err.message),
    };
    run.ctl = new RunController(this.pool, { ...views, ...own }, { refreshMs });
    this.runs.push(run);
    run.built = this.#build(run, check);
    return run;
  }

  /** @param {SetRun} run @param {boolean} check */
  async #build(run, check) {
    if (this.lanes) await this.#lane(run);
    if (this.disposed || !this.runs.includes(run)) return;
    let built;
    try {
      built = await run.ctl.apply(await this.#withCorpus(run.config), {
        check,
      });
    } catch (err) {
      run.error = /** @type {Error} */ (err).message;
      built = 'failed';
    }
    if (built === 'stale' || this.disposed || !this.runs.includes(run)) return;
    if (built === 'ready') {
      if (run.status === 'building') this.#setStatus(run, 'idle'); // (a `ready` hook may have started it)
    } else {
      run.error ||= `the model could not be built (${built})`;
      this.#setStatus(run, 'refused');
    }
  }

  /** Resolves once every run added so far is built or refused. */
  built() {
    return Promise.all(this.runs.map((r) => r.built)).then(() => {});
  }

  /** Wait for a free lane and take it. @param {SetRun} run */
  async #lane(run) {
    const busy = () => this.runs.filter((r) => r.lane).length >= this.lanes;
    while (busy() && !this.disposed && this.runs.includes(run))
      await new Promise((resolve) => this.queue.push(() => resolve(undefined)));
    run.lane = !this.disposed && this.runs.includes(run);
  }

  /** Every run waiting for a lane looks again, in the order they came. */
  #wake() {
    for (const wake of this.queue.splice(0)) wake();
  }

  /** @param {SetRun} run */
  #freeLane(run) {
    if (!run.lane) return;
    run.lane = false;
    this.#wake();
  }

  /**
   * Train the runs that can still train towards `goal` (by default the current one).
   * @param {Goal} [goal]
   */
  async play(goal = this.goal) {
    this.goal = goal;
    this.wanted = true;
    await this.built();
    if (!this.wanted) return; // paused meanwhile
    if (this.turns) return this.#nextTurns();
    await Promise.all(this.trainable().map((r) => this.train(r, goal))); // done and stalled runs stay
  }

  /** With turns: start the next waiting runs, in the order they were added, while turns are free. */
  async #nextTurns() {
    const training = (/** @type {SetRun} */ r) => r.status === 'learning' || Boolean(r.ctl.model?.playing);
    let free = this.turns - this.runs.filter(training).length;
    const next = [];
    for (const r of this.trainable()) {
      if (free <= 0) break;
      if (training(r)) continue;
      next.push(r);
      free--;
    }
    await Promise.all(next.map((r) => this.train(r, this.goal)));
  }

  /**
   * Train one run towards `goal` (its own: the set's goal stays), whatever it reached before (a
   * run that is done trains on); nothing when it trains already, has no model or was refused.
   * @param {SetRun} run @param {Goal} [goal]
   */
  async train(run, goal = this.goal) {
    if (!run.ctl.model || run.ctl.model.playing || run.status === 'refused') return;
    run.goal = goal;
    this.#setStatus(run, 'learning');
    await run.ctl.play({
      until: goal.until,
      ...(goal.every ? { every: goal.every } : {}),
    });
  }

  /** The runs that can still train towards the current goal. */
  trainable() {
    return this.runs.filter(
      (r) =>
        r.ctl.model &&
        !['done', 'stalled', 'refused'].includes(r.status) &&
        !(this.goal.until && r.step >= this.goal.until),
    );
  }

  /** Every built run back to step 0 with its seed (a refused run stays refused). */
  async reset() {
    this.pending.clear();
    await Promise.all(
      this.runs.map(async (r) => {
        if (!r.ctl.model) return;
        await r.ctl.reset();
        r.step = 0;
        r.lastLoss = null;
        delete r.reachedAt;
        r.error = '';
        this.#setStatus(r, 'idle');
      }),
    );
  }

  /** Pause the runs that train (or were asked to). */
  pause() {
    this.wanted = false;
    return Promise.all(this.runs.filter((r) => r.status === 'learning' || r.ctl.playing).map((r) => r.ctl.pause()));
  }

  /** Whether any run is training. */
  get playing() {
    return this.runs.some((r) => r.ctl.playing);
  }

  /**
   * Resolves when no run (or `run` alone) is building or learning: each is idle or SETTLED.
   * @param {SetRun} [run]
   * @returns {Promise<void>}
   */
  settled(run) {
    const ready = () => (run ? [run] : this.runs).every((r) => !this.#busy(r) || !this.runs.includes(r));
    return new Promise((resolve) => {
      this.waiting.push({ ready, resolve: () => resolve(undefined) });
      this.#checkSettled();
    });
  }

  /** @param {SetRun} r */
  #busy(r) {
    return r.status === 'building' || r.status === 'learning' || r.ctl.playing;
  }

  #checkSettled() {
    const done = this.waiting.filter((w) => this.disposed || w.ready());
    this.waiting = this.waiting.filter((w) => !done.includes(w));
    for (const w of done) w.resolve();
  }

  /**
   * Remove and dispose one run (its model too, once built).
   * @param {SetRun} run
   */
  async remove(run) {
    this.runs = this.runs.filter((r) => r !== run);
    this.pending.delete(run);
    this.#checkSettled();
    this.#wake(); // the run may have been waiting for a lane: it sees it left
    if (this.turns && this.wanted) void this.#nextTurns(); // its turn, if it had one, is free
    await run.built;
    await run.ctl.dispose();
    this.#freeLane(run);
  }

  /** Remove every run (the set stays usable). */
  clear() {
    const old = this.runs;
    this.runs = [];
    this.pending.clear();
    this.#wake();
    this.#checkSettled();
    return Promise.all(
      old.map(async (r) => {
        await r.ctl.dispose();
        this.#freeLane(r);
      }),
    );
  }

  /** @param {SetRun} run @param {MetricsBatch} batch */
  #onMetrics(run, batch) {
    run.step = batch.step;
    if (batch.steps.length) run.lastLoss = batch.steps[batch.steps.length - 1].loss;
    const p = this.pending.get(run) ?? { steps: [], evals: [], step: 0 };
    p.steps.push(...batch.steps);
    p.evals.push(...batch.evals);
    p.step = batch.step;
    this.pending.set(run, p);
    const target = (run.goal ?? this.goal).target;
    const L = Number(run.config.seq_len);
    const hit =
      target !== undefined &&
      batch.evals.find((e) => (e.length === undefined || !L || e.length === L) && e.token_accuracy >= target);
    if (hit && run.status !== 'done') {
      run.reachedAt = hit.step;
      this.#setStatus(run, 'done');
      run.ctl.pause();
    }
    this.schedule();
  }

  /** @param {SetRun} run @param {import('./run-controller.js').RunState} st */
  #onState(run, { playing, step, stalled, reason }) {
    run.step = step;
    if (['refused', 'building', 'stalled'].includes(run.status)) return;
    if (playing) this.#setStatus(run, run.status === 'done' ? 'done' : 'learning');
    else if (run.status === 'done') this.#checkSettled();
    else if (stalled) {
      run.error = reason;
      this.#setStatus(run, 'stalled');
    } else if ((run.goal ?? this.goal).until && step >= (run.goal ?? this.goal).until)
      this.#setStatus(run, (run.goal ?? this.goal).target === undefined ? 'done' : 'budget');
    else this.#setStatus(run, 'idle');
    this.schedule();
  }

  /** @param {SetRun} run @param {RunStatus} status */
  #setStatus(run, status) {
    const changed = run.status !== status;
    run.status = status;
    if (changed) this.hooks.status?.(run);
    this.schedule();
    this.#checkSettled();
    if (changed && this.turns && this.wanted && status !== 'learning' && status !== 'building') void this.#nextTurns();
  }

  /** Ask for one flush of the drawing queue (one timer for every run). */
  schedule() {
    if (this.timer || this.disposed) return;
    this.timer = /** @type {any} */ (setTimeout(() => this.flush(), this.drawMs));
  }

  /** Deliver every run's buffered metrics, then draw once. */
  flush() {
    clearTimeout(this.timer);
    this.timer = 0;
    if (this.disposed) return;
    const pending = [...this.pending];
    this.pending.clear();
    for (const [run, batch] of pending) if (this.runs.includes(run)) this.hooks.metrics?.(run, batch);
    this.hooks.draw?.(this.runs);
  }

  dispose() {
    this.disposed = true;
    clearTimeout(this.timer);
    this.#wake();
    this.#checkSettled();
    return Promise.all(this.runs.map((r) => r.ctl.dispose()));
  }
}
