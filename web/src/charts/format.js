// Numbers as the views write them, in a module of its own: the widget's counters use it without
// loading the heatmap (charts/heatmap.js re-exports it).

/**
 * A compact number: 3 significant digits, or '−∞' / 'masked' for non-finite values.
 * @param {number|null|undefined} v
 */
export function fmt(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return '–';
  if (v === -Infinity) return '−∞';
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e4)) return v.toExponential(1);
  return Number(v.toPrecision(3)).toString();
}
