// The permutation demo's page: the formulas, the sequence editor's rows, the check's maps and
// results, the training pair's controls and charts. Static DOM only; index.js wires it.
import { Heatmap } from '../../charts/heatmap.js';
import { el, tex, m, colorOf } from '../common.js';

/** @typedef {ReturnType<typeof buildDom>} PermutationUi the demo's elements and charts */

/**
 * Build the demo's DOM.
 * @param {import('../../charts/line-chart-base.js').LineChartClass} LineChart
 * @param {boolean} compact
 * @param {string[]} encodings the encodings offered (the registry's, demos/lists.js)
 */
export function buildDom(LineChart, compact, encodings) {
  const { fpx, pfx, dmap, ...check } = checkElements(compact, encodings);
  const t = trainElements(encodings);
  const box = el(
    'div',
    { class: `apd apd-permutation${compact ? ' compact' : ''}` },
    introSection(),
    checkCard(check, [fpx.fig, pfx.fig, dmap.fig]),
    trainCard(t),
  );
  const { acc, loss } = pairCharts(LineChart, compact, t);
  const { accBox, lossBox, ...train } = t;
  return { box, ...check, ...train, maps: { fpx: fpx.h, pfx: pfx.h, diff: dmap.h }, acc, loss };
}

/**
 * The check's elements: the sequence rows and their buttons, the checked model's encoding and
 * mask, the difference and its maps.
 * @param {boolean} compact @param {string[]} encodings
 */
function checkElements(compact, encodings) {
  const opt = (/** @type {string} */ v, label = v) => el('option', { value: v }, label);
  const position = el(
    'select',
    { class: 'apd-position', 'aria-label': 'position encoding of the checked model' },
    opt('none', 'none'),
    ...encodings.map((e) => opt(e)),
  );
  const causal = el('input', { type: 'checkbox', class: 'apd-causal' });
  const xRow = el('div', { class: 'apd-chips apd-x', role: 'group', 'aria-label': 'the sequence X' });
  const pRow = el('div', { class: 'apd-chips apd-px', role: 'group', 'aria-label': 'the reordered sequence πX' });
  const permNote = el('p', { class: 'apd-small apd-perm-note' });
  const shuffle = el('button', { type: 'button', class: 'apd-shuffle' }, 'Shuffle');
  const reverse = el('button', { type: 'button', class: 'apd-reverse' }, 'Reverse');
  const identity = el('button', { type: 'button', class: 'apd-identity' }, 'Original order');
  const diff = el('output', { class: 'apd-diff-value' }, '…');
  const diffNote = el('p', { class: 'apd-small' });
  const diffBox = el(
    'div',
    { class: 'apd-diff', role: 'status', 'aria-live': 'polite' },
    el('div', {}, m('\\max_{i,c}\\,\\lvert f(\\pi X) - \\pi f(X)\\rvert_{i,c} ='), ' ', diff),
    diffNote,
  );
  const pooled = el('div', { class: 'apd-pooled', 'aria-live': 'polite' });
  const modelNote = el('p', { class: 'apd-small apd-model-note' });
  const error = el('p', { class: 'apd-error', role: 'alert', hidden: true });
  const mapBox = (/** @type {import('../../panels/dom.js').Child} */ title, /** @type {string} */ tip) => {
    const fig = el('figure', { class: 'apd-map' }, el('figcaption', {}, title));
    const h = new Heatmap(fig, { label: tip, maxSize: compact ? 270 : 330, maxCell: 9 });
    return { fig, h };
  };
  const fpx = mapBox(m('f(\\pi X)'), 'final hidden states of the reordered input');
  const pfx = mapBox(m('\\pi f(X)'), 'final hidden states of X, reordered');
  const dmap = mapBox(el('span', {}, m('f(\\pi X) - \\pi f(X)'), ' (same colours)'), 'difference');

  return {
    xRow,
    pRow,
    permNote,
    shuffle,
    reverse,
    identity,
    position,
    causal,
    modelNote,
    error,
    diff,
    diffNote,
    diffBox,
    pooled,
    fpx,
    pfx,
    dmap,
  };
}

