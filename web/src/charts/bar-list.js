// A 1-D array as a small bar chart with index labels (e.g. ALiBi slopes per head, RoPE
// frequencies); hover or focus to read values. Signed values grow up or down from a zero line.
import { fmt } from './heatmap.js';

/**
 * Draw `values` into a new canvas inside `container`.
 * @param {HTMLElement} container
 * @param {number[]} values
 * @param {{label: string, width?: number, height?: number, first?: number, axis?: string}} opts
 *   first: the number of the first bar (1 for heads, numbered from 1 everywhere); axis: what a
 *   bar is ('head', 'index')
 * @returns {HTMLCanvasElement}
 */
export function drawBarList(container, values, { label, width = 260, height = 70, first = 0, axis = 'index' }) {
  const c = document.createElement('canvas');
  const dpr = window.devicePixelRatio || 1;
  c.width = width * dpr;
  c.height = height * dpr;
  c.style.width = `${width}px`;
  c.style.height = `${height}px`;
  c.tabIndex = 0;
  c.setAttribute('role', 'img');
  const finite = values.filter(Number.isFinite);
  const lo = Math.min(0, ...finite);
  const hi = Math.max(0, ...finite);
  c.setAttribute('aria-label', `${label}: ${values.length} values from ${fmt(lo)} to ${fmt(hi)}`);
  c.title = values.map((v, i) => `${axis} ${i + first}: ${fmt(v)}`).join('  ');
  c.dataset.first = String(first);
  const g = /** @type {CanvasRenderingContext2D} */ (c.getContext('2d'));
  g.scale(dpr, dpr);
  const plotH = height - 14;
  const y = (/** @type {number} */ v) => plotH - ((v - lo) / (hi - lo || 1)) * (plotH - 2) - 1;
  const bw = width / Math.max(values.length, 1);
  // The page's chart colours where its CSS sets them (light or dark), else these.
  const css = getComputedStyle(container);
  const prop = (/** @type {string} */ name, /** @type {string} */ d) => css.getPropertyValue(name).trim() || d;
  g.fillStyle = prop('--chart-train', '#1a73e8');
  values.forEach((v, i) => {
    if (!Number.isFinite(v)) return;
    const top = Math.min(y(v), y(0));
    g.fillRect(i * bw + bw * 0.1, top, Math.max(1, bw * 0.8), Math.max(1, Math.abs(y(v) - y(0))));
  });
  g.strokeStyle = '#9aa0a6';
  g.beginPath();
  g.moveTo(0, y(0) + 0.5);
  g.lineTo(width, y(0) + 0.5);
  g.stroke();
  g.fillStyle = prop('--chart-ink', '#5f6368');
  g.font = '10px system-ui, sans-serif';
  g.textBaseline = 'bottom';
  const every = Math.ceil(values.length / 16);
  g.textAlign = 'center';
  values.forEach((_, i) => i % every === 0 && g.fillText(String(i + first), i * bw + bw / 2, height));
  container.append(c);
  return c;
}
