// build-scripts/experiments/convergence.mjs — whether an experiment's runs had stopped learning:
// each sweep row's eval_loss_last_fifth (the least-squares change of the held-out loss over the
// last fifth of training, measured by `attnplay train --row-out` at five points) against its
// final held-out loss. Runs whose held-out loss still fell by more than 1% over that fifth are
// "still falling": a claim judged on them says so.

/** The relative fall over the last fifth beyond which runs count as still learning. */
export const STILL_FALLING = 0.01;

/**
 * @param {Record<string, string>[]} runs sweep rows (without error)
 * @returns {{recorded: boolean, falling: boolean, change: number, words: string}}
 */
export function convergenceOf(runs) {
  const ok = runs.filter(
    (r) => !r.error && r.eval_loss_last_fifth !== undefined && r.eval_loss_last_fifth !== '' && Number(r.eval_loss) > 0,
  );
  if (!ok.length)
    return {
      recorded: false,
      falling: false,
      change: NaN,
      words: 'not recorded (these runs predate the eval_loss_last_fifth column; rerun to measure it)',
    };
  const rel = ok.map((r) => Number(r.eval_loss_last_fifth) / Number(r.eval_loss));
  const change = rel.reduce((a, b) => a + b, 0) / rel.length;
  const worst = Math.min(...rel);
  const falling = worst < -STILL_FALLING;
  const pct = (/** @type {number} */ x) => `${(100 * x).toFixed(1)}%`;
  return {
    recorded: true,
    falling,
    change,
    words: falling
      ? `still learning: held-out loss changed by ${pct(change)} on average (down to ${pct(worst)}) over the last fifth of training, so these runs are not converged and the gap may change with longer training`
      : `converged: held-out loss changed by ${pct(change)} on average over the last fifth of training (every run within ${pct(STILL_FALLING)})`,
  };
}
