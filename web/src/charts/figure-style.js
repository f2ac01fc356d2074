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

// A wide character (CJK and fullwidth forms: a Chinese figure's words) takes a whole em.
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
/** Estimated width of text in a sans-serif font (the SVG reader's font is unknown). @param {string} s @param {number} size */
export const textWidth = (s, size) => {
  const chars = [...s];
  const wide = chars.filter((c) => WIDE.test(c)).length;
  return (chars.length - wide) * size * 0.6 + wide * size;
};
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
