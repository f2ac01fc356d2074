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

/**
 * An axis tick for steps under 0.001, in a short exponent form with the digits its step needs
 * (0.00025 apart: 2.5e-4, 5.0e-4), where the axis's own number format (Intl, at most 3 fraction
 * digits) wrote 0.0005, 0.00075 and 0.001 as "0", "0", "0.001" (and a fixed form is too wide for
 * the axis); null for larger steps (the axis keeps its own format).
 * @param {number} v @param {number} step the distance between ticks
 * @returns {string|null}
 */
export function smallTick(v, step) {
  if (!(step > 0 && step < 1e-3)) return null;
  if (v === 0) return '0';
  const mantissa = step / 10 ** Math.floor(Math.log10(step)); // 1 ≤ m < 10: 2.5 for 0.00025
  let d = 0;
  while (d < 6 && Math.abs(mantissa * 10 ** d - Math.round(mantissa * 10 ** d)) > 1e-6) d++;
  return v.toExponential(d);
}
