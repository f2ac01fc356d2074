// A matrix drawn on a canvas, one cell per entry, with optional row and column labels and a
// column of per-row values at the right (e.g. row sums). Hover, or focus and use the arrow keys,
// to read a cell: the `describe(i, j, value)` text shows in a tooltip. Non-finite entries
// (masked logits) are drawn grey. Signed data use a diverging map centred on 0. With `legend`
// (the name of the quantity), a colour scale under the map says what the colours mean: its range,
// and how the range was chosen (scaleNote). Axis labels are thinned so that they never touch.
import { sequential, diverging, css } from './colormap.js';
import { DetachedCanvas, cssColors } from './detached-canvas.js';
import { fmt } from './format.js';

export { fmt }; // its users import it from here too

/**
 * @typedef {object} HeatmapOptions
 * @property {string} label accessible name
 * @property {number} [maxSize] largest side in CSS pixels (cells shrink to fit)
 * @property {number} [maxCell] largest cell in CSS pixels
 * @property {(i: number, j: number, v: number) => string} [describe]
 * @property {string} [legend] the quantity's name ('weight', 'bias' ...): draw a colour scale
 * @property {HeatmapWords} [words] what the colour scale says, in the page's language (default English)
 */

/**
 * The colour scale's words (the caller's language; panels/positions-panel.js passes its own).
 * @typedef {{signed: (zero: string, range: string) => string, white: string, darkGrey: string,
 *   largestAbs: string, largest: string, masked: (grey: string) => string, grey: string, lightGrey: string}} HeatmapWords
 */
/** @type {HeatmapWords} */
const ENGLISH = {
  signed: (zero, range) => `blue below 0, ${zero} at 0, red above; ${range}`,
  white: 'white',
  darkGrey: 'dark grey',
  largestAbs: 'scaled to the largest |value|',
  largest: 'scaled to the largest value',
  masked: (grey) => `${grey}: masked (−∞)`,
  grey: 'grey',
  lightGrey: 'light grey',
};

// --heatmap-diverging: 'dark' where the page is dark (0 drawn dark grey, colormap.js).
const HEATMAP_COLORS = { '--heatmap-ink': '#3c4043', '--heatmap-cursor': '#202124', '--heatmap-diverging': 'light' };
const LABEL_W = 34;
const SIDE_W = 40;

/**
 * A heatmap's elements: the wrapper holding the canvas (focusable, an image named `label`), the
 * tooltip (a status line, hidden) and, with a legend, the colour scale's box.
 * @param {string} label @param {boolean} legend
 */
function heatmapDom(label, legend) {
  const wrap = document.createElement('div');
  wrap.className = 'heatmap';
  const canvas = document.createElement('canvas');
  canvas.tabIndex = 0;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', label);
  const tip = document.createElement('div');
  tip.className = 'heatmap-tip';
  tip.setAttribute('role', 'status');
  tip.hidden = true;
  wrap.append(canvas, tip);
  /** @type {HTMLElement|null} */
  let legendEl = null;
  if (legend) {
    legendEl = document.createElement('div');
    legendEl.className = 'heatmap-legend';
    wrap.append(legendEl);
  }
  return { wrap, canvas, tip, legendEl };
}

