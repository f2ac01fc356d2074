// The permutation demo's training pair: two models with the same seed and data learn `order`,
// position = none (a) and the chosen encoding (b), each through a run controller
// (run/run-controller.js). Their held-out accuracy and loss go to the two charts and the scores.
import { RunController } from '../../run/run-controller.js';
import { pct, colorOf } from '../common.js';

/** @typedef {import('../../wasm-api').EvalMetrics} EvalMetrics */

/**
 * @param {import('./index.js').PermutationContext} ctx
 * @param {(playing: boolean) => void} onPlaying when either model starts or stops
 */
export function trainingPair({ pool, base, steps, ui, s }, onPlaying) {
  /** @type {{a?: EvalMetrics, b?: EvalMetrics}} */
  const last = {}; // the last held-out evaluation of each model
  /** @type {{a?: number, b?: number}} */
  const at = {}; // the step each model reached
  const runs = {
    a: new RunController(pool, { metrics: (d) => metrics('a', d), state: () => stateChanged() }),
    b: new RunController(pool, { metrics: (d) => metrics('b', d), state: () => stateChanged() }),
  };

  /**
   * @param {'a'|'b'} key
   * @param {import('../../run/run-controller.js').MetricsBatch} batch
   */
  function metrics(key, { evals, step }) {
    for (const ev of evals) {
      ui.acc.addDataPoint(ev.step, { [key]: ev.token_accuracy });
      ui.loss.addDataPoint(ev.step, { [key]: ev.loss });
      last[key] = ev;
    }
    at[key] = step;
    showCounters();
  }

  function showCounters() {
    const { a, b } = last;
    ui.counter.textContent = `step ${Math.min(at.a ?? 0, at.b ?? 0)} / ${steps}`;
    ui.scoreA.textContent = a ? pct(a.token_accuracy) : '–';
    ui.scoreB.textContent = b ? pct(b.token_accuracy) : '–';
    ui.box.dataset.accNone = a ? String(a.token_accuracy) : '';
    ui.box.dataset.accEncoding = b ? String(b.token_accuracy) : '';
  }

  function stateChanged() {
    const playing = Boolean(s.models.a?.playing || s.models.b?.playing);
    s.playing = playing;
    ui.play.textContent = playing ? 'Pause' : 'Play';
    ui.box.dataset.playing = String(playing);
    onPlaying(playing);
  }

  return {
    stateChanged,
    /** New models for the current encoding (the old ones are disposed); false when overtaken. */
    async build() {
      s.models = { a: null, b: null };
      for (const chart of [ui.acc, ui.loss]) {
        chart.reset();
        chart.series[1].color = colorOf(s.encoding);
        chart.setLabels({ b: s.encoding });
      }
      for (const k of /** @type {('a'|'b')[]} */ (Object.keys(last))) delete last[k];
      for (const k of /** @type {('a'|'b')[]} */ (Object.keys(at))) delete at[k];
      ui.nameB.textContent = s.encoding;
      ui.nameB.style.color = colorOf(s.encoding);
      const done = await Promise.all([runs.a.apply(base, { check: false }), runs.b.apply({ ...base, position: s.encoding }, { check: false })]);
      if (done.some((r) => r !== 'ready') || s.disposed) return false;
      s.models = { a: runs.a.model, b: runs.b.model };
      showCounters();
      return true;
    },
    play: () => Promise.all([runs.a, runs.b].map((r) => r.play({ until: steps, every: 5 }))),
    pause: () => Promise.all([runs.a.pause(), runs.b.pause()]),
    dispose: () => Promise.all([runs.a.dispose(), runs.b.dispose()]),
  };
}
