// The training toolbar: play/pause, step, reset, speed; the step counter, steps/s and tokens/s
// (over the last seconds: run/rate.js), elapsed time, the time left to the configured steps, last
// loss; pin; export/import buttons; the settings toggle for narrow screens. Calls back into
// the Playground; shows what it is told.
import { formatDuration, formatRate } from '../../run/rate.js';
import { refusalOf } from '../../common/refusal.js';

// The page's elements (index.html has them all), typed as what they are.
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const $button = (/** @type {string} */ id) => /** @type {HTMLButtonElement} */ ($(id));
const $input = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id));
/** The input or select an event came from. */
const target = (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target);

export class Toolbar {
  /** @param {import('./playground.js').Playground} pg */
  constructor(pg) {
    this.pg = pg;
    this.step = 0;
    this.isStale = false; // no current run (stale()): the counters show '–'
    this.elapsedMs = 0;
    this.since = 0; // performance.now() when play started (0 = paused)
    /** @type {ReturnType<typeof setInterval>|undefined} */
    this.tickTimer = undefined;
    this.#wireRun();
    this.#wireView();
    this.#wireFiles();
    this.#clearOfToolbar();
    const toggle = $('controls-toggle');
    toggle.addEventListener('click', () => this.showControls(toggle.getAttribute('aria-expanded') !== 'true'));
    if (matchMedia('(max-width: 800px)').matches) this.showControls(false);
  }

