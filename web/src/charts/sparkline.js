// A tiny line on a canvas (no axes): e.g. accuracy by step inside a table cell. Values are in
// [lo, hi] (default [0, 1]); an optional dashed reference line (e.g. chance level); a value that
// is not finite (null, NaN: not measured there) leaves a gap; `mark` dots the value at one index.

/**
 * @param {HTMLCanvasElement} canvas sized by CSS (width/height attributes are set here)
 * @param {(number|null)[]} values
 * @param {{lo?: number, hi?: number, color?: string, reference?: number, width?: number, height?: number, mark?: number}} [opts]
 */
export function drawSparkline(
  canvas,
  values,
  { lo = 0, hi = 1, color = '#1a73e8', reference, width = 96, height = 28, mark } = {},
) {
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
  const y = (/** @type {number} */ v) =>
    height - 2 - ((Math.min(hi, Math.max(lo, v)) - lo) / (hi - lo || 1)) * (height - 4);
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
  const x = (/** @type {number} */ i) => (n === 1 ? width / 2 : (i / (n - 1)) * (width - 2) + 1);
  let gap = true;
  values.forEach((v, i) => {
    if (v === null || !Number.isFinite(v)) return void (gap = true);
    if (gap) g.moveTo(x(i), y(v));
    else g.lineTo(x(i), y(v));
    gap = false;
  });
  g.stroke();
  const m = mark === undefined ? null : values[mark];
  if (mark === undefined || m === null || m === undefined || !Number.isFinite(m)) return;
  g.fillStyle = color;
  g.beginPath();
  g.arc(x(mark), y(m), 2.5, 0, 2 * Math.PI);
  g.fill();
}
