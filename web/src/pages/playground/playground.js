// The playground's wiring: state <-> controls <-> URL hash, the current model's lifecycle
// (create on every valid config change, play/pause/step/reset, import/export), and the panels fed
// from its metric events and periodic snapshots. No math here: the core computes, panels draw.
import { buildProperties, VIEW_PROPERTIES } from '../../state/properties.js';
import { defaultState, withValue, toConfig, fromConfig, differences } from '../../state/state.js';
import { configToState, hashToState, stateToHash } from '../../state/hash.js';
import { Controls } from './controls.js';
import { ChartsPanel } from './charts-panel.js';
import { AttentionPanel } from './attention-panel.js';
import { PositionsPanel } from './positions-panel.js';
import { PredictionsPanel } from './predictions-panel.js';
import { GeneratePanel } from './generate-panel.js';
import { renderExplanation } from './explain-panel.js';
import { Toolbar } from './toolbar.js';
import { download, readFile } from './dom.js';
import { Recovery } from './recovery.js';

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 500; // attention/predictions/positions while training (they serialize matrices)
const STOP_REASONS = ['done', 'paused', 'play', 'reset', 'import', 'restored'];

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
    this.model = null;
    this.pinned = null; // the state of the pinned run
    this.applyToken = 0;
    this.controls = new Controls($('controls'), this.props, registry, (k, v) =>
      Promise.resolve(this.set(k, v)).catch((err) => this.notice(err.message)),
    );
    this.charts = new ChartsPanel($('charts'));
    this.attention = new AttentionPanel($('attention'));
    this.positions = new PositionsPanel($('positions'));
    this.predictions = new PredictionsPanel($('predictions'), $('free-input-form'), (ids) => this.model.run(ids));
    this.generate = new GeneratePanel($('generate'), () => this.model, () => this.model.snapshot({ predictions: { n: 1 } }).then((s) => s.predictions));
    this.toolbar = new Toolbar(this);
    this.recovery = new Recovery(this);
    this.stalled = false; // training stopped on a refused (NaN/Inf) step
  }

  async start() {
    await this.recovery.load(); // before the first model replaces the saved snapshot
    this.#readHash();
    addEventListener('hashchange', () => this.#readHash().then(() => this.apply()));
    await this.apply();
  }

  async #readHash() {
    const { state, ignored } = hashToState(location.hash, this.props, this.registry);
    this.notice(ignored.length ? `Ignored from the link: ${ignored.join('; ')}. Defaults are used instead.` : null);
    this.#setState(state);
  }

  #setState(state) {
    this.state = state;
    this.recovery.stateChanged(state);
    this.controls.render(state);
    this.toolbar.showView(state);
    this.charts.setLogScale(state.log);
    history.replaceState(null, '', stateToHash(state));
    renderExplanation($('explain'), {
      task: this.registry.tasks.find((t) => t.name === state.task),
      position: this.registry.positions.find((e) => e.name === state.position),
      normalization: this.registry.normalizations.find((e) => e.name === state.normalization),
    });
    this.#labelPinned();
  }

  /** Change one property (from a control); a model property rebuilds the model. */
  set(key, value) {
    if (this.state[key] === value) return;
    const view = VIEW_PROPERTIES.some((p) => p.key === key);
    this.#setState(withValue(this.props, this.registry, this.state, key, value));
    // Optimizer fields that change on the live model after a refused step: the core's one list.
    if (this.stalled && this.model && this.registry.live_keys.includes(key)) return this.#configureLive(key, value);
    if (!view) return this.apply();
    if (key === 'speed' && this.model?.playing) this.play();
    if (key === 'example') this.refresh();
  }

  // After a refused step: change the optimizer field on the live model and keep its weights.
  async #configureLive(key, value) {
    const box = $('config-error');
    try {
      await this.model.configure({ [key]: value });
      box.hidden = true;
      this.notice(`${key} is now ${value}. Press Play to continue from step ${this.toolbar.step} with the last good weights.`);
    } catch (err) {
      box.hidden = false;
      box.textContent = `This change cannot apply to the running model: ${err.message}`;
    }
  }

  /** The client recreated the model in a new worker (recovery.js): redraw from its state. */
  async restored(model) {
    if (model !== this.model) return;
    await this.#fresh(model.info);
    if (model.playing) this.#onState({ playing: true, reason: 'restored' }); // it trains on
  }

  /** Show a notice under the header (null hides it). */
  notice(text) {
    const n = $('notice');
    n.hidden = !text;
    n.textContent = text ?? '';
  }

  /** Check the current config; when valid, replace the model by a new one (paused, step 0). */
  async apply() {
    const token = ++this.applyToken;
    this.#status('building');
    const config = toConfig(this.props, this.state);
    const check = await this.client.checkConfig(config);
    if (token !== this.applyToken) return;
    this.controls.clearErrors();
    const box = $('config-error');
    box.hidden = check.ok;
    if (!check.ok) {
      box.textContent = `This combination cannot train: ${check.error}`;
      for (const k of this.controls.keysIn(check.error)) this.controls.fieldError(k, 'see the message above');
      this.toolbar.enable(false);
      this.#status('invalid');
      return;
    }
    const old = this.model;
    this.model = null;
    await old?.dispose();
    let model;
    try {
      model = await this.client.create(config);
    } catch (err) {
      box.hidden = false;
      box.textContent = `The model could not be created: ${err.message}`;
      this.#status('invalid');
      return;
    }
    if (token !== this.applyToken) return model.dispose();
    this.#adopt(model);
  }

  // body[data-run]: building | ready | invalid, for tests and styles.
  #status(s) {
    document.body.dataset.run = s;
  }

  #adopt(model, fresh = true) {
    this.model = model;
    model.addEventListener('metrics', (e) => this.#onMetrics(e.detail));
    model.addEventListener('state', (e) => this.#onState(e.detail));
    this.recovery.watch(model);
    if (fresh) this.#fresh(model.info);
  }

  // A new model, a reset or an import: empty charts, counters from the model, panels redrawn.
  #fresh(info) {
    this.stalled = false;
    this.charts.reset();
    $('charts-empty').hidden = false;
    this.charts.setEvalLengths(info.config.seq_len, info.config.eval_len);
    this.attention.clear();
    this.positions.clear();
    this.predictions.setModel(info);
    this.generate.setModel(info);
    this.toolbar.newRun(info);
    this.toolbar.enable(true);
    $('eval-every').textContent = String(info.config.eval_every);
    return this.refresh().then(() => this.#status('ready'));
  }

  #onMetrics({ steps, evals, step }) {
    $('charts-empty').hidden = true;
    this.charts.add({ steps, evals });
    this.toolbar.metrics(steps, step);
  }

  #onState({ playing, reason }) {
    this.toolbar.playing(playing);
    clearInterval(this.refreshTimer);
    if (playing) this.refreshTimer = setInterval(() => this.refresh(), REFRESH_MS);
    else this.refresh();
    this.stalled = !playing && !STOP_REASONS.includes(reason);
    if (this.stalled) this.notice(`Training stopped: ${reason}. Change lr or clip in Optimizer and press Play to continue.`);
  }

  /**
   * Redraw attention, predictions and positions from a snapshot. One request at a time; a call
   * during one makes it run once more, and resolves when the panels show the latest state.
   */
  refresh() {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        await this.#refreshOnce();
      } while (this.refreshAgain);
      this.refreshing = null;
    })();
    return this.refreshing;
  }

  async #refreshOnce() {
    const model = this.model;
    if (!model) return;
    try {
      const snap = await model.snapshot({ attention: { example: this.state.example }, predictions: { n: 4 }, positions: {} });
      if (model !== this.model) return;
      this.attention.update(snap.attention);
      this.positions.update(snap.positions);
      this.predictions.update(snap.predictions);
      const d = snap.positions.describe;
      $('positions-note').textContent = d ? `${d.title}: ${d.where}.` : '';
    } catch (err) {
      if (model === this.model && !model.disposed) this.notice(`Could not read the model: ${err.message}`);
    }
  }

  play() {
    const step = this.toolbar.step;
    const until = this.state.steps > step ? this.state.steps : 0;
    return this.model?.play({ until, speed: this.state.speed });
  }

  pause() {
    return this.model?.pause();
  }

  async step(n = 1) {
    await this.model?.step(n);
    return this.refresh();
  }

  async reset() {
    if (!this.model) return;
    const info = await this.model.reset();
    return this.#fresh(info);
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
    const diff = differences(this.pinned, this.state);
    this.charts.setPinnedLabel(diff.length ? `pinned: ${diff.join(', ')}` : 'pinned (same settings)');
  }

  async exportModel() {
    const bytes = await this.model.exportModel();
    download(new Blob([bytes], { type: 'application/octet-stream' }), `attnplay-${this.state.task}-step${this.toolbar.step}.safetensors`);
  }

  exportConfig() {
    const json = JSON.stringify(toConfig(this.props, this.state), null, 2);
    download(new Blob([`${json}\n`], { type: 'application/json' }), `attnplay-${this.state.task}.json`);
  }

  /** Load a model file: its config becomes the page's state; training continues from its step. */
  async importModel(input) {
    const file = await readFile(input);
    if (file) return this.loadModelBytes(file);
  }

  /**
   * Load model file bytes ({name, bytes}) as importModel does (also used to restore saved work).
   * A file that fails to load leaves the page as it was: the same model (the worker keeps its
   * session when a file is refused), training again if it was, or the model of the current
   * settings when the import cut a config change short.
   */
  async loadModelBytes(file) {
    const before = document.body.dataset.run;
    const wasPlaying = Boolean(this.model?.playing);
    try {
      ++this.applyToken; // a pending config change must not replace the imported model
      this.#status('building');
      await this.model?.pause();
      const info = this.model ? await this.model.importModel(file.bytes) : null;
      if (!info) this.#adopt(await this.client.importModel(file.bytes), false);
      const loaded = info ?? this.model.info;
      $('config-error').hidden = true;
      this.#setState(fromConfig(this.props, this.registry, loaded.config, this.state));
      this.notice(`Loaded ${file.name}: ${loaded.config.task} at step ${loaded.step}.`);
      await this.#fresh(loaded);
    } catch (err) {
      this.notice(`Could not import ${file.name}: ${err.message}`);
      if (!this.model || this.model.disposed) return this.apply();
      this.#status(before === 'invalid' ? 'invalid' : 'ready');
      if (wasPlaying) await this.play();
    }
  }

  /** Load a config file (JSON): unknown keys are listed, the rest is checked as usual. */
  async importConfig(input) {
    const file = await readFile(input);
    if (!file) return;
    let config;
    try {
      config = JSON.parse(new TextDecoder().decode(file.bytes));
      if (!config || typeof config !== 'object' || Array.isArray(config)) throw new Error('expected a JSON object');
    } catch (err) {
      return this.notice(`Could not read ${file.name}: ${err.message}`);
    }
    // Only declared fields with values of their kind come through (state/hash.js).
    const { state, ignored } = configToState(config, this.props, this.registry, this.state);
    this.notice(ignored.length ? `Ignored from ${file.name}: ${ignored.join('; ')}.` : `Loaded ${file.name}.`);
    this.#setState(state);
    await this.apply();
  }
}
