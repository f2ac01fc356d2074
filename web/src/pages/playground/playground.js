// The playground's wiring: state <-> controls <-> URL hash, and what the page (its files: files.js)
// shows at each point of a run. The run itself (config check, model lifecycle, training, the
// coalescing refresh of the inspection views) is the run controller's (run/run-controller.js). No math here:
// the core computes, panels draw.
import { buildProperties, VIEW_PROPERTIES } from '../../state/properties.js';
import { defaultState, withValue, toConfig, differences } from '../../state/state.js';
import { hashToState, stateToHash, fragmentId } from '../../state/hash.js';
import { Controls } from '../../panels/controls.js';
import { ChartsPanel } from '../../panels/charts-panel.js';
import { AttentionPanel } from '../../panels/attention-panel.js';
import { PositionsPanel } from '../../panels/positions-panel.js';
import { ExplorePanel } from '../../panels/explore-panel.js';
import { ReplayPanel } from '../../panels/replay-panel.js';
import { PredictionsPanel } from '../../panels/predictions-panel.js';
import { GeneratePanel } from '../../panels/generate-panel.js';
import { LengthsPanel } from '../../panels/lengths-panel.js';
import { InterventionsPanel } from '../../panels/interventions-panel.js';
import { HeadsPanel } from '../../panels/heads-panel.js';
import { LineChart } from '../../charts/line-chart.js';
import { renderExplanation, showPositionParams } from '../../panels/explain-panel.js';
import { Toolbar } from './toolbar.js';
import { Recovery } from './recovery.js';
import { PlaygroundFiles } from './files.js';
import { RunController } from '../../run/run-controller.js';
import { withCorpus, loadCorpus } from '../../run/text-source.js';
import { ReplayFrames } from '../../run/replay.js';
import { OverfitWatch } from '../../run/overfit.js';
import { TextSourcePanel } from '../../panels/text-source-panel.js';
import { unaddressable, solvedBy } from './run-notes.js';
import { PageCompare, LANDING } from './compare.js';
import { PageChallenges } from './challenges.js';
import { currentHash, hasHash, onHashChange, replaceHash } from '../../state/address.js';

/** @typedef {import('../../client/session.js').EngineSession} Session */
/** @typedef {import('../../state/properties.js').State} State */
/** @typedef {import('../../state/properties.js').Value} Value */

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id)); // index.html has them
// While training: attention/predictions/positions at most this often (and within the run
// controller's inspection budget: they serialize matrices); the charts and counters this often.
const REFRESH_MS = 500;
const FLUSH_MS = 250;
const $input = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id));

