// One training session, seen from the page (EngineSession). The one session has one name per
// layer: ap::Session in C++ (core/session/session.hpp), module.Session through Embind (the same
// object), ModuleSession in the worker (worker/session.js), EngineSession here. Promise methods
// plus events.
// Events: 'metrics' (detail {steps, evals, step}) after every chunk of training; 'state'
// (detail {playing, step, reason}) when training starts or stops ('done', 'paused', or an error);
// 'restored' (detail {playing, step, fromCheckpoint}) after the client recreated it in a new
// worker (see client.js): a model that was training trains on from there (and also fires 'state'
// with reason 'restored'), one that was not stays paused; and 'checkpoint' (detail {bytes, step})
// when a new checkpoint was kept.
// Three things that were all called "snapshot" have a name each: a checkpoint is the model file
// this session keeps on the page to recover from a crash; inspect() asks for what the views draw;
// a replay frame is what the core keeps for the replay (replayIndex, replayFrame).
// While it trains, the session keeps a checkpoint (its safetensors bytes, on the main thread) at
// most every CHECKPOINT_MS and whenever training stops (done, paused, refused, after step()), so
// that a crashed worker or a reload loses little.

import { pageRefusal } from '../common/refusal.js';
/** Minimum time between two checkpoints while training (ms). */
export const CHECKPOINT_MS = 5000;

/** @typedef {import('../wasm-api').SessionInfo} SessionInfo */
/** @typedef {import('../wasm-api').Config} Config */
/** @typedef {import('../worker/protocol.js').Command} Command */
/** @typedef {import('../worker/session.js').InspectParts} InspectParts */
/** @typedef {{until?: number, speed?: number, every?: number}} PlayOptions */

/**
 * A config from a reply with the page's own copy of its text put back: replies carry a TextRef
 * ({kept, size, fnv1a}) in place of a text the page sent (worker/protocol.js).
 * @param {Config} config
 * @param {unknown} text the text the page sent for this session
 * @returns {Config}
 */
export function withText(config, text) {
  const ref = /** @type {any} */ (config)?.text;
  if (ref === null || typeof ref !== 'object') return config;
  if (typeof text !== 'string' || text.length !== ref.size)
    throw new Error(`client: the engine keeps a training text (${ref.size} characters) that this page does not have`);
  return { ...config, text };
}

/**
 * The same for an info.
 * @param {SessionInfo} info
 * @param {unknown} text
 * @returns {SessionInfo}
 */
export const infoWithText = (info, text) => ({ ...info, config: withText(info.config, text) });

export class EngineSession extends EventTarget {
  /**
   * @param {import('./client.js').EngineClient} client
   * @param {number} sid the session id inside the worker
   * @param {SessionInfo} info
   */
  constructor(client, sid, info) {
    super();
    this.client = client;
    this.sid = sid;
    this.info = info;
    this.playing = false;
    /** @type {PlayOptions|null} the options of the last play(), to train on after a recovery */
    this.playOpts = null;
    this.lastStep = info.step; // the last step the worker reported
    this.disposed = false;
    /** @type {Uint8Array|null} the last checkpoint (model file bytes) */
    this.checkpointBytes = null;
    this.checkpointAt = 0;
    /** @type {Promise<Uint8Array|null>|null} */
    this.checkpointing = null;
    /** @type {Promise<Uint8Array|null>|null} the checkpoint queued after the one being taken */
    this.checkpointNext = null;
    this.inspectMs = 0; // the worker's time spent on inspect() so far (ms)
    this.inspectAt = 0; // performance.now() when the last inspect() reply arrived
  }

  /**
   * Keep a checkpoint now (unless one is being taken); resolves with the bytes or null.
   * @param {{after?: boolean}} [opts] after: when one is being taken, take one more after it (the
   *   weights changed since it was asked for: training stopped); at most one waits
   * @returns {Promise<Uint8Array|null>}
   */
  keepCheckpoint({ after = false } = {}) {
    if (this.disposed) return Promise.resolve(null);
    if (this.checkpointing && after) {
      this.checkpointNext ??= this.checkpointing.then(() => {
        this.checkpointNext = null;
        return this.keepCheckpoint();
      });
      return this.checkpointNext;
    }
    this.checkpointing ??= this.exportModel()
      .then((bytes) => {
        this.checkpointBytes = bytes;
        this.checkpointAt = Date.now();
        // Replies and events keep their order: the last step reported is the checkpoint's.
        if (bytes) this.dispatchEvent(new CustomEvent('checkpoint', { detail: { bytes, step: this.lastStep } }));
        return bytes;
      })
      .catch(() => null)
      .finally(() => {
        this.checkpointing = null;
      });
    return this.checkpointing;
  }

