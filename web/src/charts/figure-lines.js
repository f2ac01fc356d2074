// The line plot of a publication figure (figure-layout.js has the drawing items and the heatmap):
// series, axes with ticks, markers, legend; or bars. The same layout, in C++, writes the CLI's SVG
// (core/cli/svg_figure.cpp). No DOM (tests/node/figure.test.mjs runs it under Node).
import { GRID, MUTED, FONT, PAD, TITLE, textWidth, axisTitles } from './figure-style.js';
import { fmt } from './heatmap.js';

/** @typedef {import('./figure-layout.js').Item} Item */
/** @typedef {import('./figure-layout.js').Layout} Layout */
/** @typedef {import('./figure-layout.js').LineFigure} LineFigure */
/** @typedef {import('./figure-layout.js').FigureSeries} FigureSeries */

/** Ticks at 1, 2 or 5 × 10^k covering [lo, hi]. @param {number} lo @param {number} hi @param {number} n */
export function ticks(lo, hi, n = 5) {
  const span = hi - lo || Math.abs(hi) || 1;
  const raw = span / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
    out.push(Math.abs(t) < step * 1e-9 ? 0 : Number(t.toPrecision(12)));
  return out;
}

/**
 * A line plot's frame: the data ranges and their ticks, the plot's box, and the scales from data
 * to figure coordinates (y clamped to the range).
 * @typedef {{x0: number, x1: number, y0: number, y1: number, xt: number[], yt: number[], left: number, top: number,
 *   plotW: number, plotH: number, sx: (x: number) => number, sy: (v: number) => number}} LineFrame
 */
const LINE_WIDTH = 640;

/** @param {LineFigure} f @returns {Layout} */
export function lineLayout(f) {
  /** @type {Item[]} */
  const items = [];
  const p = lineFrame(f);
  items.push({ k: 'text', x: PAD, y: PAD + TITLE - 2, text: f.title, size: TITLE, weight: 600, cls: 'title' });
  lineAxes(items, f, p);
  for (const s of f.series) {
    if (f.bars) seriesBars(items, f, s, p);
    else seriesPath(items, f, s, p);
  }
  const y = lineLegend(items, f, p);
  return { width: LINE_WIDTH, height: Math.ceil(y + PAD), title: f.title, items };
}

/** @param {LineFigure} f @returns {LineFrame} */
function lineFrame(f) {
  const xsAll = f.xs.filter(Number.isFinite);
  const vals = /** @type {number[]} */ (
    f.series.flatMap((s) => s.values).filter((v) => v !== null && Number.isFinite(v))
  );
  let [y0, y1] = f.yRange ?? [Math.min(0, ...vals), Math.max(...vals, 0)];
  if (!f.yRange && !f.bars) [y0, y1] = vals.length ? [Math.min(...vals), Math.max(...vals)] : [0, 1];
  if (y1 - y0 < 1e-12) ((y0 -= 0.5), (y1 += 0.5));
  if (!f.yRange) {
    // Out to the ticks around the data: the top and bottom values sit on a grid line.
    const t = ticks(y0, y1);
    const step = t.length > 1 ? t[1] - t[0] : 1;
    [y0, y1] = [Math.floor(y0 / step - 1e-9) * step, Math.ceil(y1 / step - 1e-9) * step];
  }
  const yt = ticks(y0, y1);
  let x0 = xsAll.length ? Math.min(...xsAll) : 0;
  let x1 = xsAll.length ? Math.max(...xsAll) : 1;
  if (f.bars) ((x0 -= 0.5), (x1 += 0.5));
  if (x1 === x0) x1 = x0 + 1;
  const xt = ticks(x0, x1, 8).filter((t) => !f.bars || Number.isInteger(t));
  const tickW = Math.max(...yt.map((t) => textWidth(fmt(t), FONT)));
  const left = PAD + (f.yLabel ? 20 : 0) + tickW + 6;
  const top = PAD + TITLE + 14;
  const plotW = LINE_WIDTH - left - PAD;
  const plotH = 260;
  const sx = (/** @type {number} */ x) => left + ((x - x0) / (x1 - x0)) * plotW;
  const sy = (/** @type {number} */ v) => top + plotH - ((Math.min(y1, Math.max(y0, v)) - y0) / (y1 - y0)) * plotH;
  return { x0, x1, y0, y1, xt, yt, left, top, plotW, plotH, sx, sy };
}

