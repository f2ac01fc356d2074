// One run of an experiment in this tab: a config trained to its `steps` on the worker pool
// through the run controller, then measured as the native sweep measures a row (EXPERIMENTS-SPEC's
// per-run columns): held-out loss, bits, accuracy at the training length and at the multiples
// asked for, the training loss at the end and the rate. What the browser cannot measure the same
// way (inference tokens/s, peak memory, the weights' hash) stays empty. No DOM.
import { RunController } from '../../run/run-controller.js';
import { tokensPerStep } from '../../run/rate.js';
import { withCorpus } from '../../run/text-source.js';

/** @typedef {import('../../wasm-api').Config} Config */
/** @typedef {Record<string, number|null>} Measured per-run column -> value (null: not measured or cannot) */

/** The per-run metric columns the page can fill, at the training length. */
export const BASE_METRICS = ['train_loss', 'eval_loss', 'eval_bpc', 'eval_accuracy', 'eval_sequence_accuracy', 'steps_per_s', 'train_tokens_per_s', 'infer_tokens_per_s', 'peak_memory_bytes'];

/**
 * The metric columns of a run evaluated at the multiples `evalAt` too (in the spec's order).
 * @param {number[]} evalAt
 */
export const metricColumns = (evalAt) => [...BASE_METRICS, ...evalAt.flatMap((m) => [`eval_accuracy_x${m}`, `eval_loss_x${m}`])];

/**
 * Train `config` to config.steps on `pool` and measure it.
 * @param {import('../../client/pool.js').WorkerPool} pool
 * @param {Config} config (steps > 0)
 * @param {{evalAt?: number[], onStep?: (step: number) => void, signal?: {cancelled: boolean}}} [opts]
 * @returns {Promise<{values: Measured, config: Config}>} config: the engine's full config (without the
 *   bundled corpus's text, which the page added); rejects with the engine's message
 */
export async function trainAndMeasure(pool, config, { evalAt = [], onStep, signal } = {}) {
  const steps = Number(config.steps);
  if (!(steps > 0)) throw new Error('the config has no steps to train');
  const full = await withCorpus(config);
  let lastLoss = NaN;
  let refusal = '';
  /** @type {(v: string) => void} */
  let finished = () => {};
  const stopped = new Promise((resolve) => (finished = resolve));
  const run = new RunController(pool, {
    metrics: ({ steps: batch, step }) => {
      if (batch.length) lastLoss = batch[batch.length - 1].loss;
      onStep?.(step);
    },
    state: ({ playing, step, reason }) => {
      if (!playing && step >= steps) finished('done');
      else if (!playing && reason !== 'play') finished(reason);
    },
    checked: (r) => void (refusal = r.ok ? '' : r.error),
    failed: (err) => void (refusal = err.message),
  });
  try {
    const built = await run.apply(full);
    if (built !== 'ready' || !run.model) throw new Error(refusal || `the model could not be built (${built})`);
    if (signal?.cancelled) throw new Error('cancelled');
    const t0 = performance.now();
    await run.play({ until: steps, every: 10 });
    const why = await stopped;
    const seconds = (performance.now() - t0) / 1000;
    if (why !== 'done') throw new Error(`training stopped: ${why}`);
    const model = run.model;
    const ev = await model.evaluate(0);
    const L = Number(model.info.config.seq_len);
    /** @type {Measured} */
    const values = {
      train_loss: Number.isFinite(lastLoss) ? lastLoss : null,
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
    // The corpus's text stays out of the row (the page added it): the row names the corpus instead.
    const { text, ...rest } = model.info.config;
    return { values, config: full === config ? model.info.config : { ...rest, text: config.text ?? '' } };
  } finally {
    await run.dispose();
  }
}
