// What the playground says about a run, as pure functions (tests/node/run-notes.test.mjs): why
// the model cannot be evaluated at its longer length, and when a run counts as solved (the early
// stop that keeps the learning, not the flat line after it, across the charts' step axis).

/** Held-out token accuracy at the training length at which a run counts as solved. */
export const SOLVED = 0.99;

/**
 * Why the model cannot be evaluated at its eval_len (null: it can). Learned positions have a
 * table of max_len positions (the training length when 0) and nothing beyond (core/position/learned.cpp).
 * @param {{config: Record<string, number|boolean|string>}} info
 * @returns {string|null}
 */
export function unaddressable({ config }) {
  const seqLen = Number(config.seq_len);
  const evalLen = Number(config.eval_len);
  const maxLen = Number(config.max_len) || 0;
  if (config.position !== 'learned' || !evalLen || evalLen === seqLen) return null;
  if (maxLen >= evalLen) return null;
  return `learned positions stop at length ${maxLen || seqLen}, so the model cannot address length ${evalLen} (set max_len ≥ ${evalLen} to evaluate there)`;
}

/**
 * The first evaluation in `evals` that solves the task: held-out token accuracy at the training
 * length of at least `threshold` (undefined: none does).
 * @param {import('../../wasm-api').EvalMetrics[]} evals
 * @param {number} seqLen
 * @param {number} [threshold]
 */
export function solvedBy(evals, seqLen, threshold = SOLVED) {
  return evals.find((e) => e.length === seqLen && e.token_accuracy >= threshold);
}
