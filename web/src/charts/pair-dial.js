// A 2-D dial for one rotary pair: the query's pair before rotation (faint) and after rotation to
// position m (solid), and the key's pair at position 0, as arrows from the centre of a circle.
// The coordinates come from the engine (explore(): pair.q, q_rotated, k_rotated); this only draws.

/**
 * Draw on `canvas` (CSS size size × size; sharp on high-DPI screens).
 * @param {HTMLCanvasElement} canvas
 * @param {{q: number[], qRot: number[], k: number[]}} v pairs (a, b)
 * @param {number} [size]
 */
export function drawPairDial(canvas, { q, qRot, k }, size = 150) {
  const dpr = globalThis.devicePixelRatio || 1;
  canvas.width = size * dpr;
  canvas.height = size * dpr;
  canvas.style.width = `${size}px`;
  canvas.style.height = `${size}px`;
  const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, size, size);
  const css = getComputedStyle(canvas);
  const ink = css.getPropertyValue('--chart-ink').trim() || '#3c4043';
  const grid = css.getPropertyValue('--chart-grid').trim() || 'rgba(0,0,0,0.1)';
  const c = size / 2;
  const radius = c - 10;
  const len = Math.max(1e-9, Math.hypot(q[0], q[1]), Math.hypot(qRot[0], qRot[1]), Math.hypot(k[0], k[1]));
  g.strokeStyle = grid;
  g.lineWidth = 1;
  g.beginPath();
  g.arc(c, c, radius, 0, 2 * Math.PI);
  g.moveTo(c - radius, c);
  g.lineTo(c + radius, c);
  g.moveTo(c, c - radius);
  g.lineTo(c, c + radius);
  g.stroke();
  /** @param {number[]} p @param {string} color @param {number} alpha @param {string} label */
  const arrow = (p, color, alpha, label) => {
    const x = c + (p[0] / len) * radius;
    const y = c - (p[1] / len) * radius; // b up
    g.globalAlpha = alpha;
    g.strokeStyle = color;
    g.fillStyle = color;
    g.lineWidth = 2;
    g.beginPath();
    g.moveTo(c, c);
    g.lineTo(x, y);
    g.stroke();
    g.beginPath();
    g.arc(x, y, 3, 0, 2 * Math.PI);
    g.fill();
    g.font = '11px system-ui, sans-serif';
    g.fillStyle = ink;
    g.fillText(label, Math.min(size - 34, Math.max(2, x + 4)), Math.min(size - 4, Math.max(12, y - 4)));
    g.globalAlpha = 1;
  };
  arrow(q, '#1a73e8', 0.35, 'q');
  arrow(k, '#e8710a', 1, 'k₀');
  arrow(qRot, '#1a73e8', 1, 'q̃ₘ');
}
