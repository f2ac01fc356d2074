// A figure's four files in the page: SVG, JSON and CSV from figure-svg.js, and a PNG drawn at
// `scale` times its size straight on a canvas from the same layout (no SVG image decoded: that
// would need the host page's CSP to allow blob:/data: images, which a widget cannot count on).
import { layout, INK } from './figure-layout.js';
import { figureSVG, figureJSON, figureCSV } from './figure-svg.js';

/** @typedef {import('./figure-layout.js').Figure} Figure */
/** @typedef {'svg'|'png'|'json'|'csv'} FigureFormat */

export const FORMATS = /** @type {const} */ (['svg', 'png', 'json', 'csv']);
const FONT_FAMILY = 'system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif';
/** The PNG's pixels per figure unit (an on-screen heatmap is at most 250 px: this is 4x and more). */
export const PNG_SCALE = 3;

/**
 * The figure drawn on a new canvas, `scale` device pixels per unit.
 * @param {Figure} f
 * @param {number} [scale]
 * @returns {HTMLCanvasElement}
 */
export function figureCanvas(f, scale = PNG_SCALE) {
  const L = layout(f);
  const c = document.createElement('canvas');
  c.width = Math.round(L.width * scale);
  c.height = Math.round(L.height * scale);
  const g = /** @type {CanvasRenderingContext2D} */ (c.getContext('2d'));
  g.scale(scale, scale);
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, L.width, L.height);
  for (const it of L.items) {
    if (it.k === 'rect') {
      g.fillStyle = it.fill;
      g.fillRect(it.x, it.y, it.w, it.h);
    } else if (it.k === 'bar') {
      const grad = g.createLinearGradient(it.x, 0, it.x + it.w, 0);
      it.stops.forEach((s, i) => grad.addColorStop(i / (it.stops.length - 1), s));
      g.fillStyle = grad;
      g.fillRect(it.x, it.y, it.w, it.h);
    } else if (it.k === 'path') {
      g.strokeStyle = it.stroke;
      g.lineWidth = it.width;
      g.setLineDash(it.dash ?? []);
      g.beginPath();
      for (const seg of it.segs) seg.forEach(([x, y], i) => (i ? g.lineTo(x, y) : g.moveTo(x, y)));
      g.stroke();
      g.setLineDash([]);
    } else {
      g.save();
      g.fillStyle = it.fill ?? INK;
      g.font = `${it.weight ?? 400} ${it.size}px ${FONT_FAMILY}`;
      g.textAlign = it.anchor === 'middle' ? 'center' : it.anchor === 'end' ? 'right' : 'left';
      g.textBaseline = 'alphabetic';
      g.translate(it.x, it.y);
      if (it.rotate) g.rotate((it.rotate * Math.PI) / 180);
      g.fillText(it.text, 0, 0);
      g.restore();
    }
  }
  return c;
}

/** @param {Figure} f @param {number} [scale] @returns {Promise<Blob>} */
export function figurePNG(f, scale = PNG_SCALE) {
  const c = figureCanvas(f, scale);
  return new Promise((resolve, reject) =>
    c.toBlob((b) => (b ? resolve(b) : reject(new Error('the PNG could not be made'))), 'image/png'),
  );
}

/**
 * One file of the figure.
 * @param {Figure} f
 * @param {FigureFormat} format
 * @returns {Promise<Blob>}
 */
export async function figureBlob(f, format) {
  if (format === 'png') return figurePNG(f);
  if (format === 'svg') return new Blob([figureSVG(f)], { type: 'image/svg+xml' });
  if (format === 'json') return new Blob([figureJSON(f)], { type: 'application/json' });
  return new Blob([figureCSV(f)], { type: 'text/csv' });
}

/** A file name from words: lower case, letters, digits and dashes. @param {string} s */
export const fileSlug = (s) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80) || 'figure';