/** The training pair's elements: its controls, scores, outcomes and charts' boxes. @param {string[]} encodings */
function trainElements(encodings) {
  const opt = (/** @type {string} */ v, label = v) => el('option', { value: v }, label);
  const encoding = el(
    'select',
    { class: 'apd-encoding', 'aria-label': 'position encoding of the second model' },
    ...encodings.map((e) => opt(e)),
  );
  const play = el('button', { type: 'button', class: 'apd-play primary' }, 'Play');
  const reset = el('button', { type: 'button', class: 'apd-reset' }, 'Reset');
  const seed = el('input', {
    type: 'number',
    class: 'apd-seed',
    min: '0',
    step: '1',
    'aria-label': 'first seed',
    'aria-describedby': 'apd-seed-error',
  });
  const seedError = el('span', {
    class: 'apd-error apd-seed-error',
    id: 'apd-seed-error',
    role: 'alert',
    hidden: true,
  });
  const playNote = el('p', { class: 'apd-small apd-play-note', 'aria-live': 'polite' });
  const outcomeA = el('p', { class: 'apd-outcome apd-outcome-none' });
  const outcomeB = el('p', { class: 'apd-outcome apd-outcome-encoding' });
  const counter = el('output', { class: 'apd-counter' }, 'step 0');
  const scoreA = el('output', { class: 'apd-score-none' }, '–');
  const scoreB = el('output', { class: 'apd-score-encoding' }, '–');
  const nameB = el('span', { class: 'apd-name-b' }, 'learned');
  const accBox = el(
    'div',
    { class: 'apd-chart apd-chart-acc' },
    el('div', { class: 'apd-chart-title' }, 'held-out accuracy'),
  );
  const lossBox = el(
    'div',
    { class: 'apd-chart apd-chart-loss' },
    el('div', { class: 'apd-chart-title' }, 'held-out loss'),
  );

  return {
    play,
    reset,
    encoding,
    seed,
    seedError,
    counter,
    playNote,
    scoreA,
    scoreB,
    nameB,
    outcomeA,
    outcomeB,
    accBox,
    lossBox,
  };
}

/**
 * The pair's held-out accuracy and loss charts.
 * @param {import('../../charts/line-chart-base.js').LineChartClass} LineChart @param {boolean} compact
 * @param {{accBox: HTMLElement, lossBox: HTMLElement}} boxes
 */
function pairCharts(LineChart, compact, { accBox, lossBox }) {
  const series = (/** @type {string} */ label) => [
    { key: 'a', label: 'none', color: colorOf('none'), points: true },
    { key: 'b', label, color: colorOf('learned'), points: true },
  ];
  const acc = new LineChart(accBox, {
    title: 'held-out accuracy',
    series: series('learned'),
    yRange: [0, 1],
    height: compact ? 140 : 170,
  });
  const loss = new LineChart(lossBox, {
    title: 'held-out loss',
    series: series('learned'),
    height: compact ? 140 : 170,
  });
  return { acc, loss };
}

/** Why attention without positions is permutation-equivariant. */
function introSection() {
  return el(
    'section',
    { class: 'apd-intro' },
    el('h2', {}, 'Attention without positions cannot see order'),
    el(
      'p',
      {},
      'Self-attention mixes tokens by weights computed from the tokens themselves. Reorder the input with a permutation matrix ',
      m('P'),
      ' and the logits get their rows and columns reordered, ',
      m('PS P^{\\top}'),
      '; softmax works row by row, so the weights are reordered the same way, and ',
      m('P^\\top P = I'),
      ' cancels on the values:',
    ),
    tex(
      '\\operatorname{Attn}(PX) = \\operatorname{softmax}\\!\\Big(\\tfrac{P Q K^\\top P^\\top}{\\sqrt{d}}\\Big) P V = P\\,\\operatorname{softmax}\\!\\Big(\\tfrac{QK^\\top}{\\sqrt d}\\Big) P^\\top P V = P\\,\\operatorname{Attn}(X).',
      true,
    ),
    el(
      'p',
      {},
      'The residual connections, LayerNorm and the feed-forward network act on each token alone, so they commute with ',
      m('P'),
      ' too. The whole encoder is permutation-equivariant, ',
      m('f(\\pi X) = \\pi f(X)'),
      ', and a prediction from the mean over positions, ',
      m('\\tfrac1n\\sum_i f(\\pi X)_i = \\tfrac1n\\sum_i f(X)_i'),
      ', is permutation-invariant: a bag of words. Below, the model runs on your sequence and on its reordering; compare the two sides.',
    ),
  );
}

/**
 * The check's card: the editor's rows, the checked model's settings, the maps and the results.
 * @param {Record<string, HTMLElement>} parts
 * @param {HTMLElement[]} maps the three heatmaps' figures
 */
