// A figure for publication as a list of drawing items (rects, text, paths, a gradient bar), laid
// out once and drawn twice: as SVG text (figure-svg.js) and on a canvas for PNG (figure-export.js),
// so that both show the same axes, labels and colour scale. Two kinds: a heatmap (matrix, row and
// column labels, axis titles, an optional Σ column, the colour bar with its range and what it
// means), here, and a line plot (series, axes with ticks, markers, legend; or bars: figure-lines.js),
// with the look they share in figure-style.js. The same layout, in C++, writes the CLI's SVG
// (core/cli/svg_figure.cpp). Light colours always: a paper's figure.
// No DOM (tests/node/figure.test.mjs runs it under Node).
import { sequential, diverging, css } from './colormap.js';
import { fmt, thinning } from './heatmap.js';
import { INK, MUTED, MASKED, FONT, PAD, TITLE, textWidth, short, axisTitles } from './figure-style.js';
import { lineLayout } from './figure-lines.js';

export { INK, MUTED, GRID, MASKED, textWidth, short } from './figure-style.js';
export { ticks, lineLayout } from './figure-lines.js';

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
  const y = axisTitles(items, f, { centerX: matX + matW / 2, y: matY + matH + colH + 4, middleY: matY + matH / 2 });
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
