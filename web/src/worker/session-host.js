// One training session inside the worker: owns the Embind Session handle (deleted on reset,
// load and dispose), parses the JSON the core returns, and trains in chunks whose size adapts so
// that one chunk takes about `targetMs`. No DOM, no messaging: worker.js does that.

/** @typedef {import('../wasm-api').AttnplayModule} AttnplayModule */

const TARGET_MS = 25;
const MAX_CHUNK = 2000;

export class SessionHost {
  /**
   * @param {AttnplayModule} mod
   * @param {object} session an Embind Session this host now owns
   */
  constructor(mod, session) {
    this.mod = mod;
    this.session = session;
    this.config = JSON.parse(session.info()).config;
    this.playing = false;
    this.until = 0; // stop when step() reaches this (0 = never)
    this.speed = 0; // steps per chunk (0 = adaptive)
    this.every = 1; // post every k-th step's metrics (the last of a chunk always)
    this.msPerStep = 5; // running estimate
  }

  /** A host for a new session from a plain config object. */
  static create(mod, config) {
    return new SessionHost(mod, new mod.Session(JSON.stringify(config)));
  }

  /** A host for a session loaded from safetensors bytes. */
  static load(mod, bytes) {
    return new SessionHost(mod, mod.Session.load(bytes));
  }

  /**
   * A host for a session loaded from safetensors bytes with config fields replaced (evaluation-time
   * options such as RoPE scaling: `{rope_scaling: 'ntk', rope_factor: 2}`).
   */
  static loadWith(mod, bytes, overrides) {
    return new SessionHost(mod, mod.Session.loadWith(bytes, JSON.stringify(overrides)));
  }

  /** Replace the session by a fresh one from the same config (same seed: same run). */
  reset() {
    const fresh = new this.mod.Session(JSON.stringify(this.config));
    this.session.delete();
    this.session = fresh;
    this.playing = false;
  }

  /** Replace the session by one loaded from safetensors bytes; the config follows the file. */
  load(bytes) {
    const loaded = this.mod.Session.load(bytes);
    this.session.delete();
    this.session = loaded;
    this.config = this.info().config;
    this.playing = false;
  }

  info() {
    return JSON.parse(this.session.info());
  }

  /**
   * Change optimizer fields of the live session (lr, clip, warmup, schedule, weight_decay, steps);
   * a later reset() starts from the changed config. Throws (naming the field) when not allowed.
   * @returns {object} the whole config after the change
   */
  configure(fields) {
    this.config = JSON.parse(this.session.configure(JSON.stringify(fields)));
    return this.config;
  }

  step() {
    return this.session.step();
  }

  /** How many steps take about TARGET_MS (at least 1). */
  adaptiveChunk() {
    return Math.max(1, Math.min(MAX_CHUNK, Math.floor(TARGET_MS / this.msPerStep)));
  }

  /** How many steps the next chunk of play should take. */
  chunkSize() {
    const adaptive = this.adaptiveChunk();
    let n = this.speed > 0 ? Math.min(this.speed, adaptive) : adaptive;
    if (this.until > 0) n = Math.min(n, this.until - this.step());
    return Math.max(0, n);
  }

  /**
   * Train n steps now. Returns the metrics to post (thinned to every k-th step) and whether
   * training stopped on its own (a refused step).
   */
  train(n) {
    const t0 = performance.now();
    const { steps, evals } = JSON.parse(this.session.train(n));
    const ms = performance.now() - t0;
    if (steps.length > 0) this.msPerStep = 0.7 * this.msPerStep + 0.3 * (ms / steps.length);
    const last = steps[steps.length - 1];
    const kept = this.every > 1 ? steps.filter((s, i) => s.step % this.every === 0 || i === steps.length - 1) : steps;
    return { steps: kept, evals, step: this.step(), refused: last?.refused ? last.message || 'a step was refused' : null };
  }

  /** Inspection data; each part only when asked for. */
  snapshot({ attention, predictions, positions, info } = {}) {
    const s = this.session;
    const out = { step: s.step() };
    if (attention) out.attention = JSON.parse(s.attention(attention.length ?? 0, attention.example ?? 0));
    if (predictions) out.predictions = JSON.parse(s.predictions(predictions.n ?? 4, predictions.length ?? 0));
    if (positions) out.positions = JSON.parse(s.positions(positions.length ?? 0));
    if (info) out.info = this.info();
    return out;
  }

  /** safetensors bytes, copied into a buffer the worker can transfer. */
  save() {
    return this.session.save().slice();
  }

  dispose() {
    this.session.delete();
    this.session = null;
    this.playing = false;
  }
}