export class Playground {
  /**
   * @param {import('../../client/client.js').EngineClient} client
   * @param {import('../../wasm-api').Registry} registry
   */
  constructor(client, registry) {
    this.client = client;
    this.registry = registry;
    this.props = buildProperties(registry);
    this.state = defaultState(this.props, registry);
    /** @type {State|null} */
    this.pinned = null; // the state of the pinned run
    /** @type {number|null} the step at which this run was found solved (early stop); null before; -1: no early stop (steps set by hand) */
    this.solved = null;
    /** @type {string|null} the early stop's notice while it is the model's (#stopWhenSolved) */
    this.solvedNotice = null;
    this.run = new RunController(client, this.#views(), { refreshMs: REFRESH_MS, flushMs: FLUSH_MS });
    const onChange = (/** @type {string} */ k, /** @type {Value} */ v) =>
      Promise.resolve(this.set(k, v)).catch((err) => this.notice(err.message));
    this.controls = new Controls(
      /** @type {HTMLFormElement} */ ($('controls')),
      this.props,
      registry,
      onChange,
      new TextSourcePanel(
        (text) => onChange('text', text),
        () => loadCorpus(),
      ),
    );
    this.charts = new ChartsPanel($('charts'));
    this.overfit = new OverfitWatch();
    this.attention = new AttentionPanel($('attention'));
    this.positions = new PositionsPanel($('positions'));
    this.explore = new ExplorePanel($('explore'), (req) => this.#inspect1({ explore: req }).then((s) => s.explore));
    this.replay = new ReplayPanel(
      $('replay'),
      {
        show: (frame) => this.#showFrame(frame),
        live: () => this.refresh(),
        mark: (step) => this.charts.markStep(step),
        title: () => `${this.state.task}, position ${this.state.position}, ${this.state.normalization}`,
      },
      new ReplayFrames(),
    );
    this.predictions = new PredictionsPanel($('predictions'), $('free-input-form'), (ids) => this.current().run(ids));
    this.generate = new GeneratePanel(
      $('generate'),
      () => this.model,
      () => this.#inspect1({ predictions: { n: 1 } }).then((s) => s.predictions),
    );
    this.lengths = new LengthsPanel(
      $('lengths'),
      () => [{ name: 'this run', color: '#188038', model: this.model }],
      LineChart,
    );
    this.interventions = new InterventionsPanel($('interventions'), () => this.model);
    this.heads = new HeadsPanel($('heads'), () => this.model);
    this.toolbar = new Toolbar(this);
    this.compare = new PageCompare(this);
    this.challenges = new PageChallenges(this);
    $('notice-close').addEventListener('click', () => this.notice(null));
    this.recovery = new Recovery(this);
    this.files = new PlaygroundFiles(this);
  }

  /** The current model (null while none). */
  get model() {
    return this.run.model;
  }

  /**
   * One inspection of the current model for a panel's own request (explore, generate's example);
   * rejects in words while a new model is being built, as every other failure does.
   * @param {import('../../client/session.js').InspectParts} parts
   */
  #inspect1(parts) {
    return this.model
      ? this.model.inspect(parts)
      : Promise.reject(new Error('the model is being rebuilt; try again in a moment'));
  }

  /** The current model, where the caller runs only while there is one. @returns {Session} */
  current() {
    return /** @type {Session} */ (this.model);
  }

  /**
   * What the page shows at each point of a run (run/run-controller.js calls these).
   * @returns {import('../../run/run-controller.js').RunViews}
   */
  #views() {
    const box = () => $('config-error');
    return {
      building: () => this.status('building'),
      checked: (check) => {
        this.controls.clearErrors();
        // Said once: beside the field it names (the message starts with the field's name), else
        // in the box above the settings.
        const named = !check.ok && this.controls.configError(check.error, this.controls.keysOf(check));
        box().hidden = check.ok || named;
        if (check.ok) return;
        if (!named) box().textContent = `This combination cannot train: ${check.error}`;
        this.toolbar.enable(false);
        this.pause(); // the last run stops: nothing on the page trains under settings that cannot
        this.toolbar.stale('no model: the settings cannot train');
        this.status('invalid');
        this.#showError();
      },
      failed: (err) => {
        box().hidden = false;
        box().textContent = `The model could not be created: ${err.message}`;
        this.toolbar.stale('no model: it could not be created');
        this.status('invalid');
        this.#showError();
      },
      adopted: (model) => this.recovery.watch(model),
      fresh: (info) => this.#fresh(info),
      ready: () => this.status('ready'),
      metrics: ({ steps, evals, step }) => {
        $('charts-empty').hidden = true;
        this.charts.add({ steps, evals });
        const overfit = this.overfit.add({ steps, evals });
        if (overfit !== undefined) this.charts.showOverfit(overfit);
        this.toolbar.metrics(steps, step, this.run.progress()); // nothing while the settings are invalid (stale)
        this.#stopWhenSolved(evals);
        this.challenges.onEvals(evals);
      },
      state: ({ playing, reason, stalled }) => {
        this.toolbar.playing(playing);
        this.toolbar.rate(this.run.progress());
        if (stalled)
          this.notice(`Training stopped: ${reason}. Change lr or clip in Optimizer and press Play to continue.`);
      },
      inspect: (model, current) => this.#inspect(model, current),
      error: (err) => this.notice(`Could not read the model: ${err.message}`),
    };
  }

  async start() {
    await this.recovery.load(); // before the first model replaces the saved checkpoint
    const target = this.#fragmentTarget(); // a link to a part of the page holds no settings
    if (target) replaceHash('');
    const landing = !target && !hasHash(); // a first visit, not a link: the comparison that teaches at once
    if (landing) replaceHash(LANDING.hash);
    this.#readHash(landing);
    onHashChange(() => {
      if (!this.#focusFragment()) this.#readHash().then(() => this.apply());
    });
    target?.focus();
    await this.apply();
  }

  /** The element the URL's fragment names ("#charts-panel", the skip link's), or null for settings. */
  #fragmentTarget() {
    const id = fragmentId(currentHash());
    return id ? document.getElementById(id) : null;
  }

