// The replay over training, on the page's side: the index of the steps whose frames the core
// keeps (core/session/frames.cpp: log-spaced, at most 64 with the latest, bounded in bytes),
// and the frames themselves, fetched one per request and cached here until the model changes or
// the core thins them out. The whole history never crosses the worker boundary at once, and never
// on a training step. No DOM.
// While the model trains, the core thins its frames between two requests: a step of the index read
// a moment ago may be gone when its frame is asked for (the core refuses it, naming the steps it
// keeps: core/session/replay.cpp Replay::frame). frame() then takes the index the refusal gives
// and reads the nearest kept step instead (the frame says its step); all() reads the frames of one
// index, leaving out those thinned out meanwhile, so an export holds real frames in step order.
import { nearestIndex } from '../common/nearest.js';
import { refusalOf } from '../common/refusal.js';

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
   * The frame at `step` (one of `steps`), or, when the core has thinned that step out since the
   * index was read, the frame of the nearest step it keeps (the frame's `step` says which).
   * @param {number} step
   * @returns {Promise<ReplayFrame>}
   */
  async frame(step) {
    let want = step;
    for (let tries = 0; ; tries++) {
      const frame = await this.#fetch(want);
      if (frame) return frame;
      // thinned out (the index is now the refusal's): its nearest kept neighbour; the latest is
      // made on demand, so a request for it fails only when training went on meanwhile
      if (tries >= MAX_TRIES) throw new Error(`replay: the frames moved ${MAX_TRIES} times while reading step ${step}`);
      want = this.steps[nearestIndex(this.steps, step)] ?? step;
    }
  }

  /**
   * Every frame of the index as it is now, in step order (for an animation's export), fetched one
   * at a time: a step thinned out meanwhile is left out; a latest that training passed meanwhile
   * is replaced by the latest of then. Real frames only, each once, in step order.
   * @param {(done: number, total: number) => void} [progress]
   * @returns {Promise<ReplayFrame[]>}
   */
  async all(progress) {
    await this.refresh();
    const steps = [...this.steps];
    /** @type {ReplayFrame[]} */
    const out = [];
    const last = () => out.at(-1)?.step ?? -1;
    for (const [k, s] of steps.entries()) {
      let frame = await this.#fetch(s);
      // the snapshot's latest, gone as training went on: the latest now (a few tries: it moves on)
      for (let tries = 0; !frame && k === steps.length - 1 && tries < MAX_TRIES; tries++) {
        const latest = this.steps.at(-1);
        if (latest === undefined || latest <= last()) break;
        frame = await this.#fetch(latest);
      }
      if (frame && frame.step > last()) out.push(frame);
      progress?.(k + 1, steps.length);
    }
    return out;
  }

  /**
   * The frame at exactly `step`, or null when the core no longer keeps it (the index then is the
   * one the refusal names). Other errors are thrown.
   * @param {number} step
   * @returns {Promise<ReplayFrame|null>}
   */
  async #fetch(step) {
    const hit = this.cache.get(step);
    if (hit) return hit;
    const model = this.model;
    if (!model) throw new Error('replay: no model');
    let frame;
    try {
      frame = await model.replayFrame(step);
    } catch (err) {
      const kept = keptSteps(err);
      if (!kept || model !== this.model) throw err;
      this.#take(kept);
      return null;
    }
    if (model === this.model && this.steps.includes(step)) this.cache.set(step, frame);
    return frame;
  }

  /** A newer index (from a refusal): its steps, and the cache of those only. @param {{steps: number[], latest: number}} kept */
  #take({ steps, latest }) {
    if (this.index && latest < this.index.latest) this.cache.clear();
    const all = steps.at(-1) === latest ? steps : [...steps, latest];
    this.steps = all;
    if (this.index) this.index = { ...this.index, steps: all, latest };
    for (const s of this.cache.keys()) if (!all.includes(s)) this.cache.delete(s);
  }
}

/** How many times a read follows the frames moving under it before it gives up. */
const MAX_TRIES = 5;

/**
 * The steps the core keeps, from its refusal of a step it does not keep (core/session/replay.cpp:
 * the codes replay.no_frame, with the kept steps as `steps` ("0 1 2 4") and `latest`, and
 * replay.no_frame_latest, with `latest` only), or null for any other error.
 * @param {unknown} err
 * @returns {{steps: number[], latest: number}|null}
 */
export function keptSteps(err) {
  const { code, params } = refusalOf(err);
  if (code !== 'replay.no_frame' && code !== 'replay.no_frame_latest') return null;
  const steps = code === 'replay.no_frame' ? params.steps.split(' ').map(Number) : [];
  return { steps, latest: Number(params.latest) };
}
