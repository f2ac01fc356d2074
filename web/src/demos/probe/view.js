// The probe demo's page: the intro, the toolbar (Train, Restart, anchors, causal mask), the grid of
// cells (one per encoding × normalization, each a sparkline and its numbers), the legend and the
// explanation of Lemmas 1 and 2. Static DOM only; index.js wires it, cells.js fills the cells.
import { el, tex, m, pct } from '../common.js';
import { seedWords } from '../seeds.js';

/** The anchor settings offered: [config value, label]. */
export const ANCHORS = [
  ['none', 'none'],
  ['cls_sep', '[CLS] … [SEP]'],
  ['cls', '[CLS] only'],
  ['bos', 'BOS'],
];

/** The row-sum property in short: Lemma 1 is about rows that sum to 1. @param {string|undefined} p */
const rowSumText = (p) => (p ? (p === 'one' ? 'Σ = 1' : 'Σ varies') : '');

/** The row-sum property under a column's name. */
const rowSumLabel = (/** @type {string|undefined} */ p) =>
  p
    ? [
        el(
          'span',
          { class: 'apd-rowsum', title: p === 'one' ? 'every row sums to 1' : 'rows need not sum to 1' },
          rowSumText(p),
        ),
      ]
    : [];

/**
 * @param {boolean} compact
 * @param {string[]} positions the grid's rows
 * @param {string[]} norms its columns
 * @param {number} n the sequence length
 * @param {number[]} seeds the seeds of every cell
 * @param {Record<string, string>} [rowSum] each column's row-sum property from the registry ('one' or 'varies')
 */
