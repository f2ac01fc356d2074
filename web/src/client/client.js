// Promise API over one worker that owns one wasm module instance. Each call posts
// {id, cmd, args} and resolves with the reply; events the worker posts on its own (metrics,
// state) are routed to the Model they belong to. Pages and widgets use this, never the worker.
import { bestVariant } from './simd-support.js';
import { Model } from './model.js';

export class EngineClient {
  /** Starts the worker; call init() before anything else. */
  constructor() {
    this.worker = new Worker(new URL('../worker/worker.js', import.meta.url), { type: 'module' });
    this.nextId = 1;
    this.pending = new Map();
    /** @type {Map<number, Model>} */
    this.models = new Map();
    this.engine = null;
    this.worker.onmessage = (e) => this.#onMessage(e.data);
    this.worker.onerror = (e) => this.#failAll(new Error(`worker error: ${e.message ?? 'unknown'}`));
  }

  #onMessage(msg) {
    if (msg.event) {
      this.models.get(msg.sid)?._onEvent(msg);
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.result);
    else p.reject(new Error(msg.error));
  }

  #failAll(err) {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  /**
   * Send one command; resolves with its result.
   * @param {string} cmd
   * @param {object} [args]
   * @param {Transferable[]} [transfer]
   */
  call(cmd, args, transfer = []) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, cmd, args }, transfer);
    });
  }

  /**
   * Load the best module variant this browser supports (or the one asked for).
   * @returns {Promise<{variant: 'simd'|'scalar', version: string, simdArch: string, simd: boolean}>}
   */
  async init(variant = bestVariant()) {
    this.engine ??= this.call('init', { variant });
    return this.engine;
  }

  /** @returns {Promise<import('../wasm-api').Registry>} tasks, encodings, normalizations, config schema */
  registry() {
    return this.call('registry');
  }

  /** @returns {Promise<import('../wasm-api').CheckResult>} whether the config is valid, and why not */
  checkConfig(config) {
    return this.call('checkConfig', { config });
  }

  /**
   * Create a model (a training session) from a plain config object.
   * @returns {Promise<Model>}
   */
  async create(config) {
    const { sid, info } = await this.call('create', { config });
    return this.#adopt(sid, info);
  }

  /**
   * Create a model from a safetensors file's bytes (the config comes from the file).
   * @param {Uint8Array} bytes
   * @returns {Promise<Model>}
   */
  async importModel(bytes) {
    const copy = bytes.slice();
    const { sid, info } = await this.call('importModel', { bytes: copy }, [copy.buffer]);
    return this.#adopt(sid, info);
  }

  #adopt(sid, info) {
    const m = new Model(this, sid, info);
    this.models.set(sid, m);
    return m;
  }

  /** Number of models living in this worker. */
  get load() {
    return this.models.size;
  }

  /** Stop the worker; every pending call rejects. */
  dispose() {
    this.worker.terminate();
    this.models.clear();
    this.#failAll(new Error('client disposed'));
  }
}
