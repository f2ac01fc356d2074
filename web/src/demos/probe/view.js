// The probe demo's page: the intro, the toolbar (Train, Restart, anchors, causal mask), the grid of
// cells (one per encoding × normalization, each a sparkline and its numbers), the legend and the
// explanation of Lemmas 1 and 2. Static DOM only; index.js wires it, cells.js fills the cells.
import { el, tex, m, pct, rich } from '../common.js';
import { seedWords } from '../seeds.js';

/** @typedef {(key: string, params?: Record<string, string|number>) => string} Tr its words (common/messages.js translator) */

/** The anchor settings offered: [config value, label]. */
export const ANCHORS = [
  ['none', 'none'],
  ['cls_sep', '[CLS] … [SEP]'],
  ['cls', '[CLS] only'],
  ['bos', 'BOS'],
];

/** The row-sum property in short: Lemma 1 is about rows that sum to 1. @param {string|undefined} p @param {Tr} tr */
const rowSumText = (p, tr) => (p ? (p === 'one' ? 'Σ = 1' : tr('probe.rowSumVaries')) : '');

/** The row-sum property under a column's name. @param {string|undefined} p @param {Tr} tr */
const rowSumLabel = (p, tr) =>
  p
    ? [
        el(
          'span',
          { class: 'apd-rowsum', title: tr(p === 'one' ? 'probe.rowSumOneTitle' : 'probe.rowSumVariesTitle') },
          rowSumText(p, tr),
        ),
      ]
    : [];

/**
 * @param {boolean} compact
 * @param {string[]} positions the grid's rows
 * @param {string[]} norms its columns
 * @param {number} n the sequence length
 * @param {number[]} seeds the seeds of every cell
 * @param {Record<string, string>} rowSum each column's row-sum property from the registry ('one' or 'varies')
 * @param {Tr} tr its words in its language
 * @param {import('../../common/messages.js').Lang} lang
 */
export function buildDom(compact, positions, norms, n, seeds, rowSum, tr, lang) {
  const anchors = el(
    'select',
    { class: 'apd-anchors', 'aria-label': tr('probe.anchorsAria') },
    ...ANCHORS.map(([v, t]) => el('option', { value: v }, v === 'cls' ? tr('probe.anchorCls') : t)),
  );
  const causal = el('input', { type: 'checkbox', class: 'apd-causal' });
  const play = el('button', { type: 'button', class: 'apd-play primary' }, tr('probe.train'));
  const restart = el('button', { type: 'button', class: 'apd-restart' }, tr('probe.restart'));
  const progress = el('output', { class: 'apd-progress', 'aria-live': 'polite' });
  const summary = el('div', { class: 'apd-summary', 'aria-live': 'polite' });
  const invalid = el('p', { class: 'apd-small apd-invalid', hidden: true });
  const scrollHint = el('p', { class: 'apd-scroll-hint', hidden: true }, tr('probe.scrollHint'));
  /** @type {HTMLTableCellElement[]} */
  const tds = [];
  // What the grid holds, above it rather than in a <caption>: a caption is as wide as its table,
  // so in a narrow column it would scroll away with the cells. The table is named by the same words.
  const gridCaption = tr('probe.gridCaption', { n: seeds.length, seeds: seedWords(seeds, lang) });
  const table = gridTable(positions, norms, rowSum, gridCaption, tds, tr);
  const gridWrap = scrollRegion(table, tr);
  const gridScroll = el('div', { class: 'apd-grid-scroll' }, gridWrap);
  const legend = legendList(tr);

  const explain = explainCard(n, tr);

  const box = el(
    'div',
    { class: `apd apd-probe${compact ? ' compact' : ''}` },
    introSection(n, seeds, tr, lang),
    el(
      'section',
      { class: 'apd-card' },
      el(
        'div',
        { class: 'apd-tools' },
        play,
        restart,
        el('label', {}, ...rich(tr('probe.anchorsLabel'), { select: anchors })),
        el('label', {}, ...rich(tr('probe.causalLabel'), { box: causal })),
        progress,
      ),
      el('p', { class: 'apd-grid-caption' }, gridCaption),
      gridScroll,
      scrollHint,
      invalid,
      legend,
      summary,
    ),
    explain,
  );
  return { box, anchors, causal, play, restart, progress, tds, summary, gridScroll, gridWrap, scrollHint, invalid };
}

