// A figure for publication as a list of drawing items (rects, text, paths, a gradient bar), laid
// out once and drawn twice: as SVG text (figure-svg.js) and on a canvas for PNG (figure-export.js),
// so that both show the same axes, labels and colour scale. Two kinds: a heatmap (matrix, row and
// column labels, axis titles, an optional Σ column, the colour bar with its range and what it
// means) and a line plot (series, axes with ticks, markers, legend; or bars). The same layout, in
// C++, writes the CLI's SVG (core/cli/svg_figure.cpp). Light colours always: a paper's figure.
// No DOM (tests/node/figure.test.mjs runs it under Node).
import { sequential, diverging, css } from './colormap.js';
import { fmt, thinning } from './heatmap.js';

/**
 * @typedef {{k: 'rect', x: number, y: number, w: number, h: number, fill: string, stroke?: string, cls?: string}
 *   | {k: 'text', x: number, y: number, text: string, size: number, anchor?: 'start'|'middle'|'end', weight?: number,
 *      fill?: string, rotate?: number, cls?: string}
 *   | {k: 'path', segs: [number, number][][], stroke: string, width: number, dash?: number[], cls?: string}
 *   | {k: 'bar', x: number, y: number, w: number, h: number, stops: string[], cls?: string}} Item
 * @typedef {{width: number, height: number, title: string, items: Item[]}} Layout
 * @typedef {{kind: 'heatmap', title: string, matrix: number[][], rowLabels?: string[], colLabels?: string[],
 *   xLabel?: string, yLabel?: string, quantity: string, lo: number, hi: number, diverging: boolean, note?: string,
 *   side?: {label: string, values: number[]}, cellText?: string[][], cell?: number, maskNote?: string, extra?: Record<string, unknown>,
 *   table?: {header: string[], rows: unknown[][]}}} HeatmapFigure
 * @typedef {{label: string, values: (number|null)[], color: string, dash?: number[]}} FigureSeries
 * @typedef {{kind: 'lines', title: string, xs: number[], series: FigureSeries[], xLabel?: string, yLabel?: string,
 *   markers?: {x: number, label: string}[], yRange?: [number, number], bars?: boolean}} LineFigure
 * @typedef {HeatmapFigure | LineFigure} Figure
 */

export const INK = '#202124';
export const MUTED = '#5f6368';
export const GRID = '#e3e5e8';
export const MASKED = 'rgb(218,220,224)';
const FONT = 11;
const TITLE = 14;
const PAD = 14;
const MAX_CHARS = 14;

/** Estimated width of text in a sans-serif font (the SVG reader's font is unknown). @param {string} s @param {number} size */
export const textWidth = (s, size) => [...s].length * size * 0.6;
/** A label cut to MAX_CHARS characters. @param {unknown} s */
export const short = (s) => {
  const t = [...String(s)];
  return t.length > MAX_CHARS ? `${t.slice(0, MAX_CHARS - 1).join('')}…` : t.join('');
};

/**
 * The colour of a heatmap value, as the page's heatmap draws it.
 * @param {HeatmapFigure} f @param {number} v
 */
export function cellColor(f, v) {
  if (!Number.isFinite(v)) return MASKED;
  if (f.diverging) return css(diverging(v / (Math.max(Math.abs(f.lo), Math.abs(f.hi)) || 1)));
  return css(sequential((v - f.lo) / (f.hi - f.lo || 1)));
}

/** @param {Figure} f @returns {Layout} */
export function layout(f) {
  return f.kind === 'heatmap' ? heatmapLayout(f) : lineLayout(f);
}

/**
 * Where a heatmap's matrix sits: the cell size, the matrix's corner and size, the labels (cut short).
 * @typedef {{cell: number, matX: number, matY: number, matW: number, matH: number, rowLabels: string[],
 *   colLabels: string[]}} HeatmapGrid
 */

