// Notices a worker that died without a word: terminated by the page or the browser (a tab out of
// memory, a browser reclaiming it), which fires no event at all. Two signals, because a worker
// that is merely busy must never be taken for dead: one training step of a big config can keep
// its thread inside wasm for seconds or minutes, so a timer in the worker cannot always answer.
//
// 1. A Web Lock (primary, where navigator.locks exists, i.e. in secure contexts). The worker
//    takes an exclusive lock with a name unique to it and holds it for its whole life, then says
//    so ({event: 'lock'}); the watchdog then asks for the same lock. The browser releases a lock
//    when the context holding it goes away, so the request is granted exactly when the worker
//    dies (a few ms after terminate(), about 2 s when it was inside a long call), and never
//    while it is alive, however busy. No timing guess at all.
// 2. A heartbeat (fallback: no navigator.locks, or before the worker holds its lock). The
//    worker posts {event: 'beat', longest} every BEAT_MS from a timer and trains in bounded
//    chunks, so its timer runs between them; `longest` is the longest synchronous piece of work
//    it has done so far. Silence (no message of any kind) for max(SILENT_MS, 4 × longest) counts
//    as death. Not counted: the time before the worker's first message (its script may still be
//    downloading on a slow network; a script that fails to load fires 'error'), time while the
//    page is hidden (timers may be throttled) and time the main thread itself was frozen (a
//    sleeping laptop, a debugger): then the clock starts over.

import { pageRefusal } from '../common/refusal.js';
/** How often the worker beats (ms); worker.js uses the same value. */
export const BEAT_MS = 1000;
/** Silence after which a worker without a lock counts as dead (ms). */
export const SILENT_MS = 8000;
const CHECK_MS = 500;

export class Watchdog {
  /**
   * @param {(err: Error) => void} onDead called once, when the worker is found dead (a page.worker_* refusal)
   * @param {{now?: () => number, locks?: LockManager|null, hidden?: () => boolean,
   *   setInterval?: typeof setInterval, clearInterval?: typeof clearInterval}} [env] for tests
   */
  constructor(onDead, env = {}) {
    this.onDead = onDead;
    this.now = env.now ?? (() => performance.now());
    this.locks = env.locks !== undefined ? env.locks : (globalThis.navigator?.locks ?? null);
    this.hidden = env.hidden ?? (() => globalThis.document?.visibilityState === 'hidden');
    this.clear = env.clearInterval ?? ((id) => clearInterval(id)); // not as a method: Illegal invocation
    this.lastHeard = this.now();
    this.lastCheck = this.lastHeard;
    this.longest = 0;
    this.spoke = false; // the worker's script runs: it sent a message
    this.locked = false; // the lock of a live worker is being watched
    this.stopped = false;
    this.abort = typeof AbortController === 'function' ? new AbortController() : null;
    this.timer = (env.setInterval ?? setInterval)(() => this.check(), CHECK_MS);
  }

  /** Whether death can be seen through a lock in this browser. */
  get lockable() {
    return Boolean(this.locks?.request);
  }

  /**
   * Any message from the worker: it is alive.
   * @param {{longest?: number, [key: string]: any}} [msg]
   */
  heard(msg) {
    this.spoke = true;
    this.lastHeard = this.now();
    if (msg && typeof msg.longest === 'number' && Number.isFinite(msg.longest))
      this.longest = Math.max(this.longest, msg.longest);
  }

  /**
   * The worker holds the lock `name` (its {event: 'lock'}): watch it.
   * @param {string} name
   */
  watchLock(name) {
    if (!this.locks || !this.lockable || this.locked || this.stopped) return;
    this.locked = true;
    const opts = this.abort ? { signal: this.abort.signal } : {};
    this.locks
      .request(name, opts, () => {
        if (!this.stopped) this.#dead(pageRefusal('page.worker_stopped'));
      })
      .catch((err) => {
        if (err?.name !== 'AbortError') throw err; // AbortError: stop() retired the worker on purpose
      });
  }

  /** The silence limit now (ms). */
  get limit() {
    return Math.max(SILENT_MS, 4 * this.longest);
  }

  /** @internal one look at the clock (every CHECK_MS) */
  check() {
    if (this.stopped) return;
    const now = this.now();
    // The main thread did not run for a while (asleep, frozen, paused) or the page is hidden:
    // the worker's silence over that time says nothing.
    if (now - this.lastCheck > 4 * CHECK_MS || this.hidden()) this.lastHeard = now;
    this.lastCheck = now;
    if (this.locked || !this.spoke) return;
    const silent = now - this.lastHeard;
    if (silent <= this.limit) return;
    const s = String(Math.round(silent / 1000));
    this.#dead(pageRefusal('page.worker_silent', { s }));
  }

  /** @param {Error} err why: a page.worker_* refusal (common/refusal.js) */
  #dead(err) {
    this.stop();
    this.onDead(err);
  }

  /** Stop watching (the worker is retired on purpose, or already known dead). */
  stop() {
    if (this.stopped) return;
    this.stopped = true;
    this.clear(this.timer);
    this.abort?.abort();
  }
}
