// The probe demo's cells: what a trained model measures (the spread and mirror gap of the final
// hidden states, with the anchors left out), the outcome that labels it, the cell's summary over
// its seeds (every seed's outcome; the mean accuracy with min–max), and drawing it (the accuracy
// sparkline, its numbers, data-* for the tests and a title for screen readers).
import { drawSparkline } from '../../charts/sparkline.js';
import { sci, pct } from '../common.js';
import { verdictOf } from './verdict.js';
import { summarize, pctSpread, ofSeeds } from '../seeds.js';

/**
 * One seed of a cell: its controller, model, progress and what it measured.
 * @typedef {{seed: number, accs: number[], state: string, step: number, final?: number, spread?: number,
 *   mirror?: number, scale?: number, outcome?: string, error?: string,
 *   run?: import('../../run/run-set.js').SetRun, model?: import('../../client/session.js').EngineSession|null,
 *   finishing?: boolean}} SeedRun
 */
/**
 * One cell of the grid (position × normalization) over its seeds, and its summary once all are done.
 * @typedef {{pos: string, norm: string, td: HTMLElement, runs: SeedRun[], state: string,
 *   acc?: import('../seeds.js').Summary|null, spread?: number, mirror?: number, outcome?: string, verdict?: string,
 *   error?: string}} Cell
 */

/** Float rounding, as the "Why" text defines it: a spread below COLLAPSE_REL × max(1, max|h|) is 0, */
export const COLLAPSE_REL = 1e-5;
/** and a mirror gap below MIRROR_REL × max(1, spread) is 0 (the mirror pairs are equal). */
export const MIRROR_REL = 1e-4;

/**
 * The spread max_i‖h_i − h_0‖∞, the mirror gap max_i‖h_i − h_{n−1−i}‖∞ and the scale max|h| of
 * the probe tokens' final hidden states (anchor tokens dropped).
 * @param {number[][]} hidden (T, C)
 * @param {string} anchors none | cls_sep | cls | bos
 */
export function spreads(hidden, anchors) {
  const first = anchors === 'none' ? 0 : 1;
  const last = anchors === 'cls_sep' ? hidden.length - 1 : hidden.length;
  const h = hidden.slice(first, last);
  let spread = 0;
  let mirror = 0;
  let scale = 0;
  for (let i = 0; i < h.length; i++)
    for (let c = 0; c < h[i].length; c++) {
      spread = Math.max(spread, Math.abs(h[i][c] - h[0][c]));
      mirror = Math.max(mirror, Math.abs(h[i][c] - h[h.length - 1 - i][c]));
      scale = Math.max(scale, Math.abs(h[i][c]));
    }
  return { spread, mirror, scale };
}

/**
 * The outcome of one trained model: collapsed (Lemma 1: spread 0 up to rounding), mirror-limited
 * (Lemma 2: mirror gap 0 up to rounding), learns (≥ 90%) or partly.
 * @param {{spread: number, mirror: number, scale?: number, final: number}} c
 * @returns {'collapsed'|'mirror'|'learns'|'partial'}
 */
export function outcomeOf({ spread, mirror, scale = 1, final }) {
  if (spread <= COLLAPSE_REL * Math.max(1, scale)) return 'collapsed';
  if (mirror <= MIRROR_REL * Math.max(1, spread)) return 'mirror';
  if (final >= 0.9) return 'learns';
  return 'partial';
}

/** @typedef {import('./verdict.js').Tr} Tr the demo's words */

/**
 * The cell's summary over its seeds done so far: the outcome every seed shares, else 'mixed' with
 * how many seeds had each. Before every seed is done, the cell is 'partial' and its verdict says
 * how many seeds it stands on (the grid trains one seed of every cell first).
 * @param {Cell} c
 * @param {number} n
 * @param {Tr} tr
 * @param {import('../../common/messages.js').Lang} lang
 */
export function summarizeCell(c, n, tr, lang) {
  const ok = c.runs.filter((r) => r.state === 'done');
  if (!ok.length && !c.runs.some((r) => r.state === 'invalid')) return;
  const all = c.runs.every((r) => r.state === 'done' || r.state === 'invalid');
  c.acc = summarize(ok.map((r) => r.final));
  c.spread = Math.max(...ok.map((r) => /** @type {number} */ (r.spread)));
  c.mirror = Math.max(...ok.map((r) => /** @type {number} */ (r.mirror)));
  const kinds = [...new Set(ok.map((r) => /** @type {string} */ (r.outcome)))];
  const failed = c.runs.find((r) => r.state === 'invalid');
  if (failed) {
    c.state = 'invalid';
    c.outcome = 'invalid';
    c.error = failed.error;
    c.verdict = tr('probe.verdict.error');
  } else if (kinds.length === 1) {
    c.state = all ? 'done' : 'partial';
    c.outcome = kinds[0];
    c.verdict = verdictOf(kinds[0], n, tr, c.acc?.max ?? 0);
  } else {
    c.state = all ? 'done' : 'partial';
    c.outcome = 'mixed';
    c.verdict = kinds
      .map((k) =>
        tr('probe.verdict.on', {
          what: k === 'partial' ? tr('probe.verdict.partial') : k === 'mirror' ? tr('probe.verdict.mirrorShort') : k,
          seeds: ofSeeds(ok.filter((r) => r.outcome === k).length, ok.length, lang),
        }),
      )
      .join(', ');
  }
  if (c.state === 'partial') c.verdict = tr('probe.cell.sofar', { verdict: c.verdict, k: ok.length, n: c.runs.length });
}

