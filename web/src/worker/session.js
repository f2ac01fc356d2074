// One training session inside the worker (ModuleSession): the worker's side of the one session
// (ap::Session in core/session/session.hpp, module.Session through Embind, EngineSession on the
// page: client/session.js). Owns the Embind Session
// handle (deleted on reset, load and dispose), parses the JSON the core returns, and trains in
// chunks sized by wall time: one chunk takes about TARGET_MS, so that a fast model posts a few
// messages per second rather than one per step, and a pause still answers within a chunk.
// No DOM, no messaging: worker.js does that.

import { pageRefusal } from '../common/refusal.js';
/** @typedef {import('../wasm-api').AttnplayModule} AttnplayModule */
/** @typedef {import('../wasm-api').Session} CoreSession the Embind handle of the core's Session */
/** @typedef {import('../wasm-api').Config} Config */
/** @typedef {import('../wasm-api').SessionInfo} SessionInfo */
/** @typedef {import('../wasm-api').StepMetrics} StepMetrics */
/** @typedef {import('../wasm-api').EvalMetrics} EvalMetrics */
/** @typedef {import('../wasm-api').TrainResult} TrainResult */

/**
 * The parts of an inspection (what the views draw): each only when asked for.
 * @typedef {{attention?: {length?: number, example?: number}, predictions?: {n?: number, length?: number},
 *   positions?: {length?: number}, explore?: import('../wasm-api').ExploreRequest, info?: boolean}} InspectParts
 */

/**
 * What one chunk of training posts: the kept metrics, the new evaluations, the step reached,
 * and why training stopped by itself (a refused step's message), else null.
 * @typedef {{steps: StepMetrics[], evals: EvalMetrics[], step: number, refused: string|null}} ChunkResult
 */

/**
 * What a reply carries in place of a config's `text` (the training text, up to 2 MiB): the text
 * stays in the worker, which the page sent it to; the page puts its own copy back (client/).
 * @typedef {{kept: true, size: number, fnv1a: string}} TextRef
 */

/** @type {{text: string, ref: TextRef}|null} the last text described (a session keeps its text) */
let described = null;

/**
 * A config as replies carry it: a non-empty `text` becomes its TextRef (size in UTF-16 units, and
 * an FNV-1a hash, computed once per text).
 * @param {Config} config
 * @returns {Config}
 */
export function leanConfig(config) {
  const text = config?.text;
  if (typeof text !== 'string' || text === '') return config;
  if (described?.text !== text) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    described = { text, ref: { kept: true, size: text.length, fnv1a: (h >>> 0).toString(16).padStart(8, '0') } };
  }
  return { ...config, text: /** @type {any} */ (described.ref) };
}

/**
 * An info as replies carry it (leanConfig on its config).
 * @param {SessionInfo} info
 * @returns {SessionInfo}
 */
export const leanInfo = (info) => ({ ...info, config: leanConfig(info.config) });

/** The wall time one chunk of training aims at (ms). */
export const TARGET_MS = 75;
const MAX_CHUNK = 2000;

export class ModuleSession {
  /**
   * @param {AttnplayModule} mod
   * @param {CoreSession} core an Embind Session this one now owns
   */
  constructor(mod, core) {
    this.mod = mod;
    /** @type {CoreSession|null} */
    this.core = core;
    const info = /** @type {SessionInfo} */ (JSON.parse(core.info()));
    /** @type {SessionInfo|null} the info parsed once, kept until the session changes */
    this.known = info;
    /** @type {Config} */
    this.config = info.config;
    this.playing = false;
    this.until = 0; // stop when stepsDone() reaches this (0 = never)
    this.speed = 0; // steps per chunk (0 = adaptive)
    this.every = 1; // post every k-th step's metrics (the last of a chunk always)
    this.msPerStep = TARGET_MS; // running estimate: the first chunk is one step, which measures it
    this.measured = false; // whether msPerStep comes from a chunk yet
    this.halts = 0; // pauses and resets so far: a train(n) under way stops when this changes
  }

  /** The Embind handle; throws once disposed. */
  get live() {
    if (!this.core) throw pageRefusal('page.session_disposed');
    return this.core;
  }

  /**
   * A session from a plain config object.
   * @param {AttnplayModule} mod
   * @param {Config} config
   */
  static create(mod, config) {
    return new ModuleSession(mod, new mod.Session(JSON.stringify(config)));
  }

  /**
   * A session loaded from safetensors bytes.
   * @param {AttnplayModule} mod
   * @param {Uint8Array} bytes
   */
  static load(mod, bytes) {
    return new ModuleSession(mod, mod.Session.load(bytes));
  }

  /**
   * A session loaded from safetensors bytes with config fields replaced (evaluation-time options
   * such as RoPE scaling: `{rope_scaling: 'ntk', rope_factor: 2}`).
   * @param {AttnplayModule} mod
   * @param {Uint8Array} bytes
   * @param {Config} overrides
   */
  static loadWith(mod, bytes, overrides) {
    return new ModuleSession(mod, mod.Session.loadWith(bytes, JSON.stringify(overrides)));
  }