/** Grid lines and ticks, the axes, the markers. @param {Item[]} items @param {LineFigure} f @param {LineFrame} p */
function lineAxes(items, f, { x0, x1, xt, yt, left, top, plotW, plotH, sx, sy }) {
  for (const t of yt) {
    items.push({
      k: 'path',
      segs: [
        [
          [left, sy(t)],
          [left + plotW, sy(t)],
        ],
      ],
      stroke: GRID,
      width: 1,
    });
    items.push({ k: 'text', x: left - 5, y: sy(t) + 4, text: fmt(t), size: FONT, anchor: 'end', cls: 'y-tick' });
  }
  for (const t of xt)
    items.push({
      k: 'text',
      x: sx(t),
      y: top + plotH + FONT + 5,
      text: fmt(t),
      size: FONT,
      anchor: 'middle',
      cls: 'x-tick',
    });
  items.push({
    k: 'path',
    segs: [
      [
        [left, top],
        [left, top + plotH],
        [left + plotW, top + plotH],
      ],
    ],
    stroke: MUTED,
    width: 1,
    cls: 'axes',
  });
  for (const m of f.markers ?? []) {
    if (m.x < x0 || m.x > x1) continue;
    items.push({
      k: 'path',
      segs: [
        [
          [sx(m.x), top],
          [sx(m.x), top + plotH],
        ],
      ],
      stroke: MUTED,
      width: 1,
      dash: [4, 3],
      cls: 'marker',
    });
    if (m.label) items.push({ k: 'text', x: sx(m.x) + 3, y: top + 10, text: m.label, size: FONT - 1, fill: MUTED });
  }
}

/** One series as bars from 0 (or the range's bottom). @param {Item[]} items @param {LineFigure} f @param {FigureSeries} s @param {LineFrame} p */
function seriesBars(items, f, s, { y0, plotW, sx, sy }) {
  const bw = Math.max(1, (plotW / Math.max(1, f.xs.length)) * 0.7);
  s.values.forEach((v, i) => {
    if (v === null || !Number.isFinite(v)) return;
    const a = sy(Math.max(0, y0));
    const b = sy(v);
    items.push({
      k: 'rect',
      x: sx(f.xs[i]) - bw / 2,
      y: Math.min(a, b),
      w: bw,
      h: Math.abs(a - b),
      fill: s.color,
      cls: 'bar',
    });
  });
}

/** One series as a line, broken where a value or its x is missing. @param {Item[]} items @param {LineFigure} f @param {FigureSeries} s @param {LineFrame} p */
function seriesPath(items, f, s, { sx, sy }) {
  /** @type {[number, number][][]} */
  const segs = [[]];
  s.values.forEach((v, i) => {
    if (v === null || !Number.isFinite(v) || !Number.isFinite(f.xs[i])) {
      if (segs[segs.length - 1].length) segs.push([]);
      return;
    }
    segs[segs.length - 1].push([sx(f.xs[i]), sy(v)]);
  });
  items.push({
    k: 'path',
    segs: segs.filter((q) => q.length),
    stroke: s.color,
    width: 1.6,
    dash: s.dash,
    cls: 'series',
  });
}

/** The axis titles and the legend below the plot; returns the y of its last line. @param {Item[]} items @param {LineFigure} f @param {LineFrame} p */
function lineLegend(items, f, { left, top, plotW, plotH }) {
  let y = axisTitles(items, f, { centerX: left + plotW / 2, y: top + plotH + FONT + 8, middleY: top + plotH / 2 });
  y += 8;
  for (const s of f.series) {
    y += 16;
    if (f.bars) items.push({ k: 'rect', x: left, y: y - 8, w: 18, h: 8, fill: s.color });
    else
      items.push({
        k: 'path',
        segs: [
          [
            [left, y - 4],
            [left + 18, y - 4],
          ],
        ],
        stroke: s.color,
        width: 2,
        dash: s.dash,
      });
    items.push({ k: 'text', x: left + 24, y, text: s.label, size: FONT, cls: 'legend' });
  }
  return y;
}