  // Only setting keys change the state: a fragment that names an element (the skip link's) moves
  // focus there, and the address goes back to the settings, with the run untouched.
  #focusFragment() {
    const target = this.#fragmentTarget();
    if (!target) return false;
    this.rewriteHash();
    if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.tabIndex = -1; // focusable from a script
    target.focus();
    return true;
  }

  async #readHash(landing = false) {
    const { state, ignored, compare, challenge } = hashToState(currentHash(), this.props, this.registry);
    this.compare.fromHash(compare, landing);
    this.challenges.fromHash(challenge);
    this.notice(ignored.length ? `Ignored from the link: ${ignored.join('; ')}. Defaults are used instead.` : null);
    this.setState(state);
  }

  /** @param {State} state */
  setState(state) {
    this.state = state;
    this.recovery.stateChanged(state);
    this.controls.render(state);
    this.toolbar.showView(state);
    this.charts.setLogScale(/** @type {boolean} */ (state.log));
    this.rewriteHash();
    this.#explain(state);
    this.#labelPinned();
  }

  /**
   * The address's settings (or the landing comparison's) in the form and the explanation while the
   * engine loads: the registry is data (state/registry.gen.js). Writes nothing; start() reads the
   * address again.
   */
  preview() {
    if (this.#fragmentTarget()) return;
    const { state } = hashToState(hasHash() ? currentHash() : LANDING.hash, this.props, this.registry);
    this.controls.render(state);
    this.#explain(state);
  }

  /** @param {State} state */
  #explain(state) {
    renderExplanation($('explain'), {
      task: this.registry.tasks.find((t) => t.name === state.task),
      position: this.registry.positions.find((e) => e.name === state.position),
      normalization: this.registry.normalizations.find((e) => e.name === state.normalization),
    });
  }

  /** The URL hash from the state (and the comparison and the challenge shown, if any). */
  rewriteHash() {
    replaceHash(stateToHash(this.state, { compare: this.compare.spec, challenge: this.challenges.active?.id }));
  }

  /**
   * Change one property (from a control); a model property rebuilds the model.
   * @param {string} key
   * @param {Value} value
   */
  set(key, value) {
    if (this.state[key] === value) return;
    const view = VIEW_PROPERTIES.some((p) => p.key === key);
    this.setState(withValue(this.props, this.registry, this.state, key, value));
    // Optimizer fields that change on the live model after a refused step: the core's one list.
    if (this.run.stalled && this.model && this.registry.live_keys.includes(key)) return this.#configureLive(key, value);
    if (!view) return this.apply();
    if (key === 'speed' && this.model?.playing) this.play();
    if (key === 'example') this.refresh();
  }

  // After a refused step: change the optimizer field on the live model and keep its weights.
  /** @param {string} key @param {Value} value */
  async #configureLive(key, value) {
    const box = $('config-error');
    try {
      await this.current().configure({ [key]: value });
      box.hidden = true;
      this.notice(
        `${key} is now ${value}. Press Play to continue from step ${this.toolbar.step} with the last good weights.`,
      );
    } catch (err) {
      box.hidden = false;
      box.textContent = `This change cannot apply to the running model: ${/** @type {Error} */ (err).message}`;
    }
  }

  /**
   * The client recreated the model in a new worker (recovery.js): redraw from its state.
   * @param {Session|null} model
   */
  async restored(model) {
    if (model !== this.model) return;
    // No model to restore (the worker crashed before one was built): build the current settings'.
    if (!model) return this.apply();
    await this.run.fresh(model.info);
    if (model.playing) this.run.stateChanged({ playing: true, reason: 'restored' }); // it trains on
  }

  /** Show a notice under the header, with a button that dismisses it (null hides it). @param {string|null} text */
  notice(text) {
    const n = $('notice');
    n.hidden = !text;
    n.textContent = text ?? '';
    $('notice-close').hidden = !text;
  }

  // The error where a person sees it: the settings shown (collapsed on a phone), and the first
  // field with the message, else the box, scrolled to the top of the view when it is off screen
  // (the fields it names come one after the other in the settings).
  #showError() {
    const box = $('config-error');
    const msg = $('controls').querySelector('.field-error:not([hidden])');
    if (box.hidden && !msg) return;
    this.toolbar.showControls(true);
    const target = /** @type {HTMLElement} */ (msg?.closest('.field') ?? box);
    const r = target.getBoundingClientRect();
    const covered = Math.max(0, document.querySelector('.toolbar')?.getBoundingClientRect().bottom ?? 0); // sticky on wide screens
    if (r.top < covered || r.bottom > innerHeight) target.scrollIntoView({ block: 'start' });
  }

  /**
   * Early stop: the first time in a run that the held-out accuracy at the training length reaches
   * SOLVED (run-notes.js), training pauses, so that the charts' step axis spans the learning rather than the
   * flat line after it. Play trains on (no second stop in the same run). Only under the default
   * step budget: with steps set by hand, the run trains to them.
   * @param {import('../../wasm-api').EvalMetrics[]} evals
   */
  #stopWhenSolved(evals) {
    if (this.solved !== null || !this.model?.playing || !$input('stop-solved').checked) return;
    const hit = solvedBy(evals, Number(this.model.info.config.seq_len));
    if (!hit) return;
    this.solved = hit.step;
    this.pause();
    this.solvedNotice = `Solved: held-out token accuracy ${hit.token_accuracy.toFixed(2)} at the evaluation of step ${hit.step}. Training paused so that the charts show the learning; press Play to train on to step ${this.state.steps}.`;
    this.notice(this.solvedNotice);
  }

  /** Check the current config; when valid, replace the model by a new one (paused, step 0). */
  async apply() {
    let config;
    try {
      config = await withCorpus(toConfig(this.props, this.state)); // the text task's corpus, fetched once
    } catch (err) {
      this.run.cancel();
      $('config-error').hidden = false;
      $('config-error').textContent =
        `The text task cannot start: ${/** @type {Error} */ (err).message}. Paste or upload your own text instead.`;
      return this.status('invalid');
    }
    await this.run.apply(config);
    await this.compare.baseChanged(); // a comparison follows the setup
  }

  // body[data-run]: building | ready | invalid, for tests and styles.
  /** @param {'building'|'ready'|'invalid'} s */
  status(s) {
    document.body.dataset.run = s;
  }

  // A new model, a reset or an import: empty charts, counters from the model, panels redrawn.
  /** @param {import('../../wasm-api').SessionInfo} info */
  #fresh(info) {
    // the early stop's notice is about the model that solved: it goes with it
    if (this.solvedNotice && $('notice').textContent === this.solvedNotice) this.notice(null);
    this.solvedNotice = null;
    this.charts.reset();
    $('charts-empty').hidden = false;
    this.charts.setEvalLengths(
      /** @type {number} */ (info.config.seq_len),
      /** @type {number} */ (info.config.eval_len),
      unaddressable(info),
    );
    this.overfit.reset(/** @type {number} */ (info.config.seq_len), String(info.config.task));
    // The early stop is for the default step budget: a budget one sets is trained to the end.
    this.solved =
      this.state.steps === defaultState(this.props, this.registry, String(this.state.task)).steps ? null : -1;
    this.attention.clear();
    this.positions.setModel(info);
    this.explore.setModel(info);
    this.replay.setModel(this.model);
    this.predictions.setModel(info);
    this.generate.setModel(info);
    this.lengths.clear();
    this.interventions.setModel(info);
    this.heads.setModel(info);
    this.challenges.fresh(info);
    this.toolbar.newRun(info);
    this.toolbar.enable(true);
    $('eval-every').textContent = String(info.config.eval_every);
  }

  /** Redraw attention, predictions and positions (resolves when they show the latest state). */
  refresh() {
    return this.run.refresh();
  }

  /** @param {Session} model @param {() => boolean} current */
  async #inspect(model, current) {
    const snap = await model.inspect({
      attention: { example: /** @type {number} */ (this.state.example) },
      predictions: { n: 4 },
      positions: {},
    });
    if (!current()) return;
    // While the replay shows a past step, the attention and position panels stay on it.
    if (this.replay.following) {
      this.attention.update(snap.attention);
      this.#showPositions(snap.positions);
    }
    this.explore.refresh();
    this.predictions.update(snap.predictions);
    await this.interventions.refresh(); // the list in effect, on the weights as they are now
    await this.replay.refresh();
    // The heads at the step the replay shows (the latest while it is live)
    await this.heads.refresh(this.replay.following ? -1 : this.replay.shown, this.replay.frames.steps);
  }

  /** @param {import('../../wasm-api').PositionDisplay} pos */
  #showPositions(pos) {
    this.positions.update(pos);
    const d = pos.describe;
    $('positions-note').textContent = d ? `${d.title}: ${d.where}.` : '';
    if (d && d.name === this.state.position) showPositionParams($('explain'), d.params); // this model's count
  }

  /** A replay frame in the attention and position panels (held-out example 0 at its step). @param {import('../../wasm-api').ReplayFrame} frame */
  #showFrame(frame) {
    this.attention.update(frame.attention);
    this.#showPositions(frame.positions);
    void this.heads.refresh(frame.step, this.replay.frames.steps);
  }

  play() {
    return this.run.play({
      steps: /** @type {number} */ (this.state.steps),
      speed: /** @type {number} */ (this.state.speed),
    });
  }

  pause() {
    return this.run.pause();
  }

  /** Train n steps now, then redraw. @param {number} [n] */
  train(n = 1) {
    return this.run.train(n);
  }

  async reset() {
    await this.run.reset();
    this.recovery.newRun(); // the trained run stays saved; the new one gets a slot of its own
  }

  togglePin() {
    if (this.pinned) {
      this.pinned = null;
      this.charts.unpin();
    } else {
      this.pinned = { ...this.state };
      this.charts.pin('pinned');
      this.#labelPinned();
    }
    this.toolbar.pinned(Boolean(this.pinned));
  }

  #labelPinned() {
    if (!this.pinned) return;
    const diff = differences(this.pinned, this.state, this.props);
    this.charts.setPinnedLabel(diff.length ? `pinned: ${diff.join(', ')}` : 'pinned (same settings)');
  }
}