/**
 * The mean of the started seeds' sparklines (index by index, as long as the shortest).
 * @param {SeedRun[]} all
 */
function meanAccs(all) {
  const runs = all.filter((r) => r.accs.length); // the seeds that started
  const len = Math.min(...runs.map((r) => r.accs.length));
  if (!Number.isFinite(len) || len === 0) return [];
  return Array.from({ length: len }, (_, i) => runs.reduce((a, r) => a + r.accs[i], 0) / runs.length);
}

/**
 * The accuracy as text, its seeds' range "(lo–hi%)" in a span of its own that wraps under the mean
 * in a narrow cell (demos.css): the cell's text stays "mean (lo–hi%)".
 * @param {Element} e @param {string} text
 */
function accText(e, text) {
  const at = text.indexOf(' (');
  if (at < 0) return void (e.textContent = text);
  const range = document.createElement('span');
  range.className = 'apd-range';
  range.textContent = text.slice(at + 1);
  e.replaceChildren(text.slice(0, at), ' ', range);
}

/**
 * Draw one cell from its state.
 * @param {Cell} c
 * @param {{n: number, compact: boolean, tr: Tr}} opts
 */
export function drawCell(c, { n, compact, tr }) {
  const td = c.td;
  /** @type {Record<string, string>} */
  const colors = { learns: '#137333', collapsed: '#c5221f', mirror: '#b06000' };
  const sparkColor = colors[c.outcome ?? ''] ?? '#1a73e8';
  /** @type {(selector: string) => Element} the cell's parts (view.js builds them all) */
  const part = (selector) => /** @type {Element} */ (td.querySelector(selector));
  drawSparkline(/** @type {HTMLCanvasElement} */ (part('canvas')), meanAccs(c.runs), {
    color: sparkColor,
    reference: 1 / n,
    width: compact ? 72 : 96,
    height: compact ? 22 : 28,
  });
  const done = c.state === 'done' || c.state === 'partial'; // partial: its seeds done so far
  // the step of its seeds training now (the others wait their turn at 0, or are done)
  const stepNow = Math.min(...c.runs.filter((r) => r.state === 'training').map((r) => r.step ?? 0));
  const live = meanAccs(c.runs).at(-1); // while training: the seeds' latest training accuracy (the sparkline's), named so
  accText(
    part('.apd-acc'),
    c.state === 'invalid'
      ? tr('probe.naShort')
      : done
        ? pctSpread(c.acc ?? null)
        : live === undefined
          ? '–'
          : tr('probe.cell.train', { p: Math.round(100 * live) }),
  );
  const spread = /** @type {number} */ (c.spread);
  part('.apd-spread').textContent = done
    ? `${tr('probe.cell.spread', { v: sci(spread) })}${c.outcome === 'collapsed' && spread > 0 ? ' ≈ 0' : ''}`
    : '';
  part('.apd-mirror').textContent =
    done && (c.outcome === 'mirror' || c.outcome === 'mixed')
      ? `${tr('probe.cell.mirror', { v: sci(c.mirror) })}${c.outcome === 'mirror' && /** @type {number} */ (c.mirror) > 0 ? ' ≈ 0' : ''}`
      : '';
  part('.apd-verdict').textContent =
    c.verdict ?? (c.state === 'training' ? tr('probe.cell.step', { n: Number.isFinite(stepNow) ? stepNow : 0 }) : '');
  td.dataset.state = c.state;
  td.dataset.outcome = c.outcome ?? '';
  td.dataset.acc = c.acc ? String(c.acc.mean) : '';
  td.dataset.accMin = c.acc ? String(c.acc.min) : '';
  td.dataset.accMax = c.acc ? String(c.acc.max) : '';
  td.dataset.seeds = String(c.runs.length);
  td.dataset.spread = done ? String(c.spread) : '';
  td.dataset.mirror = done ? String(c.mirror) : '';
  td.dataset.seedOutcomes = c.runs.map((r) => r.outcome ?? '').join(',');
  td.title =
    c.state === 'invalid'
      ? /** @type {string} */ (c.error)
      : tr('probe.cellTitle', {
          pos: c.pos,
          norm: c.norm,
          n: c.runs.length,
          acc: done ? pctSpread(c.acc ?? null) : '–',
        }) + (done ? tr('probe.cellTitleDone', { spread: String(c.spread), mirror: String(c.mirror) }) : '');
  td.setAttribute('aria-label', tr('probe.cellAria', { pos: c.pos, norm: c.norm, title: td.title }));
}