export class Heatmap {
  /** @param {HTMLElement} container @param {HeatmapOptions} opts */
  constructor(container, { label, maxSize = 260, maxCell = 18, describe, legend, words = ENGLISH }) {
    this.words = words;
    const { wrap, canvas, tip, legendEl } = heatmapDom(label, Boolean(legend));
    this.wrap = wrap;
    this.canvas = canvas;
    this.tip = tip;
    /** @type {HTMLElement|null} the colour scale (with `legend`) */
    this.legendEl = legendEl;
    this.legendName = legend;
    /** @type {string|undefined} what the colour scale says now (#legend) */
    this.legendKey = undefined;
    container.append(this.wrap);
    this.label = label;
    this.maxSize = maxSize;
    this.maxCell = maxCell;
    this.describe = describe;
    /** @type {number[][]} */
    this.matrix = [];
    /** @type {[number, number]|null} the cell read by hover or keys */
    this.cursor = null;
    /** @type {number|null} a row outlined by markRow() */
    this.markedRow = null;
    /** @type {string[]|undefined} */
    this.rowLabels = undefined;
    /** @type {string[]|undefined} */
    this.colLabels = undefined;
    /** @type {number[]|undefined} */
    this.side = undefined;
    /** @type {string|undefined} */
    this.sideLabel = undefined;
    /** @type {string|undefined} */
    this.scaleNote = undefined;
    // The layout and colour range of the last update() (none drawn before it).
    this.signed = false;
    this.scale = 1;
    this.lo = 0;
    this.hi = 1;
    this.offX = 0;
    this.offY = 0;
    this.cell = 0;
    /** @type {DetachedCanvas|undefined} */
    this.surface = undefined;
    /** @type {{epoch?: number, colors?: Record<string, string>}|undefined} */
    this.styleCache = undefined;
    this.canvas.addEventListener('mousemove', (e) => this.#hover(e));
    this.canvas.addEventListener('mouseleave', () => this.#show(null));
    this.canvas.addEventListener('keydown', (e) => this.#key(e));
    this.canvas.addEventListener('focus', () => this.matrix.length && this.#show([0, 0]));
    this.canvas.addEventListener('blur', () => this.#show(null));
  }

  /**
   * Draw a matrix.
   * @param {number[][]} matrix rows × cols
   * @param {{rowLabels?: string[], colLabels?: string[], side?: number[], sideLabel?: string,
   *   range?: [number, number], scaleNote?: string, edge?: number}} [opts] range: fixed colour range
   *   (default: the data's); scaleNote: how the range was chosen, said under the colour scale; edge:
   *   a dashed line after that many rows and columns (an attention map past the training length)
   */
  update(matrix, { rowLabels, colLabels, side, sideLabel, range, scaleNote, edge } = {}) {
    this.matrix = matrix;
    this.edge = edge;
    this.rowLabels = rowLabels;
    this.colLabels = colLabels;
    this.side = side;
    this.sideLabel = sideLabel;
    this.scaleNote = scaleNote;
    const rows = matrix.length;
    const cols = matrix[0]?.length ?? 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (const row of matrix)
      for (const v of row) if (Number.isFinite(v)) ((lo = Math.min(lo, v)), (hi = Math.max(hi, v)));
    if (range) [lo, hi] = range;
    if (!Number.isFinite(lo)) ((lo = 0), (hi = 1));
    this.signed = lo < 0;
    this.scale = this.signed ? Math.max(Math.abs(lo), Math.abs(hi)) || 1 : hi > lo ? hi - lo : 1;
    this.lo = this.signed ? -this.scale : Math.min(lo, 0);
    this.hi = this.signed ? this.scale : hi;
    const labels = Boolean(rowLabels);
    this.offX = labels ? LABEL_W : 0;
    this.offY = colLabels ? 16 : 0;
    const avail = this.maxSize - this.offX - (side ? SIDE_W : 0);
    this.cell = Math.max(1, Math.min(this.maxCell, Math.floor(avail / Math.max(rows, cols, 1))));
    const w = this.offX + cols * this.cell + (side ? SIDE_W : 0);
    const h = this.offY + rows * this.cell;
    this.#draw(w, h);
    if (this.legendEl) this.#legend(matrix, scaleNote);
  }

  /** The colour scale: a gradient bar between its end values, then what the range is. */
  /** @param {number[][]} matrix @param {string|undefined} note */
  #legend(matrix, note) {
    const box = /** @type {HTMLElement} */ (this.legendEl);
    const masked = matrix.some((row) => row.some((v) => !Number.isFinite(v)));
    const data = { lo: String(this.lo), hi: String(this.hi), diverging: String(this.signed) };
    for (const [k, v] of Object.entries(data)) if (box.dataset[k] !== v) box.dataset[k] = v;
    // The same scale as drawn: leave the DOM alone (a rebuilt legend lays out the page again).
    const key = [fmt(this.lo), fmt(this.hi), this.signed, masked, note, this.#dark()].join('|');
    if (key === this.legendKey && box.firstChild) return;
    this.legendKey = key;
    const dark = this.#dark();
    const stops = this.signed
      ? [-1, -0.5, 0, 0.5, 1].map((t) => diverging(t, dark))
      : [0, 0.25, 0.5, 0.75, 1].map(sequential);
    const bar = document.createElement('span');
    bar.className = 'heatmap-legend-bar';
    bar.style.background = `linear-gradient(to right, ${stops.map(css).join(', ')})`;
    const num = (/** @type {string} */ cls, /** @type {string} */ t) => {
      const e = document.createElement('span');
      e.className = cls;
      e.textContent = t;
      return e;
    };
    const row = document.createElement('div');
    row.className = 'heatmap-legend-row';
    row.append(
      num('heatmap-legend-name', `${this.legendName}:`),
      num('heatmap-legend-lo', fmt(this.lo)),
      bar,
      num('heatmap-legend-hi', fmt(this.hi)),
    );
    const text = num('heatmap-legend-note', this.#says(note, dark));
    box.replaceChildren(row, text);
    const w = this.words;
    if (masked) box.append(num('heatmap-legend-note', w.masked(dark ? w.lightGrey : w.grey)));
  }

  /** What the colour range is. @param {string|undefined} note @param {boolean} [dark] the dark map's words */
  #says(note, dark = false) {
    // Signed: symmetric about 0 (to the largest |value| unless a fixed range was given).
    const w = this.words;
    const range = note ?? (this.signed ? w.largestAbs : w.largest);
    return this.signed ? w.signed(dark ? w.darkGrey : w.white, range) : range;
  }

  /**
   * The map as a figure to download (charts/figure-layout.js): its matrix, labels, colour range
   * and colour scale as drawn; null before the first update.
   * @param {{title: string, xLabel?: string, yLabel?: string}} what
   * @returns {import('./figure-layout.js').HeatmapFigure|null}
   */
  figure({ title, xLabel, yLabel }) {
    if (!this.matrix.length) return null;
    return {
      kind: 'heatmap',
      title,
      xLabel,
      yLabel,
      matrix: this.matrix,
      rowLabels: this.rowLabels,
      colLabels: this.colLabels,
      quantity: this.legendName ?? 'value',
      lo: this.lo,
      hi: this.hi,
      diverging: this.signed,
      note: this.#says(this.scaleNote),
      side: this.side ? { label: this.sideLabel ?? '', values: this.side } : undefined,
    };
  }

  /** Whether the page asks for the dark diverging map (--heatmap-diverging: dark). */
  #dark() {
    return cssColors(this.canvas, HEATMAP_COLORS, (this.styleCache ??= {}))['--heatmap-diverging'] === 'dark';
  }

  /** @param {number} v @param {boolean} dark @returns {number[]} [r, g, b] */
  #color(v, dark) {
    if (!Number.isFinite(v)) return [218, 220, 224];
    if (this.signed) return diverging(v / this.scale, dark);
    return sequential((v - this.lo) / (this.hi - this.lo || 1));
  }

  /** @param {number} w @param {number} h */
  #draw(w, h) {
    const dpr = window.devicePixelRatio || 1;
    // Off the page (charts/detached-canvas.js): the font and the colours force no layout.
    this.surface ??= new DetachedCanvas(this.canvas);
    const g = this.surface.begin(w, h, dpr);
    const { matrix, cell, offX, offY } = this;
    const cols = matrix[0]?.length ?? 0;
    // Cells written straight into the canvas's device pixels (putImageData). Not a one-pixel-per-
    // cell canvas scaled up with drawImage: in a software canvas that copy flushes and costs a few
    // ms per map, which adds up to a long main-thread task for a panel of heads.
    if (matrix.length && cols) this.#cells(g, dpr);
    // Label and cursor colours: the CSS custom properties --heatmap-ink / --heatmap-cursor where
    // set (the widget's themes), else dark grey on white.
    const { '--heatmap-ink': ink, '--heatmap-cursor': cursor } = cssColors(
      this.canvas,
      HEATMAP_COLORS,
      (this.styleCache ??= {}),
    );
    g.fillStyle = ink;
    g.font = `${Math.min(11, Math.max(8, cell - 2))}px system-ui, sans-serif`;
    g.textBaseline = 'middle';
    const short = (/** @type {string} */ s) => (String(s).length > 4 ? `${String(s).slice(0, 3)}…` : String(s));
    const fontPx = Math.min(11, Math.max(8, cell - 2));
    if (this.rowLabels) {
      g.textAlign = 'right';
      const every = thinning(cell, fontPx + 1);
      this.rowLabels.forEach((t, i) => i % every === 0 && g.fillText(short(t), offX - 3, offY + (i + 0.5) * cell));
    }
    if (this.colLabels) {
      g.textAlign = 'center';
      // Every k-th label, k so that the widest label and a gap fit in k cells: never "101112".
      const widest = Math.max(0, ...this.colLabels.map((t) => g.measureText(short(t)).width));
      const every = thinning(cell, widest + 4);
      this.colLabels.forEach((t, j) => j % every === 0 && g.fillText(short(t), offX + (j + 0.5) * cell, 8));
    }
    if (this.side) {
      g.textAlign = 'left';
      const x = offX + cols * cell + 4;
      if (this.sideLabel && offY) g.fillText(this.sideLabel, x, 8);
      if (cell >= 8) this.side.forEach((v, i) => g.fillText(fmt(v), x, offY + (i + 0.5) * cell));
    }
    if (this.edge && this.edge < matrix.length) this.#edgeLines(g, this.edge, cols);
    if (this.markedRow !== null && this.markedRow < matrix.length) {
      g.strokeStyle = cursor; // a row picked by a caller (the widget's highlight()): outlined across
      g.lineWidth = 2;
      g.strokeRect(offX + 1, offY + this.markedRow * cell + 1, cols * cell - 2, cell - 2);
    }
    if (this.cursor) {
      const [i, j] = this.cursor;
      g.strokeStyle = cursor;
      g.lineWidth = 1.5;
      g.strokeRect(offX + j * cell + 0.75, offY + i * cell + 0.75, cell - 1.5, cell - 1.5);
    }
    this.surface.end();
  }

  /**
   * Dashed lines after `edge` rows and columns (update()'s edge: the training length), light over
   * the cells so that they show on the dark end of the scale.
   * @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} g @param {number} edge @param {number} cols
   */
  #edgeLines(g, edge, cols) {
    const { cell, offX, offY } = this;
    const at = edge * cell;
    g.strokeStyle = 'rgba(255, 255, 255, 0.9)';
    g.lineWidth = 1.5;
    g.setLineDash([4, 3]);
    g.beginPath();
    g.moveTo(offX, offY + at);
    g.lineTo(offX + cols * cell, offY + at);
    g.moveTo(offX + at, offY);
    g.lineTo(offX + at, offY + this.matrix.length * cell);
    g.stroke();
    g.setLineDash([]);
  }

  // One device-pixel row per row of cells (native fills of 32-bit RGBA), copied down the cell.
  /** @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} g @param {number} dpr */
  #cells(g, dpr) {
    const { matrix, cell, offX, offY } = this;
    const rows = matrix.length;
    const cols = matrix[0].length;
    const edges = (/** @type {number} */ n) => Array.from({ length: n + 1 }, (_, k) => Math.round(k * cell * dpr));
    const ex = edges(cols);
    const ey = edges(rows);
    const W = ex[cols];
    const img = g.createImageData(W, ey[rows]);
    const px = new Uint32Array(img.data.buffer); // RGBA bytes: little-endian ABGR words
    const dark = this.#dark();
    for (let i = 0; i < rows; i++) {
      const top = ey[i] * W;
      for (let j = 0; j < cols; j++) {
        const [r, gg, b] = this.#color(matrix[i][j], dark);
        px.fill(((255 << 24) | (b << 16) | (gg << 8) | r) >>> 0, top + ex[j], top + ex[j + 1]);
      }
      for (let y = ey[i] + 1; y < ey[i + 1]; y++) px.copyWithin(y * W, top, top + W);
    }
    g.putImageData(img, Math.round(offX * dpr), Math.round(offY * dpr));
  }

