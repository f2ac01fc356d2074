// The probe grid's measured results in words: which cells collapsed, which are mirror-limited,
// which learn, which partly, and where the seeds disagree, each with its mean accuracy and
// min–max. Written from the finished grid only, so the page states what was measured.
import { el } from '../common.js';
import { pctSpread, seedWords } from '../seeds.js';

/** The outcomes, in the order of the lines (each says the table's `probe.summary.<outcome>`). */
const LINES = ['collapsed', 'mirror', 'learns', 'partial', 'mixed', 'invalid'];

/**
 * @param {import('./cells.js').Cell[]} cells the finished grid
 * @param {{steps: number, seeds: number[], anchors: string, causal: boolean}} run
 * @param {(key: string, params?: Record<string, string|number>) => string} tr its words
 * @param {import('../../common/messages.js').Lang} lang
 * @returns {HTMLElement[]}
 */
export function summaryOf(cells, { steps, seeds, anchors, causal }, tr, lang) {
  const head = el(
    'p',
    {},
    el('strong', {}, tr('probe.summary.measured')),
    tr('probe.summary.head', {
      seeds: seedWords(seeds, lang),
      steps,
      anchors,
      mask: tr(causal ? 'probe.summary.causal' : 'probe.summary.bidirectional'),
    }),
  );
  const items = LINES.map((outcome) => {
    const words = tr(`probe.summary.${outcome}`);
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
