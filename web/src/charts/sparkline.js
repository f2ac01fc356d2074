// A tiny line on a canvas (no axes): e.g. accuracy by step inside a table cell. Values are in
// [lo, hi] (default [0, 1]); an optional dashed reference line (e.g. chance level).

/**
 * @param {HTMLCanvasElement} canvas sized by CSS (width/height attributes are set here)
 * @param {number[]} values
 * @param {{lo?: number, hi?: number, color?: string, reference?: number, width?: number, height?: number}} [opts]
 */
export function drawSparkline(canvas, values, { lo = 0, hi = 1, color = '#1a73e8', reference, width = 96, height = 28 } = {}) {
  const dpr = (typeof window !== 'undefined' && window.devicePixelRatio) || 1;
  if (canvas.width !== Math.round(width * dpr)) {
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
  }
  const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, width, height);
  const y = (/** @type {number} */ v) => height - 2 - ((Math.min(hi, Math.max(lo, v)) - lo) / (hi - lo || 1)) * (height - 4);
  if (reference != null) {
    g.strokeStyle = '#9aa0a6';
    g.setLineDash([3, 3]);
    g.lineWidth = 1;
    g.beginPath();
    g.moveTo(0, y(reference) + 0.5);
    g.lineTo(width, y(reference) + 0.5);
    g.stroke();
    g.setLineDash([]);
  }
  if (values.length === 0) return;
  g.strokeStyle = color;
  g.lineWidth = 1.5;
  g.beginPath();
  const n = values.length;
  values.forEach((v, i) => {
    const x = n === 1 ? width / 2 : (i / (n - 1)) * (width - 2) + 1;
    if (i === 0) g.moveTo(x, y(v));
    else g.lineTo(x, y(v));
  });
  g.stroke();
}
