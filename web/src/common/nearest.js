// The kept step nearest to a step asked for: the replay's scrubber (panels/replay-panel.js) and the
// heads panel both land on it when the core has thinned the step out (run/replay.js keeps the
// index of the steps). Arithmetic only.

/**
 * The index in ascending `steps` of the step nearest to `step` (0 for an empty list).
 * @param {number[]} steps
 * @param {number} step
 */
export function nearestIndex(steps, step) {
  let best = 0;
  for (let k = 1; k < steps.length; k++) if (Math.abs(steps[k] - step) < Math.abs(steps[best] - step)) best = k;
  return best;
}