/** @param {HeatmapFigure} f @returns {Layout} */
export function heatmapLayout(f) {
  /** @type {Item[]} */
  const items = [];
  const g = heatmapGrid(f);
  const { matX, matY, matW, matH } = g;
  items.push({ k: 'text', x: PAD, y: PAD + TITLE - 2, text: f.title, size: TITLE, weight: 600, cls: 'title' });
  heatmapCells(items, f, g);
  const colH = heatmapLabels(items, f, g);
  let y = matY + matH + colH + 4;
  if (f.xLabel)
    items.push({
      k: 'text',
      x: matX + matW / 2,
      y: (y += 14),
      text: f.xLabel,
      size: FONT + 1,
      anchor: 'middle',
      cls: 'x-title',
    });
  if (f.yLabel)
    items.push({
      k: 'text',
      x: PAD + 12,
      y: matY + matH / 2,
      text: f.yLabel,
      size: FONT + 1,
      anchor: 'middle',
      rotate: -90,
      cls: 'y-title',
    });
  const legend = colorScale(items, f, matW, y + 14);
  const width = Math.ceil(
    Math.max(matX + matW + (f.side ? 50 : 0), legend.right, PAD + textWidth(f.title, TITLE)) + PAD,
  );
  return { width, height: Math.ceil(legend.y + PAD - 8), title: f.title, items };
}

/** @param {HeatmapFigure} f @returns {HeatmapGrid} */
function heatmapGrid(f) {
  const rows = f.matrix.length;
  const cols = f.matrix[0]?.length ?? 0;
  const cell = f.cell ?? Math.max(3, Math.min(28, Math.floor(420 / Math.max(rows, cols, 1))));
  const rowLabels = (f.rowLabels ?? []).map(short);
  const colLabels = (f.colLabels ?? []).map(short);
  const rowW = rowLabels.length ? Math.max(...rowLabels.map((s) => textWidth(s, FONT))) + 6 : 0;
  // Whole units: at the PNG's integer scale, cell edges fall on device pixels (no seams).
  const matX = Math.ceil(PAD + (f.yLabel ? 20 : 0) + rowW);
  const matY = PAD + TITLE + (f.side ? 22 : 12);
  return { cell, matX, matY, matW: cols * cell, matH: rows * cell, rowLabels, colLabels };
}

/** The matrix's cells, and the text in them (white on dark cells). @param {Item[]} items @param {HeatmapFigure} f @param {HeatmapGrid} g */
function heatmapCells(items, f, { cell, matX, matY }) {
  f.matrix.forEach((row, i) =>
    row.forEach((v, j) =>
      items.push({
        k: 'rect',
        x: matX + j * cell,
        y: matY + i * cell,
        w: cell,
        h: cell,
        fill: cellColor(f, v),
        cls: 'cell',
      }),
    ),
  );
  if (f.cellText)
    f.matrix.forEach((row, i) =>
      row.forEach((v, j) => {
        const t = f.cellText?.[i]?.[j];
        const dark = f.diverging
          ? Math.abs(v) > 0.6 * Math.max(Math.abs(f.lo), Math.abs(f.hi))
          : (v - f.lo) / (f.hi - f.lo || 1) < 0.55;
        if (t)
          items.push({
            k: 'text',
            x: matX + (j + 0.5) * cell,
            y: matY + (i + 0.5) * cell + 4,
            text: t,
            size: 10,
            anchor: 'middle',
            fill: dark && Number.isFinite(v) ? '#ffffff' : INK,
          });
      }),
    );
}

/**
 * The row and column labels and the Σ column; returns the column labels' height.
 * @param {Item[]} items @param {HeatmapFigure} f @param {HeatmapGrid} g
 */
