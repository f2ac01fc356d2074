// A pool of engine workers for pages that train several models at once. Each model runs
// single-threaded inside one worker (no SharedArrayBuffer, no COOP/COEP); the pool starts
// workers lazily, up to navigator.hardwareConcurrency, and puts a new model on the least busy one.
// Each worker recovers from its own crash (client.js); the pool passes its 'crash' and
// 'recovered' events on (detail as the client's, plus `client`), so that a page can say so, and
// gives no new model to a worker that was not restarted.
import { EngineClient } from './client.js';

export class WorkerPool extends EventTarget {
  /** @param {{size?: number, variant?: 'threads'|'simd'|'scalar'}} [opts] */
  constructor({ size = navigator.hardwareConcurrency || 2, variant } = {}) {
    super();
    this.size = Math.max(1, size);
    this.variant = variant;
    /** @type {EngineClient[]} */
    this.clients = [];
    this.reserved = new Map(); // client -> models being created on it
  }

  /** @param {EngineClient} c */
  #load(c) {
    return c.load + (this.reserved.get(c) ?? 0);
  }

  #add() {
    const c = new EngineClient();
    for (const type of ['crash', 'recovered'])
      c.addEventListener(type, (e) =>
        this.dispatchEvent(new CustomEvent(type, { detail: { .../** @type {CustomEvent} */ (e).detail, client: c } })),
      );
    this.clients.push(c);
    return c;
  }

  /** The worker with the fewest models (a new one while the pool is not full); not yet started. */
  client() {
    const live = this.clients.filter((c) => !c.dead);
    let c = live.find((x) => this.#load(x) === 0);
    if (!c && live.length < this.size) c = this.#add();
    c ??= live.reduce((a, b) => (this.#load(b) < this.#load(a) ? b : a));
    return c;
  }

  /** Engine info ({variant, version, simdArch}) of the pool's first live worker. */
  async engine() {
    return this.#first().init(this.variant);
  }

  /**
   * Check a config (Session.checkConfig) on a live worker.
   * @param {import('../wasm-api').Config} config
   */
  async checkConfig(config) {
    const c = this.#first();
    await c.init(this.variant);
    return c.checkConfig(config);
  }

  #first() {
    return this.clients.find((c) => !c.dead) ?? this.client();
  }

  /**
   * @param {import('../wasm-api').Config} config
   * @returns {Promise<import('./session.js').EngineSession>} a new session on the least busy worker
   */
  async create(config) {
    const c = this.client();
    this.reserved.set(c, (this.reserved.get(c) ?? 0) + 1);
    try {
      await c.init(this.variant);
      return await c.create(config);
    } finally {
      this.reserved.set(c, this.reserved.get(c) - 1);
    }
  }

  /** Stop every worker. */
  dispose() {
    for (const c of this.clients) c.dispose();
    this.clients = [];
  }
}