/**
 * The grid: a row per position encoding, a column per normalization (with its row-sum label). In a
 * column narrower than 560 px a grid of more than two columns stacks: each row a block of cells,
 * each cell named by its column (demos.css; index.js sets data-cols to the columns shown).
 * @param {string[]} positions @param {string[]} norms @param {Record<string, string>} rowSum
 * @param {string} caption @param {HTMLTableCellElement[]} tds receives the cells, row by row @param {Tr} tr
 */
function gridTable(positions, norms, rowSum, caption, tds, tr) {
  return el(
    'table',
    { class: 'apd-grid', 'aria-label': caption },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', {}, ''),
        ...norms.map((nm) => el('th', { scope: 'col', dataset: { norm: nm } }, nm, ...rowSumLabel(rowSum[nm], tr))),
      ),
    ),
    el(
      'tbody',
      {},
      ...positions.map((pos) =>
        el(
          'tr',
          {},
          el('th', { scope: 'row' }, pos),
          ...norms.map((nm) => {
            // data-label: the column's name and row sum, shown in the cell when the grid stacks (demos.css)
            const label = [nm, rowSumText(rowSum[nm], tr).replaceAll(' ', '\u00a0')].filter(Boolean).join(' · ');
            const td = el(
              'td',
              { class: 'apd-cell', dataset: { pos, norm: nm, label }, tabindex: '0' },
              el('canvas', { 'aria-hidden': 'true' }),
              el('div', { class: 'apd-acc' }, '–'),
              el('div', { class: 'apd-spread' }),
              el('div', { class: 'apd-spread apd-mirror' }),
              el('div', { class: 'apd-verdict' }),
            );
            tds.push(td);
            return td;
          }),
        ),
      ),
    ),
  );
}

/** What the colours of a cell mean. @param {Tr} tr */
function legendList(tr) {
  const item = (/** @type {string} */ kind, /** @type {(Node|string)[]} */ ...words) =>
    el('li', {}, el('span', { class: `apd-swatch apd-sw-${kind}` }), ...words);
  return el(
    'ul',
    { class: 'apd-legend' },
    item('learns', tr('probe.legend.learns')),
    item('collapsed', tr('probe.legend.collapsed')),
    item('mirror', ...rich(tr('probe.legend.mirror'), { h: m('h_i = h_{n-1-i}') })),
    item('partial', tr('probe.legend.partial')),
    item('mixed', tr('probe.legend.mixed')),
    el('li', {}, tr('probe.legend.note')),
  );
}

/**
 * The "Why" card: the lemmas the grid shows, and what fixes them.
 * @param {number} n the sequence length @param {Tr} tr
 */
function explainCard(n, tr) {
  return el(
    'section',
    { class: 'apd-card apd-explain-card' },
    el('h3', {}, tr('probe.why')),
    el('div', { class: 'apd-explain' }, rowSumPart(n, tr), fixesPart(tr), mirrorPart(n, tr)),
  );
}

/** Lemma 1: rows that sum to 1 erase relative positions. @param {number} n @param {Tr} tr */
function rowSumPart(n, tr) {
  return el(
    'div',
    {},
    el('h4', {}, tr('probe.rowSum.title')),
    el('p', {}, ...rich(tr('probe.rowSum.p1'), { o: m('o_i = \\sum_j a_{ij} v_j'), v: m('v') })),
    tex('o_i = \\sum_j a_{ij}\\, v = \\Big(\\sum_j a_{ij}\\Big) v = v', true),
    el('p', {}, ...rich(tr('probe.rowSum.when'), { sum: m('\\sum_j a_{ij} = 1') })),
    el(
      'p',
      {},
      ...rich(tr('probe.rowSum.p2'), {
        s: m('s_{ij}'),
        guess: m(`1/n = ${pct(1 / n).replace('%', '\\%')}`),
        tiny: m('10^{-7}'),
      }),
    ),
  );
}

