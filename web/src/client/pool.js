// A pool of engine workers for pages that train several models at once. Each model runs
// single-threaded inside one worker (no SharedArrayBuffer, no COOP/COEP); the pool starts
// workers lazily, up to navigator.hardwareConcurrency, and puts a new model on the least busy one.
import { EngineClient } from './client.js';

export class WorkerPool {
  /** @param {{size?: number, variant?: 'simd'|'scalar'}} [opts] */
  constructor({ size = navigator.hardwareConcurrency || 2, variant } = {}) {
    this.size = Math.max(1, size);
    this.variant = variant;
    /** @type {EngineClient[]} */
    this.clients = [];
    this.reserved = new Map(); // client -> models being created on it
  }

  #load(c) {
    return c.load + (this.reserved.get(c) ?? 0);
  }

  /** The worker with the fewest models (a new one while the pool is not full); not yet started. */
  client() {
    const idle = this.clients.find((c) => this.#load(c) === 0);
    let c = idle;
    if (!c && this.clients.length < this.size) {
      c = new EngineClient();
      this.clients.push(c);
    }
    c ??= this.clients.reduce((a, b) => (this.#load(b) < this.#load(a) ? b : a));
    return c;
  }

  /** Engine info ({variant, version, simdArch}) of the pool's first worker. */
  async engine() {
    return (this.clients[0] ?? this.client()).init(this.variant);
  }

  /** @returns {Promise<import('./model.js').Model>} a new model on the least busy worker */
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
