// The one run controller: config -> client -> training loop -> refresh of the views. The
// playground page, the widgets and the demos all drive their models through it. It owns the
// current model's lifecycle (check the config, dispose the old model, create the new one, drop a
// result that a newer request overtook), its events (metrics, optionally buffered and delivered
// every `flushMs`; play/stop, with the reasons that mean training stopped on a refused step;
// restored after a worker crash), the coalescing refresh of the inspection views while it trains, and the rate
// a person reads (rate.js: steps/s and tokens/s over the last seconds, the time left).
// The refresh is throttled by wall time, not by steps: after a refresh that cost d ms (the worker's
// time for the inspection plus the page's time to draw it), the next one waits max(refreshMs,
// d·(1/INSPECT_SHARE − 1)), so inspection takes at most INSPECT_SHARE of the time while training.
// It knows no DOM: what a page shows is in the `views` hooks, all optional.
import { coalesce } from './coalesce.js';
import { RateMeter, tokensPerStep } from './rate.js';

/** Reasons a model stops without anything being wrong (any other reason: a refused NaN/Inf step). */
export const STOP_REASONS = ['done', 'paused', 'play', 'reset', 'import', 'restored'];
/** The largest share of wall time that inspection refreshes may take while training. */
export const INSPECT_SHARE = 0.05;

/** @typedef {import('../wasm-api').StepMetrics} StepMetrics */
/** @typedef {import('../wasm-api').EvalMetrics} EvalMetrics */
/** @typedef {import('../wasm-api').SessionInfo} SessionInfo */
/** @typedef {import('../wasm-api').CheckResult} CheckResult */
/** @typedef {import('../wasm-api').Config} Config */
/**
 * A model: client/session.js's EngineSession (inspectMs: the worker's time spent on inspect() so
 * far; inspectAt: when the last inspect() reply arrived).
 * @typedef {import('../client/session.js').EngineSession} Session
 */
/** @typedef {{steps: StepMetrics[], evals: EvalMetrics[], step: number}} MetricsBatch */
/** @typedef {{playing: boolean, reason: string, step?: number}} StateDetail */
/** @typedef {{playing: boolean, reason: string, step: number, stalled: boolean}} RunState */
/**
 * @typedef {{create(config: Config): Promise<Session>}} RunClient an EngineClient or a WorkerPool:
 *   create() rejects a refused config with an error whose `check` is the CheckResult
 */

/**
 * @typedef {object} RunViews what a page does at each point of a run (every hook optional; a hook
 *   may throw to abort the call that reached it, e.g. a widget whose first config is refused)
 * @property {() => void} [building] a new config is being checked and built
 * @property {(check: CheckResult) => void} [checked] the engine's verdict on the config
 * @property {(err: Error) => void} [failed] the model could not be created (without it, apply() throws)
 * @property {(model: Session) => void} [adopted] a model became the current one (before `fresh`)
 * @property {(info: SessionInfo) => (void|Promise<void>)} [fresh] a new model, a reset or an import: start the views over
 * @property {(info: SessionInfo) => void} [ready] after `fresh` and the first refresh
 * @property {(batch: MetricsBatch) => void} [metrics] (read the rate with progress())
 * @property {(state: RunState) => void} [state]
 * @property {(model: Session, detail: {playing: boolean, step: number}) => void} [restored]
 * @property {(model: Session, current: () => boolean) => Promise<void>} [inspect] one refresh of the
 *   views that inspect the model (EngineSession.inspect); `current()` says whether the model is still the current one (check after awaits)
 * @property {(err: Error) => void} [error] an inspection of the current model failed
 */

export class RunController {
  /**
   * @param {RunClient} client
   * @param {RunViews} views
   * @param {{refreshMs?: number, flushMs?: number}} [timing] refreshMs: the shortest time between
   *   two inspection refreshes while training (0: refresh only when training stops; see the header
   *   for the longest); flushMs: metrics are buffered and delivered this often while training (0: as they come)
   */
  constructor(client, views, { refreshMs = 0, flushMs = 0 } = {}) {
    this.client = client;
    this.views = views;
    this.refreshMs = refreshMs;
    this.flushMs = flushMs;
    /** @type {Session|null} the current model (null while none) */
    this.model = null;
    this.step = 0; // the last step the current model reported
    this.until = 0; // the step the current play() stops at (0: no limit)
    this.playing = false;
    this.stalled = false; // training stopped on a refused (NaN/Inf) step
    this.token = 0;
    this.disposed = false;
    /** @type {{flush: any, refresh: any}} timer ids */
    this.timers = { flush: 0, refresh: 0 };
    /** @type {MetricsBatch} */
    this.pending = { steps: [], evals: [], step: 0 };
    /** steps/s over the last seconds while training (rate.js) */
    this.rate = new RateMeter();
    /** ms: what the last inspection refresh cost (worker + page) */
    this.inspectCost = 0;
    /** Redraw the inspecting views (one request at a time; calls during one are merged). */
    this.refresh = coalesce(
      () => this.#refreshOnce(),
      () => this.disposed,
    );
  }

