// A comparison's runs (state/compare.js: the same setup trained once per run with the settings
// that differ): one run of a run set (run-set.js) per compared config, on the set's pool, and the
// comparison's rules over them: every run trains to the setup's `steps` (Play once they all
// reached them trains on without a limit), a run refused by the engine stops the comparison with
// the engine's words, a run that stalls says so, Play/Pause follows the runs, and training pauses
// while not visible. The metrics of all runs go through the set's one drawing queue. What is shown
// is the view's (CompareViews, panels/compare-view.js implements it): this file knows no DOM.
// The playground's page and the widget (widgets/compare-app.js) each own one, with its view.

/** @typedef {import('./run-set.js').RunSet} RunSet */
/** @typedef {import('./run-set.js').SetRun} SetRun */
/** @typedef {import('../wasm-api').Config} Config */
/** @typedef {import('../client/session.js').EngineSession} Session */
/**
 * A run's model as the view uses it (its free predictions, the lengths panel; an EngineSession).
 * @typedef {{evaluate(length?: number): Promise<any>, run(ids: number[]): Promise<any>,
 *   info: {config: Record<string, unknown>, step: number}}} ViewModel
 */
/**
 * What a comparison's view draws (every index is the run's, 0-based).
 * @typedef {object} CompareViews
 * @property {string[]} names the runs' names (for messages)
 * @property {{attention: boolean, predictions: boolean, heads: boolean}} inspected what it shows of each model
 * @property {() => void} [prepare] before the models are built (the charts)
 * @property {(i: number, info: import('../wasm-api').SessionInfo) => void} fresh run i has a new model, or restarted
 * @property {(i: number, batch: import('./run-controller.js').MetricsBatch) => void} metrics run i's new metrics
 * @property {(i: number, snap: {attention?: any, predictions?: any}) => void} showInspection run i's attention and predictions
 * @property {(i: number, diagnostics: any) => void} heads run i's head diagnostics
 * @property {(playing: boolean) => void} label Play or Pause
 * @property {(text: string|null) => void} say a message (null: none)
 * @property {() => void} reset every chart and row back to step 0
 * @property {() => void} restyle draw again with the page's new style
 * @property {() => void} dispose
 * @property {{play(): void, pause(): void, reset(): void, exportModel(i: number): Promise<{bytes: Uint8Array, name: string}|null>,
 *   importModel(i: number, file: {name: string, bytes: Uint8Array}): Promise<void>, model(i: number): ViewModel|null}} [actions]
 *   set by CompareRuns: what the view's buttons do, and each run's model (its free predictions, the lengths panel)
 */

/** The attention maps and predictions refresh this often while training (one run; times the runs). */
const INSPECT_MS = 1500;
/**
 * The page draws every run's new metrics together, at most this often: one frame for all runs.
 * Twice as seldom when the runs take every core (each frame the page draws is then a run's time).
 */
const DRAW_MS = 500;

export class CompareRuns {
  /**
   * @param {RunSet} set where the runs train (its pool's 'crash' events: the view's notice)
   * @param {CompareViews} view
   * @param {{configs: Config[], steps: number, autoplay: boolean}} opts configs: one per run
   */
  constructor(set, view, { configs, steps, autoplay }) {
    this.set = set;
    this.view = view;
    this.configs = configs;
    this.steps = steps;
    this.wantPlay = autoplay;
    this.visible = false;
    /** @type {SetRun[]} */
    this.runs = [];
    const cores = (typeof navigator !== 'undefined' && navigator.hardwareConcurrency) || 2;
    set.drawMs = configs.length >= cores ? 2 * DRAW_MS : DRAW_MS;
    set.hooks = {
      metrics: (run, batch) => view.metrics(this.runs.indexOf(run), batch),
      status: (run) => this.#status(run),
    };
    view.actions = {
      play: () => (this.wantPlay ? this.pause() : this.play()),
      pause: () => this.pause(),
      reset: () => this.reset(),
      exportModel: (i) => this.#export(i),
      importModel: (i, file) => this.#import(i, file),
      model: (i) => this.runs[i]?.ctl.model ?? null,
    };
  }

  /** The step shown: the slowest run's. */
  get last() {
    return { step: this.runs.length ? Math.min(...this.runs.map((r) => r.step)) : 0 };
  }