  /** @param {MouseEvent} e @returns {[number, number]|null} */
  #cellAt(e) {
    const r = this.canvas.getBoundingClientRect();
    const j = Math.floor((e.clientX - r.left - this.offX) / this.cell);
    const i = Math.floor((e.clientY - r.top - this.offY) / this.cell);
    const rows = this.matrix.length;
    const cols = this.matrix[0]?.length ?? 0;
    return i >= 0 && j >= 0 && i < rows && j < cols ? [i, j] : null;
  }

  /** @param {MouseEvent} e */
  #hover(e) {
    this.#show(this.#cellAt(e));
  }

  /** @param {KeyboardEvent} e */
  #key(e) {
    /** @type {Record<string, [number, number]>} */
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (e.key === 'Escape') return this.#show(null);
    const d = moves[e.key];
    if (!d || !this.matrix.length) return;
    e.preventDefault();
    const [i, j] = this.cursor ?? [0, 0];
    const rows = this.matrix.length;
    const cols = this.matrix[0].length;
    this.#show([Math.min(rows - 1, Math.max(0, i + d[0])), Math.min(cols - 1, Math.max(0, j + d[1]))]);
  }

  /** @param {[number, number]|null} cell */
  #show(cell) {
    this.cursor = cell;
    const dpr = window.devicePixelRatio || 1;
    this.#draw(this.canvas.width / dpr, this.canvas.height / dpr);
    if (!cell) {
      this.tip.hidden = true;
      return;
    }
    const [i, j] = cell;
    const v = this.matrix[i][j];
    this.tip.textContent = this.describe ? this.describe(i, j, v) : `row ${i}, column ${j}: ${fmt(v)}`;
    this.tip.hidden = false;
    this.tip.style.left = `${this.offX + (j + 1) * this.cell + 6}px`;
    this.tip.style.top = `${this.offY + i * this.cell}px`;
  }

  /** Outline row i (null: none), as the cursor is drawn. @param {number|null} i */
  markRow(i) {
    if (this.markedRow === i) return;
    this.markedRow = i;
    if (!this.matrix?.length) return;
    const dpr = window.devicePixelRatio || 1;
    this.#draw(this.canvas.width / dpr, this.canvas.height / dpr);
  }

  destroy() {
    this.wrap.remove();
  }
}

/**
 * Label every k-th cell, k the smallest count of cells that holds `need` pixels.
 * @param {number} cell cell size in CSS pixels
 * @param {number} need pixels one label needs
 */
export function thinning(cell, need) {
  return Math.max(1, Math.ceil(need / Math.max(cell, 0.5)));
}
