// One model training in a worker, seen from the page: promise methods plus events.
// Events: 'metrics' (detail {steps, evals, step}) after every chunk of training, and 'state'
// (detail {playing, step, reason}) when training starts or stops ('done', 'paused', or an error).

export class Model extends EventTarget {
  /**
   * @param {import('./client.js').EngineClient} client
   * @param {number} sid the session id inside the worker
   * @param {import('../wasm-api').SessionInfo} info
   */
  constructor(client, sid, info) {
    super();
    this.client = client;
    this.sid = sid;
    this.info = info;
    this.playing = false;
    this.disposed = false;
  }

  #call(cmd, args = {}, transfer) {
    if (this.disposed) return Promise.reject(new Error('model disposed'));
    return this.client.call(cmd, { sid: this.sid, ...args }, transfer);
  }

  /** @internal called by the client with the worker's events for this model */
  _onEvent(msg) {
    if (msg.event === 'metrics') {
      this.dispatchEvent(new CustomEvent('metrics', { detail: { steps: msg.steps, evals: msg.evals, step: msg.step } }));
    } else if (msg.event === 'state') {
      this.#setPlaying(msg.playing, msg.step, msg.reason);
    }
  }

  #setPlaying(playing, step, reason) {
    this.playing = playing;
    this.dispatchEvent(new CustomEvent('state', { detail: { playing, step, reason } }));
  }

  /**
   * Train until paused (or until step `until`), in chunks; metrics arrive as events.
   * @param {{until?: number, speed?: number, every?: number}} opts speed: steps per frame (0 = as
   *   fast as the page stays responsive); every: post every k-th step's metrics
   */
  async play(opts = {}) {
    const r = await this.#call('play', opts);
    this.#setPlaying(true, r.step, 'play');
    return r;
  }

  /** Stop after the current chunk. Resolves with {step}. */
  async pause() {
    const r = await this.#call('pause');
    if (this.playing) this.#setPlaying(false, r.step, 'paused');
    return r;
  }

  /** Train n steps now (metrics arrive as an event too). Resolves with {step}. */
  step(n = 1) {
    return this.#call('step', { n });
  }

  /** Start over from the same config and seed. Resolves with the new info. */
  async reset() {
    this.info = await this.#call('reset');
    if (this.playing) this.#setPlaying(false, 0, 'reset');
    return this.info;
  }

  /** Held-out metrics at `length` (0 = seq_len). */
  evaluate(length = 0) {
    return this.#call('evaluate', { length });
  }

  /**
   * What the model looks like now; each part only when asked for.
   * @param {{attention?: {length?: number, example?: number}, predictions?: {n?: number, length?: number},
   *   positions?: {length?: number}, info?: boolean}} parts
   */
  snapshot(parts) {
    return this.#call('snapshot', parts);
  }

  /** Forward pass on token ids (anchors included): {tokens, layers, probs, hidden}. */
  run(ids) {
    return this.#call('run', { ids });
  }

  /** @returns {Promise<Uint8Array>} the model as a safetensors file */
  exportModel() {
    return this.#call('exportModel');
  }

  /** Replace this model by one from a safetensors file. Resolves with the new info. */
  async importModel(bytes) {
    const copy = bytes.slice();
    const { info } = await this.#call('importModel', { bytes: copy }, [copy.buffer]);
    this.info = info;
    if (this.playing) this.#setPlaying(false, info.step, 'import');
    return info;
  }

  /** Free the session in the worker. */
  async dispose() {
    if (this.disposed) return;
    await this.#call('dispose').catch(() => {});
    this.disposed = true;
    this.client.models.delete(this.sid);
  }
}