  /**
   * @internal called by the client after a crash: recreate this model in the new worker from its
   * last checkpoint, or from its config (step 0) when it has none.
   */
  async _restore() {
    const resume = this.playing ? this.playOpts : null;
    const bytes = this.checkpointBytes;
    const fromCheckpoint = Boolean(bytes);
    /** @type {{sid: number, info: SessionInfo}} */
    let r;
    if (bytes) {
      const copy = bytes.slice();
      r = await this.client._post('importModel', { bytes: copy }, [copy.buffer]);
    } else {
      r = await this.client._post('create', { config: this.info.config });
      if ('error' in r) throw new Error(/** @type {any} */ (r).error);
      r = { ...r, info: infoWithText(r.info, this.info.config.text) };
    }
    this.client._rebind(this, r.sid);
    this.info = r.info;
    this.lastStep = r.info.step;
    this.playing = false;
    if (resume) {
      await this.client._post('play', { sid: this.sid, ...resume }); // the worker says 'done' if it is
      this.playing = true;
    }
    const detail = { playing: this.playing, step: this.lastStep, reason: 'restored', fromCheckpoint };
    this.dispatchEvent(new CustomEvent('restored', { detail }));
    if (resume) this.dispatchEvent(new CustomEvent('state', { detail }));
  }

