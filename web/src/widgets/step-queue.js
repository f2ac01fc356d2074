// A widget's step(n) calls, bounded: one runs in the worker, at most one waits behind it. A call
// made while one runs joins the waiting one (their n add up) as long as the sum stays within
// MAX_WAITING steps; a call that would go past it is refused whole (the caller says why). So a page
// that calls step(10000) three times has 10000 steps running and 10000 waiting, and its third call
// is refused. cancel() (pause, reset, the widget leaving the screen) drops the waiting steps; the
// caller stops the running one in the worker (its pause / reset halts a step under way).
// No DOM: WidgetApp owns one.

/** The most steps that may wait behind a running step(n). */
export const MAX_WAITING = 10000;

export class StepQueue {
  /** @param {(n: number) => Promise<boolean>} run trains n steps; false when cancelled */
  constructor(run) {
    this.run = run;
    /** @type {Promise<boolean>|null} the step(n) in the worker */
    this.running = null;
    /** @type {{n: number, promise: Promise<boolean>, resolve: (ok: boolean) => void}|null} */
    this.waiting = null;
  }

  /** Whether steps run or wait. */
  get busy() {
    return Boolean(this.running || this.waiting);
  }

  /**
   * Queue n steps. Resolves true once they are trained, false when cancelled; null at once when
   * they do not fit (MAX_WAITING steps already wait).
   * @param {number} n
   * @returns {Promise<boolean>|null}
   */
  add(n) {
    if (!this.running) return this.#start(n);
    if (this.waiting && this.waiting.n + n > MAX_WAITING) return null;
    if (!this.waiting) {
      /** @type {(ok: boolean) => void} */
      let resolve = () => {};
      const promise = new Promise((/** @type {(ok: boolean) => void} */ r) => (resolve = r));
      this.waiting = { n: 0, promise, resolve };
    }
    this.waiting.n += n;
    return this.waiting.promise;
  }

  /** Resolves once no steps run or wait (trained or cancelled). */
  async idle() {
    while (this.running) await this.running;
  }

  /** Drop the waiting steps (they resolve false). */
  cancel() {
    this.waiting?.resolve(false);
    this.waiting = null;
  }

  /** @param {number} n */
  #start(n) {
    const done = this.run(n).catch(() => false);
    this.running = done;
    done.then(() => {
      this.running = null;
      const next = this.waiting;
      this.waiting = null;
      if (next) this.#start(next.n).then(next.resolve);
    });
    return done;
  }
}
