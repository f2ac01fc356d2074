// Colour maps for heatmaps: a sequential map (viridis, sampled) for non-negative values and a
// diverging blue-white-red map for signed values (blue-grey-red on a dark page). Both return [r, g, b] in 0..255.

const VIRIDIS = [
  [68, 1, 84],
  [72, 40, 120],
  [62, 74, 137],
  [49, 104, 142],
  [38, 130, 142],
  [31, 158, 137],
  [53, 183, 121],
  [109, 205, 89],
  [180, 222, 44],
  [253, 231, 37],
];

/** @typedef {[number, number, number]} RGB */

/**
 * @param {number[][]} stops
 * @param {number} t in [0, 1]
 * @returns {RGB}
 */
function lerp(stops, t) {
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  return /** @type {RGB} */ (stops[i].map((a, k) => Math.round(a + f * (stops[i + 1][k] - a))));
}

/** @param {number} t in [0, 1] */
export const sequential = (t) => lerp(VIRIDIS, t);

const DIVERGING = [
  [33, 102, 172],
  [146, 197, 222],
  [247, 247, 247],
  [244, 165, 130],
  [178, 24, 43],
];

// On a dark page: the same hues, with 0 a dark grey rather than a white that glares (a map of
// near-zero values, such as the permutation demo's difference, would be one bright block).
const DIVERGING_DARK = [
  [103, 169, 207],
  [52, 92, 128],
  [48, 49, 52],
  [140, 64, 52],
  [239, 138, 98],
];

/** @param {number} t in [-1, 1] @param {boolean} [dark] the dark page's map (0 dark grey) */
export const diverging = (t, dark = false) => lerp(dark ? DIVERGING_DARK : DIVERGING, (t + 1) / 2);

/** CSS colour of an [r, g, b] triple. @param {RGB | number[]} rgb */
export const css = ([r, g, b]) => `rgb(${r},${g},${b})`;
