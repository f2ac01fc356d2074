// The training toolbar: play/pause, step, reset, speed; the step counter, steps/s and tokens/s
// (over the last seconds: run/rate.js), elapsed time, the time left to the configured steps, last
// loss; pin; export/import buttons; the settings toggle for narrow screens. Calls back into
// the Playground; shows what it is told.
import { formatDuration, formatRate } from '../../run/rate.js';

const $ = (id) => document.getElementById(id);

export class Toolbar {
  /** @param {import('./playground.js').Playground} pg */
  constructor(pg) {
    this.pg = pg;
    // A click can race a model rebuild; report failures in the notice, never as uncaught errors.
    const safe = (f) => (e) => Promise.resolve().then(() => f(e)).catch((err) => {
      if (!/disposed/.test(err.message)) pg.notice(err.message);
    });
    this.step = 0;
    this.elapsedMs = 0;
    this.since = 0; // performance.now() when play started (0 = paused)
    this.tickTimer = 0;
    $('play').addEventListener('click', safe(() => (pg.model?.playing ? pg.pause() : pg.play())));
    $('step').addEventListener('click', safe(() => pg.step(1)));
    $('reset').addEventListener('click', safe(() => pg.reset()));
    $('speed').addEventListener('change', safe((e) => pg.set('speed', Number(e.target.value))));
    $('log-scale').addEventListener('change', (e) => pg.set('log', e.target.checked));
    $('attn-example').addEventListener('change', (e) => {
      const v = Math.min(63, Math.max(0, Math.round(Number(e.target.value) || 0)));
      e.target.value = String(v);
      pg.set('example', v);
    });
    $('attn-show').addEventListener('change', (e) => pg.attention.setShow(e.target.value));
    $('pin').addEventListener('click', () => pg.togglePin());
    $('export-model').addEventListener('click', safe(() => pg.exportModel()));
    $('export-config').addEventListener('click', () => pg.exportConfig());
    $('import-model').addEventListener('change', safe((e) => pg.importModel(e.target)));
    $('import-config').addEventListener('change', safe((e) => pg.importConfig(e.target)));
    $('free-input-form').addEventListener('submit', (e) => {
      e.preventDefault();
      safe(() => pg.predictions.runText($('free-input').value))();
    });
    const toggle = $('controls-toggle');
    toggle.addEventListener('click', () => this.#showControls(toggle.getAttribute('aria-expanded') !== 'true'));
    if (matchMedia('(max-width: 800px)').matches) this.#showControls(false);
  }

  #showControls(show) {
    const toggle = $('controls-toggle');
    toggle.setAttribute('aria-expanded', String(show));
    toggle.textContent = show ? 'Hide' : 'Show';
    $('controls').hidden = !show;
  }

  /** Reflect the view settings of a state in their controls. */
  showView(state) {
    const speed = $('speed');
    if (![...speed.options].some((o) => Number(o.value) === state.speed))
      speed.append(new Option(String(state.speed), String(state.speed)));
    speed.value = String(state.speed);
    $('log-scale').checked = state.log;
    $('attn-example').value = String(state.example);
  }

  enable(on) {
    for (const id of ['play', 'step', 'reset', 'export-model']) $(id).disabled = !on;
    $('export-config').disabled = false;
    $('pin').disabled = false;
  }

  /** A new run: counters from the model's info. */
  newRun(info) {
    this.step = info.step;
    this.elapsedMs = 0;
    this.since = 0;
    $('step-counter').textContent = String(info.step);
    this.rate({ stepsPerS: null, tokensPerS: null, etaS: null });
    $('last-loss').textContent = '–';
    $('param-count').textContent = info.parameter_count.toLocaleString('en-US');
    $('elapsed').textContent = '0.0 s';
    this.playing(false);
  }

  /**
   * New metrics: the step, the rate (the run controller's progress()) and the last loss.
   * @param {{loss: number}[]} steps
   * @param {number} step
   * @param {{stepsPerS: number|null, tokensPerS: number|null, etaS: number|null}} progress
   */
  metrics(steps, step, progress) {
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
    const sps = $('steps-per-s');
    sps.textContent = formatRate(stepsPerS);
    if (stepsPerS === null) delete sps.dataset.value;
    else sps.dataset.value = stepsPerS.toFixed(3);
    $('tokens-per-s').textContent = tokensPerS === null ? '–' : Math.round(tokensPerS).toLocaleString('en-US');
    $('eta').textContent = formatDuration(etaS);
  }

  playing(on) {
    const b = $('play');
    b.textContent = on ? 'Pause' : 'Play';
    b.setAttribute('aria-pressed', String(on));
    $('step').disabled = on || !this.pg.model;
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
    const ms = this.elapsedMs + (this.since ? performance.now() - this.since : 0);
    $('elapsed').textContent = `${(ms / 1000).toFixed(1)} s`;
  }

  pinned(on) {
    $('pin').textContent = on ? 'Unpin' : 'Pin this run';
    $('pin').setAttribute('aria-pressed', String(on));
  }
}