  /**
   * The session id is read when the call goes out: a recovery may change it meanwhile.
   * @param {Command} cmd
   * @param {object} [args]
   * @param {Transferable[]} [transfer]
   * @returns {Promise<any>}
   */
  #call(cmd, args = {}, transfer) {
    if (this.disposed) return Promise.reject(pageRefusal('page.model_disposed'));
    return this.client.call(cmd, () => ({ sid: this.sid, ...args }), transfer);
  }

  /**
   * @internal called by the client with the worker's events for this session
   * @param {{event?: string, [key: string]: any}} msg
   */
  _onEvent(msg) {
    if (msg.event === 'metrics') {
      this.lastStep = msg.step;
      this.dispatchEvent(
        new CustomEvent('metrics', { detail: { steps: msg.steps, evals: msg.evals, step: msg.step } }),
      );
      if (Date.now() - this.checkpointAt >= CHECKPOINT_MS) this.keepCheckpoint();
    } else if (msg.event === 'state') {
      this.lastStep = msg.step;
      this.#setPlaying(msg.playing, msg.step, msg.reason);
      if (!msg.playing) this.keepCheckpoint({ after: true }); // a refused step keeps the last good weights: keep them too
    }
  }

  /**
   * @param {boolean} playing
   * @param {number} step
   * @param {string} reason
   */
  #setPlaying(playing, step, reason) {
    this.playing = playing;
    this.dispatchEvent(new CustomEvent('state', { detail: { playing, step, reason } }));
  }

  /**
   * Train until paused (or until step `until`), in chunks; metrics arrive as events.
   * @param {PlayOptions} opts speed: steps per frame (0 = as
   *   fast as the page stays responsive); every: post every k-th step's metrics
   */
  async play(opts = {}) {
    this.playOpts = { ...opts };
    const r = await this.#call('play', opts);
    this.#setPlaying(true, r.step, 'play');
    return r;
  }

  /** Stop after the current chunk, a train(n) under way too, and keep a checkpoint of where it stopped. Resolves with {step}. */
  async pause() {
    const r = await this.#call('pause');
    this.lastStep = r.step;
    if (this.playing) {
      this.#setPlaying(false, r.step, 'paused');
      this.keepCheckpoint({ after: true });
    }
    return r;
  }

  /**
   * Train n steps now (metrics arrive as an event too), then keep a checkpoint. Resolves with {step},
   * and cancelled: true when a pause() or reset() stopped it before the n steps (the worker drops
   * the rest).
   * @returns {Promise<{step: number, cancelled?: boolean}>}
   */
  async train(n = 1) {
    const r = await this.#call('train', { n });
    this.lastStep = r.step ?? this.lastStep;
    this.keepCheckpoint({ after: true });
    return r;
  }

  /**
   * Change optimizer fields of the live model (lr, clip, warmup, schedule, weight_decay, steps),
   * e.g. after training stopped on NaN/Inf: the weights and step are kept, play() continues.
   * Rejects with the core's message (naming the field) when the change is not allowed.
   * @param {{lr?: number, clip?: number, warmup?: number, schedule?: string, weight_decay?: number, steps?: number}} fields
   * @returns {Promise<Config>} the whole config after the change
   */
  async configure(fields) {
    const config = withText(await this.#call('configure', { fields }), this.info.config.text);
    this.info = { ...this.info, config };
    this.keepCheckpoint(); // the file holds the config: a restore must not bring the old lr back
    return config;
  }

  /** Start over from the same config and seed. Resolves with the new info. */
  async reset() {
    this.info = infoWithText(await this.#call('reset'), this.info.config.text);
    this.lastStep = this.info.step;
    this.checkpointBytes = null; // the old run's weights must not come back after a crash
    if (this.playing) this.#setPlaying(false, 0, 'reset');
    return this.info;
  }

  /** Held-out metrics at `length` (0 = seq_len). */
  evaluate(length = 0) {
    return this.#call('evaluate', { length });
  }

  /**
   * Held-out loss, accuracy and the predictions of n examples with and without head
   * interventions (zero, uniform, previous, position, offset, patch; see wasm-api.d.ts
   * Intervention). Evaluation only: training and the weights are untouched; an empty list clears
   * them, and so does reset(). Rejects with the core's message naming a bad field.
   * @param {import('../wasm-api').Intervention[]} interventions
   * @param {number} [n]
   * @returns {Promise<import('../wasm-api').InterventionResult>}
   */
  intervene(interventions, n = 4) {
    return this.#call('intervene', { interventions, n });
  }

  /**
   * What the model looks like now; each part only when asked for. Counts the worker's time for it
   * in `inspectMs` (the run controller's inspection budget).
   * @param {InspectParts} parts
   */
  async inspect(parts) {
    const snap = await this.#call('inspect', parts);
    if (snap.info) snap.info = infoWithText(snap.info, this.info.config.text);
    this.inspectMs += snap.ms ?? 0;
    this.inspectAt = performance.now();
    return snap;
  }

  /**
   * The replay's index: the steps that have a frame (log-spaced, at most 64, the latest last).
   * @returns {Promise<import('../wasm-api').ReplayIndex>}
   */
  replayIndex() {
    return this.#call('replayIndex');
  }

  /**
   * One replay frame (attention, positions and prediction of held-out example 0) at a step of
   * replayIndex().steps.
   * @param {number} step
   * @returns {Promise<import('../wasm-api').ReplayFrame>}
   */
  replayFrame(step) {
    return this.#call('replayFrame', { step });
  }

  /**
   * What each head does at a replay step (-1: the latest): measures and labels with their
   * evidence and thresholds; with `history`, each measure over the replay's steps too.
   * @param {number} [step]
   * @param {boolean} [history]
   * @returns {Promise<{diagnostics: import('../wasm-api').HeadDiagnostics, history?: import('../wasm-api').HeadHistory}>}
   */
  heads(step = -1, history = false) {
    return this.#call('heads', { step, history });
  }

  /**
   * Forward pass on token ids (anchors included): {tokens, layers, probs, hidden}.
   * @param {number[]} ids
   * @returns {Promise<import('../wasm-api').RunResult>}
   */
  run(ids) {
    return this.#call('run', { ids });
  }

  /**
   * Continue a prompt (text: characters, or space-separated token names).
   * @param {string} prompt
   * @param {{maxNew?: number, temperature?: number, topK?: number, seed?: number}} [options]
   * @returns {Promise<{mode: 'next_token'|'slots', ids: number[], tokens: string[], probs: number[], text: string}>}
   */
  generate(prompt, { maxNew = 32, temperature = 1, topK = 0, seed = 1 } = {}) {
    return this.#call('generate', { prompt, maxNew, temperature, topK, seed });
  }

  /** @returns {Promise<string>} the model as one standalone PyTorch file (Python source) */
  exportTorch() {
    return this.#call('exportTorch');
  }

  /** @returns {Promise<Uint8Array>} the model as a safetensors file */
  exportModel() {
    return this.#call('exportModel');
  }

  /**
   * Replace this model by one from a safetensors file. Resolves with the new info.
   * @param {Uint8Array} bytes
   * @returns {Promise<SessionInfo>}
   */
  async importModel(bytes) {
    const copy = bytes.slice();
    const { info } = await this.#call('importModel', { bytes: copy }, [copy.buffer]);
    this.info = info;
    this.lastStep = info.step;
    this.checkpointBytes = bytes.slice();
    if (this.playing) this.#setPlaying(false, info.step, 'import');
    return info;
  }

  /**
   * A new model (same worker) from this one's current weights with config fields replaced, e.g.
   * {rope_scaling: 'ntk', rope_factor: 2} to evaluate with RoPE scaling. Dispose it when done.
   * @param {Config} overrides
   * @returns {Promise<EngineSession>}
   */
  derive(overrides) {
    if (this.disposed) return Promise.reject(pageRefusal('page.model_disposed'));
    return this.client.derive(this.sid, overrides, overrides.text ?? this.info.config.text);
  }

  /** Free the session in the worker. */
  async dispose() {
    if (this.disposed) return;
    await this.#call('dispose').catch(() => {});
    this.disposed = true;
    this.client.models.delete(this.sid);
  }
}