/** What gives the model positions back: encodings, normalizations, anchors. @param {Tr} tr */
function fixesPart(tr) {
  return el(
    'div',
    {},
    el('h4', {}, tr('probe.fix.title')),
    el(
      'p',
      {},
      ...rich(tr('probe.fix.absolute'), {
        abs: el('strong', {}, tr('probe.fix.absoluteName')),
        xp: m('x + p_i'),
        shaw: el('strong', {}, 'Shaw'),
        ov: m('o_i = \\sum_j a_{ij}(v_j + r^V_{i-j})'),
        urpe: el('strong', {}, 'URPE'),
        ac: m('a_{ij}\\,c_{i-j}'),
      }),
    ),
    normalizationsPara(tr),
    el(
      'p',
      {},
      ...rich(tr('probe.fix.anchors'), {
        name: el('strong', {}, tr('probe.fix.anchorsName')),
        code: el('code', {}, '[CLS] x … x [SEP]'),
        o: m(
          'o_i = a_{i,\\mathrm{CLS}} v_{\\mathrm{CLS}} + a_{i,\\mathrm{SEP}} v_{\\mathrm{SEP}} + (1 - a_{i,\\mathrm{CLS}} - a_{i,\\mathrm{SEP}})\\, v',
        ),
      }),
    ),
  );
}

/** Lemma 2: symmetric ALiBi cannot tell a position from its mirror. @param {number} n @param {Tr} tr */
function mirrorPart(n, tr) {
  const spread = () => m('\\max_i \\lVert h_i - h_0\\rVert_\\infty');
  return el(
    'div',
    {},
    el('h4', {}, tr('probe.mirror.title')),
    el(
      'p',
      {},
      ...rich(tr('probe.mirror.p1'), {
        bias: m('-m\\,\\lvert i-j\\rvert'),
        b: m('b(i,j) = b(n{-}1{-}i,\\ n{-}1{-}j)'),
        i: m('i'),
        mi: m('n-1-i'),
        h: m('h_i = h_{n-1-i}'),
        bound: m('\\lceil n/2\\rceil/n'),
        pct: pct(Math.ceil(n / 2) / n),
        gap: m('\\max_i \\lVert h_i - h_{n-1-i}\\rVert_\\infty'),
        tiny: m('10^{-4}'),
        spread: spread(),
      }),
    ),
    el('p', { class: 'apd-small' }, ...rich(tr('probe.mirror.small'), { spread: spread(), n: String(n) })),
  );
}

/** What the probe asks. @param {number} n @param {number[]} seeds @param {Tr} tr @param {import('../../common/messages.js').Lang} lang */
function introSection(n, seeds, tr, lang) {
  return el(
    'section',
    { class: 'apd-intro' },
    el('h2', {}, tr('probe.intro.title')),
    el(
      'p',
      {},
      ...rich(tr('probe.intro.p'), {
        n: m(`n = ${n}`),
        code: el('code', {}, 'x x … x'),
        idx: m('0, 1, \\dots, n-1'),
        k: String(seeds.length),
        seeds: seedWords(seeds, lang),
      }),
    ),
  );
}

/** The grid's region, which scrolls sideways when wider than the page (and not stacked). @param {HTMLElement} table @param {Tr} tr */
function scrollRegion(table, tr) {
  return el(
    'div',
    {
      class: 'apd-grid-wrap',
      tabindex: '0',
      role: 'region',
      'aria-label': tr('probe.gridAria'),
    },
    table,
  );
}

/** Normalizations without a fixed row sum, and stick-breaking. @param {Tr} tr */
function normalizationsPara(tr) {
  return el(
    'p',
    {},
    ...rich(tr('probe.norm.text'), {
      name: el('strong', {}, tr('probe.norm.name')),
      l2: m('a_{ij} = e^{s_{ij}} / \\sqrt{\\textstyle\\sum_k e^{2 s_{ik}}}'),
      sqrtn: m('\\sqrt n'),
      relu: m('\\mathrm{relu}(s_{ij})^2/n'),
      sig: m('\\sigma(s_{ij} - \\ln n)'),
      s1: m('e^{s_{ij}} / (1 + \\sum_k e^{s_{ik}})'),
      ez: m('e^{z_h}'),
      o: m('o_i = r_i\\, v'),
      r: m('r_i'),
      i: m('i'),
      sb: el('strong', {}, tr('probe.norm.stickBreaking')),
      sigma: m('\\sigma(s_{ij})'),
      ri: m('r_i = 1 - (1-\\beta)^i'),
    }),
  );
}
