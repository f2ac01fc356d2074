// Promise API over one worker that owns one wasm module instance. Each call posts
// {id, cmd, args} and resolves with the reply; events the worker posts on its own (metrics,
// state) are routed to the EngineSession they belong to (session.js). The command names are the
// worker's (worker/protocol.js). Pages and widgets use this, never the worker.
//
// Recovery: the worker counts as crashed when it dies (an 'error' event), when its module traps
// (a reply with fatal: true or a {event: 'fatal'} message), and when it is gone without a word
// (terminated by the browser, out of memory): the Watchdog notices that through a Web Lock the
// worker holds, or through its heartbeat going silent (see watchdog.js). Then pending calls
// reject with the reason, the client fires 'crash' ({error}), starts a new worker with the same
// module variant, recreates each of its models from the last checkpoint its EngineSession kept (or from
// its config when it has none; a model that was training trains on) and fires 'recovered'
// ({error, models}). Calls made meanwhile wait for the recovery and then go to the new worker. A
// worker that dies again during a recovery starts the recovery over; one that dies more than
// MAX_CRASHES_PER_MINUTE times a minute is not restarted ('crash' with final: true). Other
// clients (other widgets, other pool workers) are untouched.
import { bestVariant } from '../common/simd-support.js';
import { EngineSession, infoWithText } from './session.js';
import { Watchdog } from './watchdog.js';
import { OTHER, pageRefusal, refusalError } from '../common/refusal.js';

// Module workers must come from the page's origin. When this script was loaded from another one
// (say, the widget from a CDN), start the worker from a same-origin blob: module that imports it;
// its own imports (the wasm loader, the .wasm) still resolve against its real URL. Named Worker so
// that Vite still sees `new Worker(new URL(...), ...)` below and bundles the worker.
const Worker = /** @type {{new (url: URL, options?: WorkerOptions): globalThis.Worker}} */ (
  /** @type {unknown} */ (
    /**
     * @param {URL} url
     * @param {WorkerOptions} [options]
     */
    function Worker(url, options) {
      const u = new URL(url, location.href);
      if (u.origin === location.origin || u.protocol === 'blob:' || u.protocol === 'data:')
        return new globalThis.Worker(url, options);
      const boot = new Blob([`import ${JSON.stringify(u.href)};`], { type: 'text/javascript' });
      return new globalThis.Worker(URL.createObjectURL(boot), options);
    }
  )
);

const MAX_CRASHES_PER_MINUTE = 3;

/** @typedef {import('../worker/protocol.js').Command} Command */
/** @typedef {import('../wasm-api').Config} Config */
/** @typedef {{variant: 'threads'|'simd'|'scalar', version: string, simdArch: string, simd: boolean, threads: number, fallback?: string}} EngineInfo */

/** A config the engine refused: `check` is the CheckResult, its message naming the field. */
export class ConfigError extends Error {
  /** @param {string} message @param {import('../common/refusal.js').Refusal} [refusal] */
  constructor(message, refusal) {
    super(message);
    this.name = 'ConfigError';
    this.refusal = refusal ?? OTHER;
    /** @type {{ok: false, error: string, refusal: import('../common/refusal.js').Refusal}} */
    this.check = { ok: false, error: message, refusal: this.refusal };
  }
}

export class EngineClient extends EventTarget {
  /** Starts the worker; call init() before anything else. */
  constructor() {
    super();
    this.nextId = 1;
    /** @type {Map<number, {resolve: (value: any) => void, reject: (err: Error) => void}>} */
    this.pending = new Map();
    /** @type {Map<number, EngineSession>} the sessions living in this worker, by session id */
    this.models = new Map();
    /** @type {EngineSession[]|null} sessions an interrupted recovery has still to bring back */
    this.toRestore = null;
    /** @type {Promise<EngineInfo>|null} */
    this.engine = null;
    /** @type {'threads'|'simd'|'scalar'|undefined} */
    this.variant = undefined;
    /** @type {Promise<void>|null} the promise of a recovery in progress */
    this.recovering = null;
    this.crashes = 0;
    /** @type {number[]} */
    this.crashTimes = [];
    this.generation = 0; // which worker this is (one more after every crash)
    /** @type {Error|null} the error, once the worker is not restarted any more */
    this.dead = null;
    this.disposed = false;
    /** @type {globalThis.Worker} */
    this.worker;
    /** @type {Watchdog} */
    this.watchdog;
    this.#spawn();
  }

