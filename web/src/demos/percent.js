// An accuracy as a percentage, in a module of its own without DOM or styles, so that the demos'
// words (and their tests under Node) can use it.

/** An accuracy as a percentage without trailing noise. */
export const pct = (/** @type {number|null|undefined} */ v) =>
  v == null || Number.isNaN(v) ? '–' : `${(100 * v).toFixed(v >= 0.9995 || v === 0 ? 0 : 1)}%`;
