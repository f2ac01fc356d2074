// The look that both figure layouts share (figure-layout.js: heatmaps; figure-lines.js: line
// plots): light colours always (a paper's figure), font sizes and margins, and the estimated text
// width that places labels without a DOM.
export const INK = '#202124';
export const MUTED = '#5f6368';
export const GRID = '#e3e5e8';
export const MASKED = 'rgb(218,220,224)';
export const FONT = 11;
export const TITLE = 14;
export const PAD = 14;
const MAX_CHARS = 14;

/** Estimated width of text in a sans-serif font (the SVG reader's font is unknown). @param {string} s @param {number} size */
export const textWidth = (s, size) => [...s].length * size * 0.6;
/** A label cut to MAX_CHARS characters. @param {unknown} s */
export const short = (s) => {
  const t = [...String(s)];
  return t.length > MAX_CHARS ? `${t.slice(0, MAX_CHARS - 1).join('')}…` : t.join('');
};

/**
 * The axis titles of a figure: the x title centred below the plot (from `y`, returned moved on
 * when there is one), the y title turned along the plot's left edge.
 * @param {any[]} items @param {{xLabel?: string, yLabel?: string}} f
 * @param {{centerX: number, y: number, middleY: number}} at
 * @returns {number} the y after the x title
 */
export function axisTitles(items, f, { centerX, y, middleY }) {
  const size = FONT + 1;
  if (f.xLabel)
    items.push({ k: 'text', x: centerX, y: (y += 14), text: f.xLabel, size, anchor: 'middle', cls: 'x-title' });
  if (f.yLabel)
    items.push({
      k: 'text',
      x: PAD + 12,
      y: middleY,
      text: f.yLabel,
      size,
      anchor: 'middle',
      rotate: -90,
      cls: 'y-title',
    });
  return y;
}