  #spawn() {
    const gen = ++this.generation;
    const crash = (/** @type {Error} */ error) => gen === this.generation && this.#crash(error);
    this.worker = new Worker(new URL('../worker/worker.js', import.meta.url), { type: 'module' });
    this.watchdog = new Watchdog((err) => crash(err));
    this.worker.onmessage = (e) => gen === this.generation && this.#onMessage(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault?.();
      crash(pageRefusal('page.worker_failed', { detail: e.message || 'unknown error' }));
    };
  }

  /**
   * An event ({event, ...}) or the reply to a request ({id, ok, result | error, fatal}).
   * @param {{event?: import('../worker/protocol.js').WorkerEvent, id?: number, [key: string]: any}} msg
   */
  #onMessage(msg) {
    this.watchdog.heard(msg);
    if (msg.event === 'beat') return;
    if (msg.event === 'lock') return this.watchdog.watchLock(msg.name);
    if (msg.event === 'fatal') return this.#crash(refusalError(msg.error, msg.refusal));
    if (msg.event) {
      this.models.get(msg.sid)?._onEvent(msg);
      return;
    }
    if (msg.id === undefined) return;
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.result);
    else p.reject(refusalError(msg.error, msg.refusal));
    if (msg.fatal) this.#crash(refusalError(msg.error, msg.refusal));
  }

  /**
   * Retire the dead worker and start a new one that takes its models over (see the header).
   * @param {Error} error
   */
  #crash(error) {
    if (this.disposed || this.dead) return;
    this.watchdog.stop();
    this.worker.terminate();
    this.#failAll(error); // a recovery's own calls to this worker too: it then starts over
    // A worker that dies again and again (say, its script cannot load) is not restarted forever.
    const now = Date.now();
    this.crashTimes = [...this.crashTimes.filter((t) => now - t < 60000), now];
    this.crashes++;
    if (this.crashTimes.length > MAX_CRASHES_PER_MINUTE) {
      this.dead = error;
      this.dispatchEvent(new CustomEvent('crash', { detail: { error, final: true } }));
      return;
    }
    this.dispatchEvent(new CustomEvent('crash', { detail: { error } }));
    this.#spawn();
    this.engine = null;
    const gen = this.generation;
    const attempt = this.#recover(error, gen);
    this.recovering = attempt;
    attempt.finally(() => {
      if (this.recovering === attempt && this.generation === gen) this.recovering = null;
    });
  }

  /**
   * Bring every model back in worker `gen`; stops quietly when a newer crash took over.
   * @param {Error} error
   * @param {number} gen
   */
  async #recover(error, gen) {
    // Models not restored by an earlier, interrupted recovery are still to do.
    const models = [...new Set([...(this.toRestore ?? []), ...this.models.values()])];
    this.toRestore = models;
    this.models.clear();
    let failed = null;
    try {
      await this.init(this.variant);
      for (const m of models) {
        if (gen !== this.generation) return;
        if (!m.disposed) await m._restore();
        this.toRestore = (this.toRestore ?? []).filter((x) => x !== m);
      }
    } catch (err) {
      if (gen !== this.generation || this.dead) return; // the new worker died too: see #crash
      failed = err;
    }
    if (gen !== this.generation) return;
    this.toRestore = null;
    this.recovering = null; // calls that waited go out now, before the listeners hear of it
    this.dispatchEvent(
      new CustomEvent('recovered', { detail: failed ? { error, models, failed } : { error, models } }),
    );
  }

  /**
   * @internal a session recreated after a crash takes its new session id
   * @param {EngineSession} model
   * @param {number} sid
   */
  _rebind(model, sid) {
    this.models.delete(model.sid);
    model.sid = sid;
    this.models.set(sid, model);
  }

  /** @param {Error} err */
  #failAll(err) {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  /**
   * Send one command; resolves with its result. During a recovery it waits for the new worker.
   * @param {Command} cmd
   * @param {object|(() => object)} [args] (a function: read when sent, e.g. for a session id that
   *   a recovery may change meanwhile)
   * @param {Transferable[]} [transfer]
   * @returns {Promise<any>}
   */
  async call(cmd, args, transfer = []) {
    while (this.recovering && !this.dead) await this.recovering.catch(() => {});
    return this._post(cmd, typeof args === 'function' ? args() : args, transfer);
  }

  /**
   * @internal send now, to the current worker (the recovery uses this)
   * @param {Command} cmd
   * @param {object} [args]
   * @param {Transferable[]} [transfer]
   * @returns {Promise<any>}
   */
  _post(cmd, args, transfer = []) {
    if (this.dead) return Promise.reject(pageRefusal('page.dead', { detail: this.dead.message }));
    if (this.disposed) return Promise.reject(pageRefusal('page.client_disposed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, cmd, args }, transfer);
    });
  }

  /**
   * Load the best module variant this browser supports (or the one asked for).
   * @param {'threads'|'simd'|'scalar'} [variant]
   * @returns {Promise<EngineInfo>}
   */
  async init(variant = bestVariant()) {
    this.variant = variant;
    this.engine ??= this._post('init', { variant });
    return this.engine;
  }

  /**
   * @param {Config} config
   * @returns {Promise<import('../wasm-api').CheckResult>} whether the config is valid, and why not
   */
  checkConfig(config) {
    return this.call('checkConfig', { config });
  }

  /**
   * Create a training session from a plain config object: one round trip, in which the engine
   * validates the config once. A refused config rejects with a ConfigError whose `check` is the
   * CheckResult ({ok: false, error}) that checkConfig would have given.
   * @param {Config} config
   * @returns {Promise<EngineSession>}
   */
  async create(config) {
    const r = await this.call('create', { config });
    if ('error' in r) throw new ConfigError(r.error, r.refusal);
    return this.#adopt(r.sid, infoWithText(r.info, config.text));
  }

  /**
   * Create a model from a safetensors file's bytes (the config comes from the file, with the
   * fields in `overrides` replaced when given: Session.loadWith).
   * @param {Uint8Array} bytes
   * @param {Config} [overrides] e.g. {rope_scaling: 'ntk', rope_factor: 2}
   * @returns {Promise<EngineSession>}
   */
  async importModel(bytes, overrides) {
    const copy = bytes.slice();
    const { sid, info } = await this.call('importModel', { bytes: copy, overrides }, [copy.buffer]);
    return this.#adopt(sid, info);
  }

  /**
   * A new model in this worker from the weights of model `sid` with config fields replaced
   * (Session.loadWith), e.g. {rope_scaling: 'yarn', rope_factor: 4} for an evaluation.
   * @param {number} sid
   * @param {Config} overrides
   * @param {unknown} [text] the derived config's training text (the reply carries its TextRef)
   * @returns {Promise<EngineSession>}
   */
  async derive(sid, overrides, text) {
    const r = await this.call('derive', { sid, overrides });
    return this.#adopt(r.sid, infoWithText(r.info, text));
  }

  /**
   * @param {number} sid
   * @param {import('../wasm-api').SessionInfo} info
   */
  #adopt(sid, info) {
    const m = new EngineSession(this, sid, info);
    this.models.set(sid, m);
    return m;
  }

  /** Number of models living in this worker. */
  get load() {
    return this.models.size;
  }

  /** Stop the worker; every pending call rejects. */
  dispose() {
    this.disposed = true;
    this.watchdog.stop();
    this.worker.terminate();
    this.models.clear();
    this.#failAll(pageRefusal('page.client_disposed'));
  }
}