  /** Build every run's model; throws with a readable message when one cannot train. */
  async init() {
    this.view.prepare?.();
    const refreshMs = INSPECT_MS * this.configs.length;
    this.runs = this.configs.map((config, i) =>
      this.set.add(config, {
        key: String(i),
        check: true,
        views: this.#views(i),
        refreshMs,
      }),
    );
    await this.set.built();
    const refused = this.runs.findIndex((r) => r.status === 'refused');
    if (refused >= 0)
      throw new Error(`${this.view.names[refused]}: this combination cannot train: ${this.runs[refused].error}`);
  }

  /** @param {number} i @returns {import('./run-controller.js').RunViews} */
  #views(i) {
    const { view } = this;
    const snaps = view.inspected;
    return {
      fresh: (info) => view.fresh(i, info),
      ready: () => this.wantPlay && this.visible && this.#runOne(this.runs[i]),
      inspect:
        snaps.attention || snaps.predictions || snaps.heads
          ? async (model, current) => {
              if (snaps.attention || snaps.predictions) {
                const snap = await model.inspect({
                  attention: snaps.attention ? {} : undefined,
                  predictions: snaps.predictions ? { n: 3 } : undefined,
                });
                if (!current()) return;
                view.showInspection(i, snap);
              }
              if (snaps.heads) {
                const { diagnostics } = await model.heads(-1, false);
                if (current()) view.heads(i, diagnostics);
              }
            }
          : undefined,
      error: (err) => view.say(`Could not read ${view.names[i]}: ${err.message}`),
    };
  }

  /** A run's status changed (run-set.js): a stall is said; once every run is done, Play again. @param {SetRun} run */
  #status(run) {
    const i = this.runs.indexOf(run);
    if (run.status === 'stalled') this.view.say(`${this.view.names[i]}: training stopped: ${run.error}`);
    if (!this.set.playing && this.runs.length && this.runs.every((r) => r.step >= this.steps)) this.wantPlay = false;
    this.#label();
  }

  #label() {
    this.view.label(this.wantPlay || this.set.playing);
  }

  play() {
    this.wantPlay = true;
    this.#label();
    if (this.visible) for (const r of this.runs) this.#runOne(r);
  }

  pause() {
    this.wantPlay = false;
    this.#label();
    return Promise.all(this.runs.map((r) => r.ctl.model?.pause()));
  }

  /** Train run r to `steps`, or on without a limit once it reached them. @param {SetRun} r */
  #runOne(r) {
    const every = Math.max(1, Math.ceil(this.steps / 500));
    return this.set.train(r, {
      until: r.step >= this.steps ? 0 : this.steps,
      every,
    });
  }

  reset() {
    this.view.reset();
    return this.set.reset();
  }

  /** @param {boolean} on */
  setVisible(on) {
    if (this.visible === on) return;
    this.visible = on;
    if (on && this.wantPlay) for (const r of this.runs) this.#runOne(r);
    if (!on) for (const r of this.runs) if (r.ctl.model?.playing) r.ctl.model.pause();
  }

  /** Run i's model file (its weights, optimizer state and config). @param {number} i */
  async #export(i) {
    const m = this.runs[i]?.ctl.model;
    if (!m) return null;
    const bytes = await m.exportModel();
    return {
      bytes,
      name: `attnplay-run${i + 1}-${m.info.config.task}-step${m.info.step}.safetensors`,
    };
  }

  /**
   * Load a model file into run i (the others go on); its curves start again from the file's step.
   * A file the engine refuses leaves the run as it was, and says why.
   * @param {number} i @param {{name: string, bytes: Uint8Array}} file
   */
  async #import(i, file) {
    const r = this.runs[i];
    if (!r?.ctl.model) return;
    try {
      await r.ctl.model.pause();
      const info = await r.ctl.model.importModel(file.bytes);
      this.view.say(null);
      r.step = info.step;
      await r.ctl.fresh(info);
    } catch (err) {
      this.view.say(`Could not import ${file.name} into ${this.view.names[i]}: ${/** @type {Error} */ (err).message}`);
    }
  }

  /** The page's style changed: the view draws again, the inspection views too. */
  restyle() {
    this.view.restyle();
    for (const r of this.runs) r.ctl.refresh();
  }

  dispose() {
    this.view.dispose();
    return this.set.dispose();
  }
}
