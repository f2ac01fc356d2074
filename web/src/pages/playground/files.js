// The playground's files: export the model (safetensors), the config (JSON) or the model as PyTorch
// (one .py file written by the engine, core/torch/), and import a model or a config.
// A model file's config becomes the page's settings; a file that fails to load leaves the page as
// it was. Config files pass through the same reader as a link (state/hash.js configToState).
import { download, readFile } from '../../panels/dom.js';
import { toConfig, fromConfig } from '../../state/state.js';
import { configToState } from '../../state/hash.js';

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id)); // index.html has them

export class PlaygroundFiles {
  /** @param {import('./playground.js').Playground} pg */
  constructor(pg) {
    this.pg = pg;
  }

  async exportModel() {
    const bytes = await this.pg.current().exportModel();
    download(
      new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (bytes)], { type: 'application/octet-stream' }),
      `attnplay-${this.pg.state.task}-step${this.pg.toolbar.step}.safetensors`,
    );
  }

  /** The model as one PyTorch file (module, loader, a stored held-out batch), from the engine. */
  async exportTorch() {
    const text = await this.pg.current().exportTorch();
    download(
      new Blob([text], { type: 'text/x-python' }),
      `attnplay-${this.pg.state.task}-step${this.pg.toolbar.step}.py`,
    );
  }

  exportConfig() {
    const json = JSON.stringify(toConfig(this.pg.props, this.pg.state), null, 2);
    download(new Blob([`${json}\n`], { type: 'application/json' }), `attnplay-${this.pg.state.task}.json`);
  }

  /**
   * Load a model file: its config becomes the page's state; training continues from its step.
   * @param {HTMLInputElement} input
   */
  async importModel(input) {
    const file = await readFile(input);
    if (file) return this.loadModelBytes(file);
  }

  /**
   * Load model file bytes ({name, bytes}) as importModel does (also used to restore saved work).
   * A file that fails to load leaves the page as it was: the same model (the worker keeps its
   * session when a file is refused), training again if it was, or the model of the current
   * settings when the import cut a config change short.
   * @param {{name: string, bytes: Uint8Array}} file
   */
  async loadModelBytes(file) {
    const before = document.body.dataset.run;
    const wasPlaying = Boolean(this.pg.model?.playing);
    try {
      this.pg.run.cancel(); // a pending config change must not replace the imported model
      this.pg.status('building');
      await this.pg.model?.pause();
      const info = this.pg.model ? await this.pg.model.importModel(file.bytes) : null;
      if (!info) await this.pg.run.adopt(await this.pg.client.importModel(file.bytes), { fresh: false });
      const loaded = info ?? this.pg.current().info;
      this.pg.recovery.newRun(); // the run it replaced stays saved
      $('config-error').hidden = true;
      this.pg.setState(fromConfig(this.pg.props, this.pg.registry, loaded.config, this.pg.state));
      this.pg.notice(`Loaded ${file.name}: ${loaded.config.task} at step ${loaded.step}.`);
      await this.pg.run.fresh(loaded);
      // Import model stays offered during a comparison (the toolbar keeps its file inputs): once
      // the file has loaded, the comparison ends and the imported model is the page's run (a file
      // that fails leaves the comparison as it was).
      if (this.pg.compare.spec || this.pg.compare.view) await this.pg.compare.start(null);
    } catch (err) {
      this.pg.notice(`Could not import ${file.name}: ${/** @type {Error} */ (err).message}`);
      if (!this.pg.model || this.pg.model.disposed) return this.pg.apply();
      this.pg.status(before === 'invalid' ? 'invalid' : 'ready');
      if (wasPlaying) await this.pg.play();
    }
  }

  /**
   * Load a config file (JSON): unknown keys are listed, the rest is checked as usual.
   * @param {HTMLInputElement} input
   */
  async importConfig(input) {
    const file = await readFile(input);
    if (!file) return;
    let config;
    try {
      config = JSON.parse(new TextDecoder().decode(file.bytes));
      if (!config || typeof config !== 'object' || Array.isArray(config)) throw new Error('expected a JSON object');
    } catch (err) {
      return this.pg.notice(`Could not read ${file.name}: ${/** @type {Error} */ (err).message}`);
    }
    // Only declared fields with values of their kind come through (state/hash.js).
    const { state, ignored } = configToState(config, this.pg.props, this.pg.registry, this.pg.state);
    this.pg.notice(ignored.length ? `Ignored from ${file.name}: ${ignored.join('; ')}.` : `Loaded ${file.name}.`);
    this.pg.setState(state);
    await this.pg.apply();
  }
}