function heatmapLabels(items, f, { cell, matX, matY, matW, matH, rowLabels, colLabels }) {
  // Row labels, every k-th when the cells are smaller than the font.
  const rEvery = thinning(cell, FONT + 1);
  rowLabels.forEach(
    (s, i) =>
      i % rEvery === 0 &&
      items.push({
        k: 'text',
        x: matX - 4,
        y: matY + (i + 0.5) * cell + 4,
        text: s,
        size: FONT,
        anchor: 'end',
        cls: 'row-label',
      }),
  );
  // Column labels: upright when the widest fits a cell, else turned (reading upwards), thinned.
  const colW = colLabels.length ? Math.max(...colLabels.map((s) => textWidth(s, FONT))) : 0;
  const turned = colW + 4 > cell;
  const cEvery = turned ? thinning(cell, FONT + 1) : 1;
  colLabels.forEach((s, j) => {
    if (j % cEvery) return;
    const x = matX + (j + 0.5) * cell;
    items.push(
      turned
        ? { k: 'text', x: x + 4, y: matY + matH + 4, text: s, size: FONT, anchor: 'end', rotate: -90, cls: 'col-label' }
        : { k: 'text', x, y: matY + matH + FONT + 3, text: s, size: FONT, anchor: 'middle', cls: 'col-label' },
    );
  });
  if (f.side) {
    const x = matX + matW + 6;
    items.push({ k: 'text', x, y: matY - 3, text: f.side.label, size: FONT, weight: 600 });
    if (cell >= 9)
      f.side.values.forEach((v, i) =>
        items.push({
          k: 'text',
          x,
          y: matY + (i + 0.5) * cell + 4,
          text: fmt(v),
          size: Math.min(FONT, cell - 1),
          cls: 'side',
        }),
      );
  }
  return colLabels.length ? (turned ? colW + 6 : FONT + 6) : 0;
}

/**
 * The colour scale from `y` down: name, low end, gradient bar, high end; then what the range is
 * (the figure's note, and grey for masked cells). Returns the y below it and its right edge.
 * @param {Item[]} items @param {HeatmapFigure} f @param {number} matW @param {number} y
 */
function colorScale(items, f, matW, y) {
  const name = `${f.quantity}:`;
  const lo = fmt(f.lo);
  const hi = fmt(f.hi);
  let x = PAD;
  items.push({ k: 'text', x, y: y + 9, text: name, size: FONT, cls: 'legend-name' });
  x += textWidth(name, FONT) + 6;
  items.push({ k: 'text', x, y: y + 9, text: lo, size: FONT, cls: 'legend-lo' });
  x += textWidth(lo, FONT) + 4;
  const barW = Math.max(120, Math.min(260, matW));
  const stops = f.diverging
    ? [-1, -0.5, 0, 0.5, 1].map((t) => css(diverging(t)))
    : [0, 0.25, 0.5, 0.75, 1].map((t) => css(sequential(t)));
  items.push({ k: 'bar', x, y, w: barW, h: 11, stops, cls: 'colorbar' });
  if (f.diverging)
    items.push({ k: 'text', x: x + barW / 2, y: y + 22, text: '0', size: 9, anchor: 'middle', fill: MUTED });
  x += barW + 4;
  items.push({ k: 'text', x, y: y + 9, text: hi, size: FONT, cls: 'legend-hi' });
  let right = x + textWidth(hi, FONT);
  y += f.diverging ? 36 : 28;
  const notes = [
    f.note ?? '',
    f.matrix.some((r) => r.some((v) => !Number.isFinite(v))) ? (f.maskNote ?? 'grey: masked (−∞)') : '',
  ].filter(Boolean);
  for (const n of notes) {
    items.push({ k: 'text', x: PAD, y, text: n, size: FONT - 1, fill: MUTED, cls: 'legend-note' });
    right = Math.max(right, PAD + textWidth(n, FONT - 1));
    y += 14;
  }
  return { y, right };
}

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
  let y = top + plotH + FONT + 8;
  if (f.xLabel)
    items.push({
      k: 'text',
      x: left + plotW / 2,
      y: (y += 14),
      text: f.xLabel,
      size: FONT + 1,
      anchor: 'middle',
      cls: 'x-title',
    });
  if (f.yLabel)
    items.push({
      k: 'text',
      x: PAD + 12,
      y: top + plotH / 2,
      text: f.yLabel,
      size: FONT + 1,
      anchor: 'middle',
      rotate: -90,
      cls: 'y-title',
    });
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
