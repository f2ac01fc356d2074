// The probe demo's cells: what a trained cell measures (the spread and mirror gap of the final
// hidden states, with the anchors left out), the outcome that colours it, and drawing it (the
// accuracy sparkline, its numbers, data-* for the tests and a title for screen readers).
import { drawSparkline } from '../../charts/sparkline.js';
import { sci, pct } from '../common.js';

/**
 * One cell of the grid: a model (position × normalization), its progress and what it measured.
 * @typedef {{pos: string, norm: string, td: HTMLElement, accs: number[], state: string, step: number,
 *   final?: number, spread?: number, mirror?: number, outcome?: string, verdict?: string, error?: string,
 *   run?: import('../../run/run-controller.js').RunController, model?: import('../../client/session.js').Session|null,
 *   finishing?: boolean}} Cell
 */

export const ZERO = 1e-5; // a spread or mirror gap below this is "equal" (float rounding)

/**
 * The spread max_i‖h_i − h_0‖∞ and mirror gap max_i‖h_i − h_{n−1−i}‖∞ of the probe tokens' final
 * hidden states (anchor tokens dropped).
 * @param {number[][]} hidden (T, C)
 * @param {string} anchors none | cls_sep | cls | bos
 */
export function spreads(hidden, anchors) {
  const first = anchors === 'none' ? 0 : 1;
  const last = anchors === 'cls_sep' ? hidden.length - 1 : hidden.length;
  const h = hidden.slice(first, last);
  let spread = 0;
  let mirror = 0;
  for (let i = 0; i < h.length; i++)
    for (let c = 0; c < h[i].length; c++) {
      spread = Math.max(spread, Math.abs(h[i][c] - h[0][c]));
      mirror = Math.max(mirror, Math.abs(h[i][c] - h[h.length - 1 - i][c]));
    }
  return { spread, mirror };
}

/**
 * The outcome of a trained cell and its verdict: collapsed (Lemma 1), mirror-limited (Lemma 2),
 * learns (≥ 90%) or partly.
 * @param {{spread: number, mirror: number, final: number}} c
 * @param {number} n
 */
export function outcomeOf({ spread, mirror, final }, n) {
  if (spread < ZERO) return { outcome: 'collapsed', verdict: 'all positions equal' };
  if (mirror < ZERO && final < 0.9) return { outcome: 'mirror', verdict: `mirror pairs equal (≤ ${pct(Math.ceil(n / 2) / n)})` };
  if (final >= 0.9) return { outcome: 'learns', verdict: 'learns the positions' };
  return { outcome: 'partial', verdict: 'partly' };
}

/**
 * Draw one cell from its state.
 * @param {Cell} c
 * @param {{n: number, compact: boolean}} opts
 */
export function drawCell(c, { n, compact }) {
  const td = c.td;
  /** @type {Record<string, string>} */
  const colors = { learns: '#137333', collapsed: '#c5221f', mirror: '#b06000' };
  const sparkColor = colors[c.outcome ?? ''] ?? '#1a73e8';
  /** @type {(selector: string) => Element} the cell's parts (view.js builds them all) */
  const part = (selector) => /** @type {Element} */ (td.querySelector(selector));
  drawSparkline(/** @type {HTMLCanvasElement} */ (part('canvas')), c.accs, { color: sparkColor, reference: 1 / n, width: compact ? 80 : 96, height: compact ? 22 : 28 });
  const acc = c.final ?? c.accs[c.accs.length - 1];
  part('.apd-acc').textContent = c.state === 'invalid' ? 'n/a' : pct(acc);
  part('.apd-spread').textContent = c.spread == null ? '' : `spread ${sci(c.spread)}${c.spread > 0 && c.spread < ZERO ? ' ≈ 0' : ''}`;
  part('.apd-mirror').textContent = c.outcome === 'mirror' ? `mirror gap ${sci(c.mirror)}${/** @type {number} */ (c.mirror) > 0 ? ' ≈ 0' : ''}` : '';
  part('.apd-verdict').textContent = c.verdict ?? (c.state === 'training' ? `step ${c.step ?? 0}` : '');
  td.dataset.state = c.state;
  td.dataset.outcome = c.outcome ?? '';
  td.dataset.acc = c.final == null ? '' : String(c.final);
  td.dataset.spread = c.spread == null ? '' : String(c.spread);
  td.dataset.mirror = c.mirror == null ? '' : String(c.mirror);
  td.title = c.state === 'invalid' ? /** @type {string} */ (c.error)
    : `${c.pos} × ${c.norm}: accuracy ${pct(acc)}${c.spread == null ? '' : `, spread max‖h_i − h_0‖∞ = ${c.spread}, mirror gap max‖h_i − h_(n−1−i)‖∞ = ${c.mirror}`}`;
  td.setAttribute('aria-label', `${c.pos}, ${c.norm}: ${td.title}`);
}
