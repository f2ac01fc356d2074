// The learner's grid as a picture (the "Download PNG" button): the caption, the column and row
// values, and each cell's numbers on its colour, drawn on a canvas of its own from what the table
// shows (white background, so that the file reads anywhere).

const CELL_W = 150;
const CELL_H = 58;
const HEAD_H = 28;
const PAD = 14;

/**
 * @param {import('./grid-state.js').GridSpec} spec
 * @param {HTMLTableCellElement[]} tds the table's cells, row by row
 * @param {string} caption
 * @returns {HTMLCanvasElement}
 */
export function drawGridPng(spec, tds, caption) {
  const c = document.createElement('canvas');
  const g = /** @type {CanvasRenderingContext2D} */ (c.getContext('2d'));
  g.font = '13px system-ui, sans-serif';
  const rowW = Math.min(
    200,
    Math.max(60, ...spec.a.values.map((v) => g.measureText(v).width + 16), g.measureText(spec.a.field).width + 16),
  );
  const w = PAD * 2 + rowW + spec.b.values.length * CELL_W;
  const lines = wrap(g, caption, w - 2 * PAD);
  const top = PAD + lines.length * 17 + 8;
  c.width = w;
  c.height = top + HEAD_H + spec.a.values.length * CELL_H + PAD;
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, c.width, c.height);
  g.fillStyle = '#202124';
  g.font = '13px system-ui, sans-serif';
  g.textBaseline = 'top';
  lines.forEach((l, k) => g.fillText(l, PAD, PAD + k * 17));
  g.textAlign = 'center';
  g.font = '600 13px system-ui, sans-serif';
  g.fillText(`${spec.a.field} \\ ${spec.b.field}`, PAD + rowW / 2, top + 6);
  spec.b.values.forEach((v, j) => g.fillText(v, PAD + rowW + j * CELL_W + CELL_W / 2, top + 6));
  spec.a.values.forEach((v, i) => {
    const y = top + HEAD_H + i * CELL_H;
    g.fillStyle = '#202124';
    g.font = '600 13px system-ui, sans-serif';
    g.textAlign = 'right';
    g.fillText(v, PAD + rowW - 8, y + CELL_H / 2 - 7);
    spec.b.values.forEach((_, j) => {
      const td = tds[i * spec.b.values.length + j];
      const x = PAD + rowW + j * CELL_W;
      g.fillStyle = td?.style.background || '#f1f3f4';
      g.fillRect(x + 2, y + 2, CELL_W - 4, CELL_H - 4);
      g.fillStyle = td?.style.color || '#202124';
      g.textAlign = 'center';
      const [acc, spread, note] = [...(td?.children ?? [])].map((e) => e.textContent ?? '');
      g.font = '700 15px system-ui, sans-serif';
      g.fillText(acc ?? '', x + CELL_W / 2, y + 8);
      g.font = '11px system-ui, sans-serif';
      g.fillText(spread ?? '', x + CELL_W / 2, y + 27, CELL_W - 10);
      g.fillText(note ?? '', x + CELL_W / 2, y + 40, CELL_W - 10);
    });
  });
  return c;
}

/**
 * Words broken into lines no wider than `w` pixels.
 * @param {CanvasRenderingContext2D} g
 * @param {string} text
 * @param {number} w
 */
function wrap(g, text, w) {
  const out = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (g.measureText(next).width > w && line) {
      out.push(line);
      line = word;
    } else line = next;
  }
  if (line) out.push(line);
  return out.slice(0, 6);
}