  /**
   * Check `config` and replace the current model by a new one (paused at its step 0).
   * @param {Config} config
   * @param {{check?: boolean, refused?: (check: CheckResult) => void}} [opts] check: false treats a
   *   refused config as a failure (`failed`), without the `checked` hook (demos with fixed configs);
   *   refused: told of a refused config instead of the `checked` hook (propose())
   * @returns {Promise<'ready'|'invalid'|'failed'|'stale'>} 'stale': a newer request overtook this one
   */
  async apply(config, { check = true, refused: onRefused } = {}) {
    const token = ++this.token;
    this.views.building?.();
    // One round trip: create() validates while it builds, and a refused config rejects with
    // `check` (client.js ConfigError); the current model stays until a new one exists.
    let model;
    try {
      model = await this.client.create(config);
    } catch (err) {
      if (token !== this.token) return 'stale';
      const refused = /** @type {{check?: CheckResult}} */ (err).check;
      if (check && refused) {
        (onRefused ?? this.views.checked)?.(refused);
        return 'invalid';
      }
      await this.#drop();
      if (!this.views.failed) throw err;
      this.views.failed(/** @type {Error} */ (err));
      return 'failed';
    }
    if (token !== this.token || this.disposed) {
      await model.dispose();
      return 'stale';
    }
    try {
      if (check) this.views.checked?.({ ok: true, config: model.info.config });
    } catch (err) {
      await model.dispose();
      throw err;
    }
    await this.#drop();
    await this.adopt(model);
    return 'ready';
  }

  /**
   * A new model for `config` if the engine takes it, in one round trip (create validates): the
   * engine's verdict. A refused config changes nothing (the model and the views stay; no `checked`
   * hook): the caller says why (the widget's setConfig).
   * @param {Config} config
   * @returns {Promise<CheckResult>}
   */
  async propose(config) {
    /** @type {CheckResult|null} */
    let refused = null;
    await this.apply(config, { refused: (c) => (refused = c) });
    return refused ?? { ok: true, config: this.model?.info.config ?? config };
  }