  /**
   * A handler that reports its failure in the notice: a click can race a model rebuild, and must
   * never end as an uncaught error.
   * @param {(e: Event) => unknown} f
   * @returns {(e: Event) => Promise<unknown>}
   */
  #safe(f) {
    return (e) =>
      Promise.resolve()
        .then(() => f(e))
        .catch((err) => {
          if (!refusalOf(err).code.endsWith('_disposed')) this.pg.notice(err.message);
        });
  }

  /** Play/pause, step, reset and speed. */
  #wireRun() {
    const pg = this.pg;
    $('play').addEventListener(
      'click',
      this.#safe(() => (pg.model?.playing ? pg.pause() : pg.play())),
    );
    $('step').addEventListener(
      'click',
      this.#safe(() => pg.train(1)),
    );
    $('reset').addEventListener(
      'click',
      this.#safe(() => pg.reset()),
    );
    $('speed').addEventListener(
      'change',
      this.#safe((e) => pg.set('speed', Number(target(e).value))),
    );
  }

  /** The view settings (log scale, attention example and what it shows), pin, the free input. */
  #wireView() {
    const pg = this.pg;
    $('log-scale').addEventListener('change', (e) => pg.set('log', target(e).checked));
    $('attn-example').addEventListener('change', (e) => {
      const v = Math.min(63, Math.max(0, Math.round(Number(target(e).value) || 0)));
      target(e).value = String(v);
      pg.set('example', v);
    });
    $('attn-show').addEventListener('change', (e) =>
      pg.attention.setShow(/** @type {'weights'|'logits'} */ (target(e).value)),
    );
    $('pin').addEventListener('click', () => pg.togglePin());
    $('free-input-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.#safe(() => pg.predictions.runText($input('free-input').value))(e);
    });
  }

  /** Export and import of the model, the PyTorch code and the config (pg.files, made after us). */
  #wireFiles() {
    const pg = this.pg;
    $('export-model').addEventListener(
      'click',
      this.#safe(() => pg.files.exportModel()),
    );
    $('export-torch').addEventListener(
      'click',
      this.#safe(() => pg.files.exportTorch()),
    );
    $('export-config').addEventListener('click', () => pg.files.exportConfig());
    $('import-model').addEventListener(
      'change',
      this.#safe((e) => pg.files.importModel(target(e))),
    );
    $('import-config').addEventListener(
      'change',
      this.#safe((e) => pg.files.importConfig(target(e))),
    );
  }

  // While the toolbar is sticky (wide screens), a focused field or a heading scrolled to is kept
  // below it: its height is the page's scroll padding (style.css --toolbar-clear).
  #clearOfToolbar() {
    const bar = /** @type {HTMLElement} */ (document.querySelector('.toolbar'));
    const set = () => {
      const sticky = getComputedStyle(bar).position === 'sticky';
      document.documentElement.style.setProperty(
        '--toolbar-clear',
        `${sticky ? Math.ceil(bar.getBoundingClientRect().height) : 0}px`,
      );
    };
    new ResizeObserver(set).observe(bar);
    matchMedia('(max-width: 800px)').addEventListener('change', set);
    set();
  }

  /** @param {boolean} show */
  showControls(show) {
    const toggle = $('controls-toggle');
    toggle.setAttribute('aria-expanded', String(show));
    toggle.textContent = show ? 'Hide' : 'Show';
    $('controls').hidden = !show;
  }

  /**
   * Reflect the view settings of a state in their controls.
   * @param {import('../../state/properties.js').State} state
   */
  showView(state) {
    const speed = /** @type {HTMLSelectElement} */ ($('speed'));
    if (![...speed.options].some((o) => Number(o.value) === state.speed))
      speed.append(new Option(String(state.speed), String(state.speed)));
    speed.value = String(state.speed);
    $input('log-scale').checked = /** @type {boolean} */ (state.log);
    $input('attn-example').value = String(state.example);
  }

  /** @param {boolean} on */
  enable(on) {
    for (const id of ['play', 'step', 'reset', 'export-model', 'export-torch']) $button(id).disabled = !on;
    $button('export-config').disabled = false;
    $button('pin').disabled = false;
  }

  /** A new run: counters from the model's info. @param {import('../../wasm-api').SessionInfo} info */
  newRun(info) {
    this.isStale = false;
    this.step = info.step;
    this.elapsedMs = 0;
    this.since = 0;
    $('step-counter').textContent = String(info.step);
    this.rate({ stepsPerS: null, tokensPerS: null, etaS: null });
    $('last-loss').textContent = '–';
    $('param-count').textContent = info.parameter_count.toLocaleString('en-US');
    for (const id of ['step-counter', 'steps-per-s', 'tokens-per-s', 'elapsed', 'eta', 'last-loss', 'param-count'])
      $(id).removeAttribute('title');
    $('elapsed').textContent = '0.0 s';
    this.playing(false);
  }

  /**
   * No current run (the settings cannot train): the counters of the last one must not read as
   * current, so they show '–' and say why in their tooltip.
   * @param {string} why
   */
  stale(why) {
    clearInterval(this.tickTimer);
    this.since = 0;
    this.isStale = true; // until the next run: late events of the last one write nothing
    for (const id of ['step-counter', 'steps-per-s', 'tokens-per-s', 'elapsed', 'eta', 'last-loss', 'param-count']) {
      const o = $(id);
      o.textContent = '–';
      o.title = why;
      delete o.dataset.value;
    }
    $('play').textContent = 'Play';
    $('play').setAttribute('aria-pressed', 'false');
  }

  /**
   * New metrics: the step, the rate (the run controller's progress()) and the last loss.
   * @param {import('../../wasm-api').StepMetrics[]} steps
   * @param {number} step
   * @param {{stepsPerS: number|null, tokensPerS: number|null, etaS: number|null}} progress
   */
  metrics(steps, step, progress) {
    if (this.isStale) return;
    this.step = step;
    $('step-counter').textContent = String(step);
    this.rate(progress);
    const last = steps[steps.length - 1];
    if (!last) return;
    $('last-loss').textContent = Number.isFinite(last.loss) ? last.loss.toFixed(3) : 'NaN'; // a refused step's loss arrives as null
  }

  /**
   * Steps/s and tokens/s (smoothed), and the time left; '–' where unknown. The steps/s readout
   * carries its number in data-value (the bench and the tests read it).
   * @param {{stepsPerS: number|null, tokensPerS: number|null, etaS: number|null}} progress
   */
  rate({ stepsPerS, tokensPerS, etaS }) {
    if (this.isStale) return;
    const sps = $('steps-per-s');
    sps.textContent = formatRate(stepsPerS);
    if (stepsPerS === null) delete sps.dataset.value;
    else sps.dataset.value = stepsPerS.toFixed(3);
    $('tokens-per-s').textContent = tokensPerS === null ? '–' : Math.round(tokensPerS).toLocaleString('en-US');
    // "stop when solved" may pause long before the budget: the time to it is an upper bound.
    const early = etaS !== null && this.pg.solved === null && $input('stop-solved').checked;
    $('eta').textContent = early ? `up to ${formatDuration(etaS)}` : formatDuration(etaS);
  }

  /** @param {boolean} on */
  playing(on) {
    const b = $('play');
    b.textContent = on ? 'Pause' : 'Play';
    b.setAttribute('aria-pressed', String(on));
    $button('step').disabled = on || !this.pg.model;
    const now = performance.now();
    if (on && !this.since) {
      this.since = now;
      this.tickTimer = setInterval(() => this.#showElapsed(), 200);
    } else if (!on && this.since) {
      this.elapsedMs += now - this.since;
      this.since = 0;
      clearInterval(this.tickTimer);
    }
    this.#showElapsed();
  }

  #showElapsed() {
    if (this.isStale) return;
    const ms = this.elapsedMs + (this.since ? performance.now() - this.since : 0);
    $('elapsed').textContent = `${(ms / 1000).toFixed(1)} s`;
  }

  /** @param {boolean} on */
  pinned(on) {
    $('pin').textContent = on ? 'Unpin' : 'Pin this run';
    $('pin').setAttribute('aria-pressed', String(on));
  }
}
