// The runs of a comparison (panels/compare-view.js draws them): one run controller per run, all
// on one worker pool, made and owned here. The runs share one run's refresh rate: N runs refresh
// each N times less often. Their models are built one after the other from their configs, the
// text task's corpus put in first (text-source.js). No DOM: what each run shows is in the views
// hooks the comparison hands to open().
import { RunController } from './run-controller.js';
import { withCorpus, loadCorpus, corpusBase } from './text-source.js';

/** @typedef {import('./run-controller.js').RunClient} RunClient */
/** @typedef {import('./run-controller.js').RunViews} RunViews */
/** @typedef {import('../wasm-api').Config} Config */

const FLUSH_MS = 250;
/** The attention maps and predictions refresh this often while training (one run; see above). */
const SNAPSHOT_MS = 1500;

export class RunSet {
  /**
   * @param {RunClient & EventTarget} pool where the models train (its 'crash' and 'recovered'
   *   events: the comparison's engine notice)
   * @param {{corpusBase?: () => string}} [opts] corpusBase: where the text task's corpus is
   *   (default: beside the built chunks)
   */
  constructor(pool, { corpusBase: base = corpusBase } = {}) {
    this.pool = pool;
    this.corpusBase = base;
    /** @type {RunController[]} */
    this.controllers = [];
    this.disposed = false;
  }

  /**
   * One run controller per run, each reporting to its views.
   * @param {RunViews[]} views
   * @returns {RunController[]}
   */
  open(views) {
    this.controllers = views.map((v) => new RunController(this.pool, v, { refreshMs: SNAPSHOT_MS * views.length, flushMs: FLUSH_MS }));
    return this.controllers;
  }

  /**
   * Build every run's model from its config, in order; throws with a readable message when one
   * cannot train (the views' `checked` hook says so).
   * @param {Config[]} configs one per run
   */
  async apply(configs) {
    const base = this.corpusBase;
    const full = await Promise.all(configs.map((c) => withCorpus(c, () => loadCorpus(base()))));
    for (const [i, run] of this.controllers.entries()) {
      if (this.disposed) return;
      await run.apply(full[i]);
    }
  }

  dispose() {
    this.disposed = true;
    return Promise.all(this.controllers.map((r) => r.dispose()));
  }
}