function checkCard(
  { xRow, pRow, shuffle, reverse, identity, permNote, position, causal, modelNote, error, diffBox, pooled },
  maps,
) {
  return el(
    'section',
    { class: 'apd-card apd-check' },
    el('h3', {}, 'Reorder the input'),
    el(
      'div',
      { class: 'apd-editor' },
      el('div', { class: 'apd-row' }, el('span', { class: 'apd-row-label' }, 'X'), xRow),
      el('div', { class: 'apd-row' }, el('span', { class: 'apd-row-label' }, 'πX'), pRow),
      el('div', { class: 'apd-tools' }, shuffle, reverse, identity, permNote),
      el(
        'p',
        { class: 'apd-small' },
        "Click a token of X to change it (A and B decide the answer; c–f are fillers). Drag the tokens of πX, or focus one and use ←/→, to reorder. The small number is each token's position in X.",
      ),
    ),
    el(
      'div',
      { class: 'apd-tools' },
      el('label', {}, 'Checked model: position ', position),
      el('label', { class: 'apd-check-label' }, causal, ' causal mask'),
    ),
    modelNote,
    error,
    el('div', { class: 'apd-result' }, diffBox, pooled),
    el('div', { class: 'apd-maps' }, ...maps),
    el(
      'p',
      { class: 'apd-small' },
      'Rows: positions of πX (tokens on the left); columns: the ',
      m('d_{\\text{model}}'),
      ' channels of the final hidden state. With no encoding the difference is float rounding (about ',
      m('10^{-7}'),
      ': the same sums, added in another order). An absolute encoding adds ',
      m('p_i'),
      ' to the token at position ',
      m('i'),
      '; a relative one adds ',
      m('b(i-j)'),
      ' to the logits, and ',
      m('b(\\pi(i)-\\pi(j)) \\neq b(i-j)'),
      '; the causal mask ',
      m('M_{ij} = [\\,j \\le i\\,]'),
      ' is not reordered with the tokens, ',
      m('PMP^\\top \\ne M'),
      '. Each breaks the identity, by the amount shown. One exception to try: bidirectional ALiBi, ',
      m('b = -m\\,\\lvert i-j\\rvert'),
      ', is the same read from either end, so with ',
      el('em', {}, 'Original order'),
      ' then ',
      el('em', {}, 'Reverse'),
      ' the difference drops back to rounding: such a model cannot tell a sequence from its mirror image, nor A…B from B…A.',
    ),
  );
}

/**
 * The training pair's card: its controls, scores, outcomes and charts.
 * @param {Record<string, HTMLElement>} parts
 */
function trainCard({
  play,
  reset,
  encoding,
  seed,
  seedError,
  counter,
  playNote,
  scoreA,
  scoreB,
  nameB,
  outcomeA,
  outcomeB,
  accBox,
  lossBox,
}) {
  return el(
    'section',
    { class: 'apd-card apd-train' },
    el('h3', {}, 'Two models learn ', el('code', {}, 'order')),
    el(
      'p',
      {},
      'The task: does A come before B? A and B appear once among filler tokens; the answer is read from the mean over positions. Each side trains one model per seed; the two models of a seed have the same initial weights (but for the encoding) and the same batches. A model trains until it has learned the task (held-out accuracy ≥ 95%) or its step budget runs out, whichever comes first.',
    ),
    el(
      'div',
      { class: 'apd-tools' },
      play,
      reset,
      el('label', {}, 'Second model: position ', encoding),
      el('label', {}, 'first seed ', seed),
      seedError,
      counter,
    ),
    playNote,
    el(
      'dl',
      { class: 'apd-scores' },
      el('div', {}, el('dt', { style: { color: colorOf('none') } }, 'position = none'), el('dd', {}, scoreA)),
      el('div', {}, el('dt', {}, 'position = ', nameB), el('dd', {}, scoreB)),
    ),
    el('div', { class: 'apd-outcomes', role: 'status' }, outcomeA, outcomeB),
    el('div', { class: 'apd-charts' }, accBox, lossBox),
    el(
      'p',
      { class: 'apd-small' },
      'Scores: the mean held-out accuracy over the seeds, with the lowest and highest in brackets. Charts: the mean over the seeds every 25 steps (a model that has stopped keeps its last value). Chance is 50%: without positions the model gives ',
      m('X'),
      ' and every reordering of it the same answer, and half of the reorderings swap A and B; its expected loss is at least that of a fair guess, ',
      m('\\ln 2 \\approx 0.693'),
      '.',
    ),
  );
}
