// The pages' line chart's legend values (line-chart.js, uPlot's `value` of each series), apart from
// uPlot so that Node can test them (tests/node/legend-value.test.mjs). No DOM.
import { fmt } from './format.js';

/** @typedef {{legend: {idx?: number|null}, data: ArrayLike<number|null|undefined>[]}} LegendPlot what is read of a uPlot */

const given = (/** @type {unknown} */ v) => v !== null && v !== undefined;

/**
 * A legend value: at the cursor the value there; with the cursor off the chart the series' latest
 * value (uPlot would write "--", which reads as missing); nothing before any. The x value off the
 * chart is that of the last row where some series was measured (not the last x, which may be a
 * length that was not evaluable), written by `xText` when given (integers for lengths). A chart
 * with xText has discrete x (lengths): off the chart, a series shows its value at the x shown, and
 * '–' (not defined there) when it has values but none at that x (learned positions past their
 * table: "evaluation length 64 · learned: –", not its value at 16).
 * @param {((x: number) => string)|undefined} xText
 */
export const legendValue =
  (xText) =>
  /** @param {LegendPlot} u @param {number|null} v @param {number} si @param {number|null} idx */
  (u, v, si, idx) => {
    const show = (/** @type {number} */ x) => (si === 0 && xText ? xText(x) : fmt(x));
    const xs = u.data[0];
    // A chart with xText has discrete x (lengths): a series shows a value at the cursor only when
    // it was measured at the x shown, not its nearest value elsewhere (uPlot's snap across gaps).
    const at = u.legend.idx;
    const elsewhere = (/** @type {number} */ k) =>
      si > 0 && xText && at != null && xText(Number(xs[k])) !== xText(Number(xs[at]));
    if (idx !== null) return given(v) && !elsewhere(idx) ? show(/** @type {number} */ (v)) : '';
    const rows = xs?.length ?? 0;
    const has = (/** @type {number} */ k) =>
      si === 0 ? u.data.slice(1).some((col) => given(col?.[k])) : given(u.data[si]?.[k]);
    if (si > 0 && xText) {
      // the x the legend shows off the chart: the last row where some series was measured
      let shown = -1;
      for (let k = rows - 1; k >= 0 && shown < 0; k--) if (u.data.slice(1).some((col) => given(col?.[k]))) shown = k;
      if (shown < 0) return '';
      const x = xText(Number(xs[shown]));
      for (let k = rows - 1; k >= 0; k--)
        if (given(u.data[si]?.[k]) && xText(Number(xs[k])) === x) return show(/** @type {number} */ (u.data[si][k]));
      for (let k = 0; k < rows; k++) if (has(k)) return '–'; // measured, but not at that x
      return '';
    }
    for (let k = rows - 1; k >= 0; k--) if (has(k)) return show(/** @type {number} */ (u.data[si][k]));
    return '';
  };
