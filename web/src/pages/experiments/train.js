// One run of an experiment in this tab: a config trained to its `steps` on the worker pool
// through the run set, then measured as the native sweep measures a row (EXPERIMENTS-SPEC's
// per-run columns): held-out loss, bits, accuracy at the training length and at the multiples
// asked for, the training loss at the end and the rate. What the browser cannot measure the same
// way (inference tokens/s, peak memory, the weights' hash) stays empty. No DOM.
import { RunSet } from '../../run/run-set.js';
import { tokensPerStep } from '../../run/rate.js';
import { withCorpus } from '../../run/text-source.js';

/** @typedef {import('../../wasm-api').Config} Config */
/** @typedef {Record<string, number|null>} Measured per-run column -> value (null: not measured or cannot) */

/** The per-run metric columns the page can fill, at the training length. */
export const BASE_METRICS = [
  'train_loss',
  'eval_loss',
  'eval_bpc',
  'eval_accuracy',
  'eval_sequence_accuracy',
  'steps_per_s',
  'train_tokens_per_s',
  'infer_tokens_per_s',
  'peak_memory_bytes',
];

/**
 * The metric columns of a run evaluated at the multiples `evalAt` too (in the spec's order).
 * @param {number[]} evalAt
 */
export const metricColumns = (evalAt) => [
  ...BASE_METRICS,
  ...evalAt.flatMap((m) => [`eval_accuracy_x${m}`, `eval_loss_x${m}`]),
];

/**
 * Train `config` to config.steps and measure it: on `on`, a run set the caller owns (the grid's, whose
 * lanes say how many train at once), or a worker pool (a run set of its own, for this run).
 * @param {import('../../client/pool.js').WorkerPool|RunSet} on
 * @param {Config} config (steps > 0)
 * @param {{evalAt?: number[], onStep?: (step: number) => void, signal?: {cancelled: boolean}}} [opts] onStep:
 *   the step reached (with a pool only: a caller's set has its own hooks)
 * @returns {Promise<{values: Measured, config: Config}>} config: the engine's full config (without the
 *   bundled corpus's text, which the page added); rejects with the engine's message
 */
export async function trainAndMeasure(on, config, { evalAt = [], onStep, signal } = {}) {
  const steps = Number(config.steps);
  if (!(steps > 0)) throw new Error('the config has no steps to train');
  const full = await withCorpus(config);
  // One run of the run set (run/run-set.js): it builds, trains to `steps` and says how it ended.
  const set =
    on instanceof RunSet
      ? on
      : new RunSet(on, {
          hooks: { metrics: (_, batch) => onStep?.(batch.step) },
          drawMs: 100,
        });
  const run = set.add(full, { check: true });
  try {
    await run.built;
    if (run.status === 'refused' || !run.ctl.model) throw new Error(run.error || 'stopped');
    if (signal?.cancelled) throw new Error('cancelled');
    const t0 = performance.now();
    await set.train(run, { until: steps, every: 10 });
    await set.settled(run);
    set.flush();
    const seconds = (performance.now() - t0) / 1000;
    if (run.status !== 'done') throw new Error(`training stopped: ${run.error || run.status}`);
    const values = await measure(run.ctl.model, {
      steps,
      seconds,
      lastLoss: run.lastLoss,
      evalAt,
    });
    // The corpus's text stays out of the row (the page added it): the row names the corpus instead.
    const { text, ...rest } = run.ctl.model.info.config;
    return {
      values,
      config: full === config ? run.ctl.model.info.config : { ...rest, text: config.text ?? '' },
    };
  } finally {
    await (set === on ? set.remove(run) : set.dispose());
  }
}

/**
 * The per-run columns of a trained model.
 * @param {import('../../client/session.js').EngineSession} model
 * @param {{steps: number, seconds: number, lastLoss: number|null, evalAt: number[]}} how
 * @returns {Promise<Measured>}
 */
async function measure(model, { steps, seconds, lastLoss, evalAt }) {
  const ev = await model.evaluate(0);
  const L = Number(model.info.config.seq_len);
  /** @type {Measured} */
  const values = {
    train_loss: lastLoss !== null && Number.isFinite(lastLoss) ? lastLoss : null,
    eval_loss: ev.loss,
    eval_bpc: ev.loss / Math.LN2,
    eval_accuracy: ev.token_accuracy,
    eval_sequence_accuracy: ev.sequence_accuracy,
    steps_per_s: steps / seconds,
    train_tokens_per_s: (tokensPerStep(model.info.config) * steps) / seconds,
    infer_tokens_per_s: null,
    peak_memory_bytes: null,
  };
  for (const m of evalAt) {
    const at = await model.evaluate(m * L).catch(() => null); // an encoding that cannot address m·L
    values[`eval_accuracy_x${m}`] = at ? at.token_accuracy : null;
    values[`eval_loss_x${m}`] = at ? at.loss : null;
  }
  return values;
}
