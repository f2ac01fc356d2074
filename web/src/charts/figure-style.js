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
