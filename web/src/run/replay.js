// The replay over training, on the page's side: the index of the steps whose frames the core
// keeps (core/session/frames.cpp: log-spaced, at most 64 with the latest, bounded in bytes),
// and the frames themselves, fetched one per request and cached here until the model changes or
// the core thins them out. The whole history never crosses the worker boundary at once, and never
// on a training step. No DOM.

/** @typedef {import('../wasm-api').ReplayIndex} ReplayIndex */
/** @typedef {import('../wasm-api').ReplayFrame} ReplayFrame */
/** @typedef {{replayIndex(): Promise<ReplayIndex>, replayFrame(step: number): Promise<ReplayFrame>}} ReplaySource a model (client/session.js) */

export class ReplayFrames {
  constructor() {
    /** @type {ReplaySource|null} */
    this.model = null;
    /** @type {number[]} the steps with a frame, ascending; the last is the latest */
    this.steps = [];
    /** @type {ReplayIndex|null} */
    this.index = null;
    /** @type {Map<number, ReplayFrame>} */
    this.cache = new Map();
  }

  /** Start over with a model (null: none). @param {ReplaySource|null} model */
  setModel(model) {
    this.model = model;
    this.steps = [];
    this.index = null;
    this.cache.clear();
  }

  /** Read the index again (cheap: a list of steps). @returns {Promise<number[]>} the steps */
  async refresh() {
    const model = this.model;
    if (!model) return this.steps;
    const index = await model.replayIndex();
    if (model !== this.model) return this.steps;
    // Training went back (a refused step's rollback): frames past it belong to another run.
    if (this.index && index.latest < this.index.latest) this.cache.clear();
    this.index = index;
    this.steps = index.steps;
    for (const s of this.cache.keys()) if (!index.steps.includes(s)) this.cache.delete(s);
    return this.steps;
  }

  /**
   * The frame at `step` (one of `steps`).
   * @param {number} step
   * @returns {Promise<ReplayFrame>}
   */
  async frame(step) {
    const hit = this.cache.get(step);
    if (hit) return hit;
    const model = this.model;
    if (!model) throw new Error('replay: no model');
    const frame = await model.replayFrame(step);
    if (model === this.model && this.steps.includes(step)) this.cache.set(step, frame);
    return frame;
  }

  /**
   * Every frame in step order (for an animation's export), fetched one at a time.
   * @param {(done: number, total: number) => void} [progress]
   * @returns {Promise<ReplayFrame[]>}
   */
  async all(progress) {
    const steps = [...this.steps];
    /** @type {ReplayFrame[]} */
    const out = [];
    for (const s of steps) {
      out.push(await this.frame(s));
      progress?.(out.length, steps.length);
    }
    return out;
  }
}
