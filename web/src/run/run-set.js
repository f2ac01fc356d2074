// N runs on one worker pool: the one object behind every "train N models and watch them" (the
// comparison, the probe grid, the permutation pair, the extrapolation demo, the experiments page's
// runs and grid). It makes and owns one run controller per run and keeps, per run, its status:
//   building → idle → learning → done (reached its goal) | budget (the step budget ran out before
//   the held-out accuracy target) | stalled (a refused NaN/Inf step) ; refused (could not be built).
// A goal is "train to `until` steps", or with `target` "until the held-out accuracy at the training
// length reaches `target`, within `until` steps". All runs' metrics go through one drawing queue:
// one timer flush delivers every run's buffered metrics and then calls the set's `draw` once, so
// the views only draw. No DOM.
// The comparison uses open()/apply() (one controller per view, each refreshing its inspection views).
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
 */
/**
 * @typedef {object} SetHooks what the page does (every hook optional)
 * @property {(run: SetRun, batch: MetricsBatch) => void} [metrics] a run's metrics since the last flush
 * @property {(run: SetRun) => void} [status] a run's status changed (called at once: start follow-up work here)
 * @property {(runs: SetRun[]) => void} [draw] once per flush, after the runs' metrics: draw
 */

const FLUSH_MS = 250;
/** The attention maps and predictions refresh this often while training (one run; see above). */
const INSPECT_MS = 1500;
/** Statuses after which a run trains no more for the current goal. */
export const SETTLED = ['done', 'budget', 'stalled', 'refused'];

export class RunSet {
  /**
   * @param {RunClient & EventTarget} pool where the models train (its 'crash' and 'recovered'
   *   events: the comparison's engine notice)
   * @param {{corpusBase?: () => string, hooks?: SetHooks, drawMs?: number}} [opts] corpusBase: where the
   *   text task's corpus is (default: beside the built chunks); hooks: see SetHooks; drawMs: the drawing queue's period
   */
  constructor(pool, { corpusBase: base = corpusBase, hooks = {}, drawMs = 150 } = {}) {
    this.pool = pool;
    this.corpusBase = base;
    this.hooks = hooks;
    this.drawMs = drawMs;
    /** @type {RunController[]} the comparison's controllers (open()) */
    this.controllers = [];
    /** @type {SetRun[]} the runs added with add() */
    this.runs = [];
    /** @type {{until: number, target?: number, every?: number}} the current goal (play()) */
    this.goal = { until: 0 };
    this.timer = 0;
    /** @type {Map<SetRun, MetricsBatch>} metrics waiting for the next flush */
    this.pending = new Map();
    /** @type {(() => void)[]} callers of settled() */
    this.waiting = [];
    this.disposed = false;
  }

  /**
   * One run controller per run, each reporting to its views (the comparison).
   * @param {RunViews[]} views
   * @returns {RunController[]}
   */
  open(views) {
    this.controllers = views.map(
      (v) => new RunController(this.pool, v, { refreshMs: INSPECT_MS * views.length, flushMs: FLUSH_MS }),
    );
    return this.controllers;
  }

  /**
   * Build every run's model from its config, in order; throws with a readable message when one
   * cannot train (the views' `checked` hook says so).
   * @param {Config[]} configs one per run
   */
  async apply(configs) {
    const full = await Promise.all(configs.map((c) => this.#withCorpus(c)));
    for (const [i, run] of this.controllers.entries()) {
      if (this.disposed) return;
      await run.apply(full[i]);
    }
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
   * @param {{key?: string, data?: any, check?: boolean}} [opts] check: ask the engine to check the
   *   config first (its words in `error`); data: the caller's record, handed back on the run
   * @returns {SetRun}
   */
  add(config, { key = String(this.runs.length), data, check = false } = {}) {
    /** @type {SetRun} */
    const run = /** @type {any} */ ({ key, config, status: 'building', step: 0, error: '', lastLoss: null, data });
    run.ctl = new RunController(this.pool, {
      metrics: (batch) => this.#onMetrics(run, batch),
      state: (st) => this.#onState(run, st),
      checked: (r) => void (run.error = r.ok ? '' : r.error),
      failed: (err) => void (run.error = err.message),
    });
    this.runs.push(run);
    run.built = this.#build(run, check);
    return run;
  }

  /** @param {SetRun} run @param {boolean} check */
  async #build(run, check) {
    let built;
    try {
      built = await run.ctl.apply(await this.#withCorpus(run.config), { check });
    } catch (err) {
      run.error = /** @type {Error} */ (err).message;
      built = 'failed';
    }
    if (built === 'stale' || this.disposed || !this.runs.includes(run)) return;
    if (built === 'ready') this.#setStatus(run, 'idle');
    else {
      run.error ||= `the model could not be built (${built})`;
      this.#setStatus(run, 'refused');
    }
  }

  /** Resolves once every run added so far is built or refused. */
  built() {
    return Promise.all(this.runs.map((r) => r.built)).then(() => {});
  }

  /**
   * Train the runs that can still train towards `goal` (by default the current one).
   * @param {{until: number, target?: number, every?: number}} [goal] until: the step budget;
   *   target: stop a run once its held-out accuracy at the training length reaches it; every: eval period hint for Session.play
   */
  async play(goal = this.goal) {
    this.goal = goal;
    await this.built();
    await Promise.all(
      this.trainable().map((r) => {
        this.#setStatus(r, 'learning');
        return r.ctl.play({ until: goal.until, ...(goal.every ? { every: goal.every } : {}) });
      }),
    );
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

  /** Pause the runs that train (or were asked to). */
  pause() {
    return Promise.all(this.runs.filter((r) => r.status === 'learning' || r.ctl.playing).map((r) => r.ctl.pause()));
  }

  /** Whether any run is training. */
  get playing() {
    return this.runs.some((r) => r.ctl.playing);
  }

  /**
   * Resolves when no run is building or learning (each is idle or SETTLED).
   * @returns {Promise<void>}
   */
  settled() {
    return new Promise((resolve) => {
      this.waiting.push(() => resolve(undefined));
      this.#checkSettled();
    });
  }

  #checkSettled() {
    if (this.runs.some((r) => r.status === 'building' || r.status === 'learning' || r.ctl.playing)) return;
    for (const f of this.waiting.splice(0)) f();
  }

  /**
   * Remove and dispose one run (its model too, once built).
   * @param {SetRun} run
   */
  async remove(run) {
    this.runs = this.runs.filter((r) => r !== run);
    this.pending.delete(run);
    await run.built;
    await run.ctl.dispose();
  }

  /** Remove every run (the set stays usable). */
  clear() {
    const old = this.runs;
    this.runs = [];
    this.pending.clear();
    return Promise.all(old.map((r) => r.ctl.dispose()));
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
    const target = this.goal.target;
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
    } else if (this.goal.until && step >= this.goal.until)
      this.#setStatus(run, this.goal.target === undefined ? 'done' : 'budget');
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
    for (const f of this.waiting.splice(0)) f();
    return Promise.all([...this.controllers, ...this.runs.map((r) => r.ctl)].map((r) => r.dispose()));
  }
}