  /** The current model goes (disposed); none until the next adopt(). */
  async #drop() {
    const old = this.model;
    this.model = null;
    this.playing = false;
    this.#stopTimers();
    await old?.dispose();
  }

  /** Forget a pending apply() (its model is disposed when it arrives). */
  cancel() {
    this.token++;
  }

  /**
   * Make `model` the current one and listen to it.
   * @param {any} model
   * @param {{fresh?: boolean}} [opts] fresh: false leaves the views as they are (the caller freshens them)
   */
  async adopt(model, { fresh = true } = {}) {
    this.model = model;
    this.playing = Boolean(model.playing);
    /** @type {(f: (detail: any) => void) => (e: Event) => void} */
    const mine = (f) => (e) => model === this.model && f(/** @type {CustomEvent} */ (e).detail);
    model.addEventListener(
      'metrics',
      mine((d) => this.#onMetrics(d)),
    );
    model.addEventListener(
      'state',
      mine((d) => this.stateChanged(d)),
    );
    model.addEventListener(
      'restored',
      mine((d) => {
        this.step = d.step;
        this.rate = new RateMeter();
        this.pending = { steps: [], evals: [], step: d.step };
        this.views.restored?.(model, d);
      }),
    );
    this.views.adopted?.(model);
    if (fresh) await this.fresh(model.info);
  }

  /**
   * The views start over from `info` (a new model, a reset, an import, a restore).
   * @param {SessionInfo} info
   */
  async fresh(info) {
    this.stalled = false;
    this.step = info.step;
    this.rate = new RateMeter();
    this.pending = { steps: [], evals: [], step: info.step };
    await this.views.fresh?.(info);
    await this.refresh();
    this.views.ready?.(info);
  }

  /**
   * Train the current model: until `steps` when it has not reached them, else without limit.
   * @param {{steps?: number, until?: number} & Record<string, any>} [opts] steps; or `until`, the
   *   step to stop at whatever the model reached; the rest goes to Session.play (speed, every)
   */
  play({ steps = 0, until = steps > this.step ? steps : 0, ...rest } = {}) {
    if (this.model) this.until = until;
    return this.model?.play({ until, ...rest });
  }

  /**
   * The rate a person reads: steps/s and tokens/s over the last seconds of training (null until
   * known), and the seconds left to the step play() stops at (null without one, or unknown).
   * @returns {{stepsPerS: number|null, tokensPerS: number|null, etaS: number|null}}
   */
  progress() {
    const stepsPerS = this.rate.stepsPerS;
    const perStep = tokensPerStep(this.model?.info?.config ?? {});
    return {
      stepsPerS,
      tokensPerS: stepsPerS === null || !perStep ? null : stepsPerS * perStep,
      etaS: this.playing ? this.rate.etaSeconds(this.step, this.until) : null,
    };
  }

  pause() {
    return this.model?.pause();
  }

  /**
   * n steps, then the inspection views. Resolves false when a pause or a reset stopped it first.
   * @param {number} [n]
   * @returns {Promise<boolean>}
   */
  async train(n = 1) {
    const r = await this.model?.train(n);
    await this.refresh();
    return !r?.cancelled;
  }

  /** Back to step 0 with the same seed. */
  async reset() {
    if (!this.model) return;
    const info = await this.model.reset();
    await this.fresh(info);
  }

  /**
   * The current model started or stopped (its 'state' event, or a caller that knows, e.g. after a
   * restore): timers, the final flush and refresh, and the views' `state` hook.
   * @param {StateDetail} detail
   */
  stateChanged(detail) {
    const { playing, reason } = detail;
    clearTimeout(this.timers.refresh);
    this.timers.refresh = 0;
    this.playing = playing;
    if (playing) {
      this.rate.start(detail.step ?? this.step, performance.now());
      if (this.flushMs && !this.timers.flush) this.timers.flush = setInterval(() => this.flush(), this.flushMs);
      this.#armRefresh();
    } else {
      this.rate.stop();
      this.flush();
      clearInterval(this.timers.flush);
      this.timers.flush = 0;
    }
    this.stalled = !playing && !STOP_REASONS.includes(reason);
    this.views.state?.({ step: this.step, ...detail, stalled: this.stalled });
    if (!playing) this.refresh();
  }

  /** @param {MetricsBatch} batch */
  #onMetrics(batch) {
    this.step = batch.step;
    this.rate.add(batch.step, performance.now());
    if (!this.flushMs) return this.views.metrics?.(batch);
    this.pending.steps.push(...batch.steps);
    this.pending.evals.push(...batch.evals);
    this.pending.step = batch.step;
    if (!this.timers.flush) this.flush();
  }

  /** Deliver the buffered metrics now (nothing when none arrived). */
  flush() {
    const batch = this.pending;
    if (!batch.steps.length && !batch.evals.length) return;
    this.pending = { steps: [], evals: [], step: batch.step };
    this.views.metrics?.(batch);
  }

  async #refreshOnce() {
    const model = this.model;
    if (!model || !this.views.inspect || this.disposed) return;
    const current = () => model === this.model && !this.disposed;
    const t0 = performance.now();
    const worker0 = model.inspectMs ?? 0;
    try {
      await this.views.inspect(model, current);
    } catch (err) {
      if (current() && !model.disposed) this.views.error?.(/** @type {Error} */ (err));
    }
    // The cost: the worker's time for the inspection(s), and the page's from the reply to the end.
    const t1 = performance.now();
    const worker = (model.inspectMs ?? 0) - worker0;
    const replied = model.inspectAt !== undefined && model.inspectAt >= t0 ? model.inspectAt : t0;
    this.inspectCost = worker + (t1 - replied);
    if (current()) this.#armRefresh();
  }

  // While training: the next refresh, at max(refreshMs, the budget after the last one's cost).
  #armRefresh() {
    clearTimeout(this.timers.refresh);
    this.timers.refresh = 0;
    if (!this.playing || !this.refreshMs || !this.views.inspect || this.disposed) return;
    const wait = Math.max(this.refreshMs, this.inspectCost * (1 / INSPECT_SHARE - 1));
    this.timers.refresh = setTimeout(() => {
      this.timers.refresh = 0;
      this.refresh();
    }, wait);
  }

  #stopTimers() {
    clearInterval(this.timers.flush);
    clearTimeout(this.timers.refresh);
    this.timers = { flush: 0, refresh: 0 };
  }

  /** Stop the timers and dispose the current model; later events and requests are ignored. */
  async dispose() {
    this.disposed = true;
    this.token++;
    this.#stopTimers();
    const model = this.model;
    this.model = null;
    await model?.dispose();
  }
}