  /** Replace the core session by a fresh one from the same config (same seed: same run). */
  reset() {
    const fresh = new this.mod.Session(JSON.stringify(this.config));
    this.live.delete();
    this.core = fresh;
    this.known = null;
    this.playing = false;
  }

  /**
   * Replace the core session by one loaded from safetensors bytes; the config follows the file.
   * @param {Uint8Array} bytes
   */
  load(bytes) {
    const loaded = this.mod.Session.load(bytes);
    this.live.delete();
    this.core = loaded;
    this.known = null;
    this.config = this.info().config;
    this.playing = false;
  }

  /**
   * The info, parsed from the core's JSON only when the session changed since the last time.
   * @returns {SessionInfo}
   */
  info() {
    const core = this.live; // throws once disposed
    const info = this.known ?? /** @type {SessionInfo} */ (JSON.parse(core.info()));
    this.known = info;
    return info;
  }

  /**
   * Change optimizer fields of the live session (the registry's live_keys); a later reset()
   * starts from the changed config. Throws (naming the field) when not allowed.
   * @param {Config} fields
   * @returns {Config} the whole config after the change
   */
  configure(fields) {
    this.config = JSON.parse(this.live.configure(JSON.stringify(fields)));
    this.known = null;
    return this.config;
  }

  /** @returns {number} steps done */
  stepsDone() {
    return this.live.stepsDone();
  }

  /** How many steps take about TARGET_MS (at least 1). */
  adaptiveChunk() {
    return Math.max(1, Math.min(MAX_CHUNK, Math.floor(TARGET_MS / this.msPerStep)));
  }

  /** How many steps the next chunk of play should take. */
  chunkSize() {
    const adaptive = this.adaptiveChunk();
    let n = this.speed > 0 ? Math.min(this.speed, adaptive) : adaptive;
    if (this.until > 0) n = Math.min(n, this.until - this.stepsDone());
    return Math.max(0, n);
  }

  /**
   * Train n steps now (the core's Session::train_chunk). Returns the metrics to post (thinned to
   * every k-th step) and whether training stopped on its own (a refused step).
   * @param {number} n
   * @returns {ChunkResult}
   */
  trainChunk(n) {
    const t0 = performance.now();
    /** @type {TrainResult} */
    const { steps, evals } = JSON.parse(this.live.trainChunk(n));
    this.known = null;
    const ms = performance.now() - t0;
    if (steps.length > 0) {
      const per = ms / steps.length;
      this.msPerStep = this.measured ? 0.7 * this.msPerStep + 0.3 * per : per;
      this.measured = true;
    }
    const last = steps[steps.length - 1];
    const kept = this.every > 1 ? steps.filter((s, i) => s.step % this.every === 0 || i === steps.length - 1) : steps;
    return {
      steps: kept,
      evals,
      step: this.stepsDone(),
      refused: last?.refused ? last.message || 'a step was refused' : null,
    };
  }

  /**
   * Inspection data; each part only when asked for. `ms`: the time it took here, which the page
   * counts against its inspection budget (run/run-controller.js).
   * @param {InspectParts} [parts]
   */
  inspect({ attention, predictions, positions, explore, info } = {}) {
    const t0 = performance.now();
    const s = this.live;
    /** @type {{step: number, ms: number, attention?: import('../wasm-api').RunResult,
     *   predictions?: import('../wasm-api').Predictions, positions?: import('../wasm-api').PositionDisplay,
     *   explore?: import('../wasm-api').ExploreData, info?: SessionInfo}} */
    const out = { step: s.stepsDone(), ms: 0 };
    if (attention) out.attention = JSON.parse(s.attention(attention.length ?? 0, attention.example ?? 0));
    if (predictions) out.predictions = JSON.parse(s.predictions(predictions.n ?? 4, predictions.length ?? 0));
    if (positions) out.positions = JSON.parse(s.positions(positions.length ?? 0));
    if (explore) out.explore = JSON.parse(s.explore(JSON.stringify(explore)));
    if (info) out.info = leanInfo(this.info());
    out.ms = performance.now() - t0;
    return out;
  }

  /**
   * Evaluate with head interventions (evaluation only: the weights and training are untouched).
   * The list replaces the core's; an empty one clears it. Each field crosses only when declared
   * (the core refuses unknown ones, naming them).
   * @param {import('../wasm-api').Intervention[]} list
   * @param {number} n held-out examples whose predictions come both ways (0..64)
   * @returns {import('../wasm-api').InterventionResult}
   */
  intervene(list, n) {
    const s = this.live;
    if (!Array.isArray(list)) throw new Error('intervene: expected an array of interventions');
    if (list.length === 0) s.clearInterventions();
    else s.setInterventions(JSON.stringify(list));
    return JSON.parse(s.intervened(n));
  }

  /** @returns {string} the model as one PyTorch file (Python source; core/torch/export.hpp) */
  exportTorch() {
    return this.live.exportTorch();
  }

  /** @returns {Uint8Array} safetensors bytes, copied into a buffer the worker can transfer */
  save() {
    return this.live.save().slice();
  }

  dispose() {
    this.core?.delete();
    this.core = null;
    this.known = null;
    this.playing = false;
  }
}
