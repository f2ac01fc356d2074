// The probe grid's measured results in words: which cells collapsed, which are mirror-limited,
// which learn, which partly, and where the seeds disagree, each with its mean accuracy and
// min–max. Written from the finished grid only, so the page states what was measured.
import { el } from '../common.js';
import { pctSpread, seedWords } from '../seeds.js';

/** @type {[string, string][]} outcome -> what the line says */
const LINES = [
  ['collapsed', 'All positions identical (spread 0 up to rounding) on every seed'],
  ['mirror', 'Mirror pairs identical (mirror gap 0 up to rounding) on every seed'],
  ['learns', 'Learns the positions (≥ 90%) on every seed'],
  ['partial', 'Partly, on every seed'],
  ['mixed', 'The seeds disagree'],
  ['invalid', 'Could not train'],
];

/**
 * @param {import('./cells.js').Cell[]} cells the finished grid
 * @param {{steps: number, seeds: number[], anchors: string, causal: boolean}} run
 * @returns {HTMLElement[]}
 */
export function summaryOf(cells, { steps, seeds, anchors, causal }) {
  const head = el(
    'p',
    {},
    el('strong', {}, 'Measured'),
    ` (${seedWords(seeds)}, ${steps} steps, anchors ${anchors}, ${causal ? 'causal mask' : 'bidirectional'}): accuracy as the mean with the lowest and highest seed in brackets.`,
  );
  const items = LINES.map(([outcome, words]) => {
    const mine = cells.filter((c) => c.outcome === outcome);
    if (!mine.length) return null;
    const list = mine.map((c) =>
      `${c.pos} × ${c.norm} ${outcome === 'invalid' ? '' : pctSpread(c.acc ?? null)}${outcome === 'mixed' ? ` (${c.verdict})` : ''}`.trim(),
    );
    return el(
      'li',
      { dataset: { outcome, count: String(mine.length) } },
      el('strong', {}, `${words} (${mine.length}): `),
      list.join('; '),
      '.',
    );
  }).filter((x) => x !== null);
  return [head, el('ul', { class: 'apd-summary-list' }, ...items)];
}