export function buildDom(compact, positions, norms, n, seeds, rowSum = {}) {
  const anchors = el(
    'select',
    { class: 'apd-anchors', 'aria-label': 'anchor tokens' },
    ...ANCHORS.map(([v, t]) => el('option', { value: v }, t)),
  );
  const causal = el('input', { type: 'checkbox', class: 'apd-causal' });
  const play = el('button', { type: 'button', class: 'apd-play primary' }, 'Train');
  const restart = el('button', { type: 'button', class: 'apd-restart' }, 'Restart');
  const progress = el('output', { class: 'apd-progress', 'aria-live': 'polite' });
  const summary = el('div', { class: 'apd-summary', 'aria-live': 'polite' });
  const invalid = el('p', { class: 'apd-small apd-invalid', hidden: true });
  const scrollHint = el(
    'p',
    { class: 'apd-scroll-hint', hidden: true },
    'The grid is wider than this column: scroll it sideways (swipe, or focus it and use ←/→) for more columns →',
  );
  /** @type {HTMLTableCellElement[]} */
  const tds = [];
  // What the grid holds, above it rather than in a <caption>: a caption is as wide as its table,
  // so in a narrow column it would scroll away with the cells. The table is named by the same words.
  const gridCaption = `Rows: position encodings. Columns: attention normalizations. Each cell is ${seeds.length} models (${seedWords(seeds)}).`;
  const table = gridTable(positions, norms, rowSum, gridCaption, tds);
  const gridWrap = scrollRegion(table);
  const gridScroll = el('div', { class: 'apd-grid-scroll' }, gridWrap);
  const legend = legendList();

  const explain = explainCard(n);

  const box = el(
    'div',
    { class: `apd apd-probe${compact ? ' compact' : ''}` },
    introSection(n, seeds),
    el(
      'section',
      { class: 'apd-card' },
      el(
        'div',
        { class: 'apd-tools' },
        play,
        restart,
        el('label', {}, 'anchors ', anchors),
        el('label', {}, causal, ' causal mask'),
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
 * @param {string} caption @param {HTMLTableCellElement[]} tds receives the cells, row by row
 */
function gridTable(positions, norms, rowSum, caption, tds) {
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
        ...norms.map((nm) => el('th', { scope: 'col', dataset: { norm: nm } }, nm, ...rowSumLabel(rowSum[nm]))),
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
            const label = [nm, rowSumText(rowSum[nm]).replaceAll(' ', '\u00a0')].filter(Boolean).join(' · ');
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

/** What the colours of a cell mean. */
function legendList() {
  return el(
    'ul',
    { class: 'apd-legend' },
    el('li', {}, el('span', { class: 'apd-swatch apd-sw-learns' }), 'learns (≥ 90%)'),
    el(
      'li',
      {},
      el('span', { class: 'apd-swatch apd-sw-collapsed' }),
      'collapsed: all positions identical (spread below 10⁻⁵ × the largest |h|: rounding)',
    ),
    el(
      'li',
      {},
      el('span', { class: 'apd-swatch apd-sw-mirror' }),
      'mirror-limited: ',
      m('h_i = h_{n-1-i}'),
      ' (mirror gap below 10⁻⁴ × the spread: rounding)',
    ),
    el('li', {}, el('span', { class: 'apd-swatch apd-sw-partial' }), 'partly'),
    el('li', {}, el('span', { class: 'apd-swatch apd-sw-mixed' }), 'the seeds disagree'),
    el(
      'li',
      {},
      'a colour holds for every seed; accuracy: mean (lowest–highest seed); spread and mirror gap: the largest over the seeds; sparkline: the mean training accuracy, dashed line: chance, 1/n',
    ),
  );
}

/**
 * The "Why" card: the lemmas the grid shows, and what fixes them.
 * @param {number} n the sequence length
 */
function explainCard(n) {
  return el(
    'section',
    { class: 'apd-card apd-explain-card' },
    el('h3', {}, 'Why'),
    el('div', { class: 'apd-explain' }, rowSumPart(n), fixesPart(), mirrorPart(n)),
  );
}

/** Lemma 1: rows that sum to 1 erase relative positions. @param {number} n */
function rowSumPart(n) {
  return el(
    'div',
    {},
    el('h4', {}, 'Rows that sum to 1 erase relative positions'),
    el(
      'p',
      {},
      'Attention mixes the values, ',
      m('o_i = \\sum_j a_{ij} v_j'),
      '. With identical tokens every value is the same vector ',
      m('v'),
      ', so',
    ),
    tex(
      'o_i = \\sum_j a_{ij}\\, v = \\Big(\\sum_j a_{ij}\\Big) v = v \\quad\\text{when}\\quad \\sum_j a_{ij} = 1.',
      true,
    ),
    el(
      'p',
      {},
      'RoPE, ALiBi and T5 put position only into the logits ',
      m('s_{ij}'),
      ', so they change how each row is spread but not its sum under softmax. Residual, LayerNorm and the feed-forward network act on each token alone: every layer maps a constant sequence to a constant sequence. All positions keep the same hidden state for the whole of training and the model can only guess, ',
      m(`1/n = ${pct(1 / n).replace('%', '\\%')}`),
      '. The spread of the red cells is 0 up to float rounding (a few ',
      m('10^{-7}'),
      ': each row adds the same vector with its own weights, in float); without any encoding, mask or anchors, where every position computes the very same sums, it is exactly 0, for every normalization (the encoder is permutation-equivariant). The causal mask does not rescue softmax: each row still sums to 1 over the keys it may see, and the red cells stay red.',
    ),
  );
}

/** What gives the model positions back: encodings, normalizations, anchors. */
function fixesPart() {
  return el(
    'div',
    {},
    el('h4', {}, 'What fixes it'),
    el(
      'p',
      {},
      el('strong', {}, 'Absolute encodings'),
      ' (learned, sinusoidal) make the inputs differ: ',
      m('x + p_i'),
      '. ',
      el('strong', {}, 'Shaw'),
      ' adds a relative vector to the values, ',
      m('o_i = \\sum_j a_{ij}(v_j + r^V_{i-j})'),
      '; ',
      el('strong', {}, 'URPE'),
      ' multiplies the weights by a Toeplitz matrix, ',
      m('a_{ij}\\,c_{i-j}'),
      ': the rows no longer sum to 1.',
    ),
    normalizationsPara(),
    el(
      'p',
      {},
      el('strong', {}, 'Anchors'),
      ': with ',
      el('code', {}, '[CLS] x … x [SEP]'),
      ' the values are no longer all equal, ',
      m(
        'o_i = a_{i,\\mathrm{CLS}} v_{\\mathrm{CLS}} + a_{i,\\mathrm{SEP}} v_{\\mathrm{SEP}} + (1 - a_{i,\\mathrm{CLS}} - a_{i,\\mathrm{SEP}})\\, v',
      ),
      ', and the weights on the anchors depend on the distance to them. Switch the anchors on above and compare the softmax column with the one measured without them.',
    ),
  );
}

/** Lemma 2: symmetric ALiBi cannot tell a position from its mirror. @param {number} n */
function mirrorPart(n) {
  return el(
    'div',
    {},
    el('h4', {}, 'The mirror limit of symmetric ALiBi'),
    el(
      'p',
      {},
      'Bidirectional ALiBi adds ',
      m('-m\\,\\lvert i-j\\rvert'),
      ', which is the same seen from either end: ',
      m('b(i,j) = b(n{-}1{-}i,\\ n{-}1{-}j)'),
      '. Position ',
      m('i'),
      ' and its mirror ',
      m('n-1-i'),
      ' see the same biases on the same values, so ',
      m('h_i = h_{n-1-i}'),
      ' in every layer, for every normalization. The model cannot tell a position from its mirror image: accuracy at most ',
      m('\\lceil n/2\\rceil/n'),
      ` = ${pct(Math.ceil(n / 2) / n)} here. The mirror gap `,
      m('\\max_i \\lVert h_i - h_{n-1-i}\\rVert_\\infty'),
      ' shows it: 0 up to float rounding, that is below ',
      m('10^{-4}'),
      ' times the spread ',
      m('\\max_i \\lVert h_i - h_0\\rVert_\\infty'),
      " (float32 sums of values of that size differ in about their seventh digit). A cell is labelled mirror-limited (amber) when every seed's mirror gap is that small. The causal mask or anchors at the ends break the symmetry.",
    ),
    el(
      'p',
      { class: 'apd-small' },
      'Spread: ',
      m('\\max_i \\lVert h_i - h_0\\rVert_\\infty'),
      " of the final hidden states (anchors left out), computed by the engine's forward pass after training. Accuracy: held-out, at the training length n = ",
      String(n),
      '.',
    ),
  );
}

/** What the probe asks. @param {number} n @param {number[]} seeds */
function introSection(n, seeds) {
  return el(
    'section',
    { class: 'apd-intro' },
    el('h2', {}, 'The probe: can the model tell where it is?'),
    el(
      'p',
      {},
      'Feed ',
      m(`n = ${n}`),
      ' identical tokens ',
      el('code', {}, 'x x … x'),
      ' and ask every position for its own index ',
      m('0, 1, \\dots, n-1'),
      '. Nothing in the input says where a token is, so a model passes only if it can find positions by itself. Below, small models (',
      `d_model 32, 4 heads, 2 layers), ${seeds.length} per cell (${seedWords(seeds)}), learn this, all at once on the worker pool, one Web Worker per CPU core.`,
    ),
  );
}

/** The grid's region, which scrolls sideways when wider than the page (and not stacked). @param {HTMLElement} table */
function scrollRegion(table) {
  return el(
    'div',
    {
      class: 'apd-grid-wrap',
      tabindex: '0',
      role: 'region',
      'aria-label': 'the grid of models (scrolls sideways when it is wider than the page)',
    },
    table,
  );
}

/** Normalizations without a fixed row sum, and stick-breaking. */
function normalizationsPara() {
  return el(
    'p',
    {},
    el('strong', {}, 'A normalization without a fixed row sum'),
    ': ℓ2 ',
    m('a_{ij} = e^{s_{ij}} / \\sqrt{\\textstyle\\sum_k e^{2 s_{ik}}}'),
    ' (row sum between 1 and ',
    m('\\sqrt n'),
    ', depending on how peaked the row is), relu² ',
    m('\\mathrm{relu}(s_{ij})^2/n'),
    ', sigmoid ',
    m('\\sigma(s_{ij} - \\ln n)'),
    ', softmax1 ',
    m('e^{s_{ij}} / (1 + \\sum_k e^{s_{ik}})'),
    ' and sink (the same with a learned ',
    m('e^{z_h}'),
    ' for the 1). Now ',
    m('o_i = r_i\\, v'),
    ' with a row sum ',
    m('r_i'),
    ' that the relative bias can make depend on ',
    m('i'),
    '. ',
    el('strong', {}, 'Stick-breaking'),
    ' (causal only) gives each key ',
    m('\\sigma(s_{ij})'),
    ' of what the nearer keys left, so with identical tokens ',
    m('r_i = 1 - (1-\\beta)^i'),
    ': order is built in, no encoding needed.',
  );
}
