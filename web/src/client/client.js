// Promise API over one worker: each call posts {id, cmd, args} and resolves with the reply.
import { bestVariant } from './simd-support.js';

export class PlaygroundClient {
  constructor() {
    this.worker = new Worker(new URL('../worker/worker.js', import.meta.url), { type: 'module' });
    this.nextId = 1;
    this.pending = new Map();
    this.worker.onmessage = (e) => this.#onMessage(e.data);
    this.worker.onerror = (e) => this.#failAll(new Error(`worker error: ${e.message ?? 'unknown'}`));
  }

  #onMessage(msg) {
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

  /** Send one command; resolves with its result. */
  call(cmd, args) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, cmd, args });
    });
  }

  /** Load the best module variant this browser supports (or the one asked for). */
  init(variant = bestVariant()) {
    return this.call('init', { variant });
  }

  dispose() {
    this.worker.terminate();
    this.#failAll(new Error('client disposed'));
  }
}
