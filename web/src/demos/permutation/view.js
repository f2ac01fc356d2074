// The permutation demo's page: the formulas, the sequence editor's rows, the check's maps and
// results, the training pair's controls and charts. Static DOM only; index.js wires it.
import { Heatmap } from '../../charts/heatmap.js';
import { el, tex, m, colorOf, rich } from '../common.js';

/** @typedef {(key: string, params?: Record<string, string|number>) => string} Tr the demo's strings in its language */

/** @typedef {ReturnType<typeof buildDom>} PermutationUi the demo's elements and charts */

/**
 * Build the demo's DOM.
 * @param {import('../../charts/line-chart-base.js').LineChartClass} LineChart
 * @param {boolean} compact
 * @param {string[]} encodings the encodings offered (the registry's, demos/lists.js)
 * @param {Tr} tr
 */
export function buildDom(LineChart, compact, encodings, tr) {
  const { fpx, pfx, dmap, ...check } = checkElements(compact, encodings, tr);
  const t = trainElements(encodings, tr);
  const box = el(
    'div',
    { class: `apd apd-permutation${compact ? ' compact' : ''}` },
    introSection(tr),
    checkCard(check, [fpx.fig, pfx.fig, dmap.fig], tr),
    trainCard(t, tr),
  );
  const { acc, loss } = pairCharts(LineChart, compact, t, tr);
  const { accBox, lossBox, ...train } = t;
  return { box, ...check, ...train, maps: { fpx: fpx.h, pfx: pfx.h, diff: dmap.h }, acc, loss };
}

/**
 * The check's elements: the sequence rows and their buttons, the checked model's encoding and
 * mask, the difference and its maps.
 * @param {boolean} compact @param {string[]} encodings @param {Tr} tr
 */
function checkElements(compact, encodings, tr) {
  const opt = (/** @type {string} */ v, label = v) => el('option', { value: v }, label);
  const position = el(
    'select',
    { class: 'apd-position', 'aria-label': tr('perm.ariaPosition') },
    opt('none', 'none'),
    ...encodings.map((e) => opt(e)),
  );
  const causal = el('input', { type: 'checkbox', class: 'apd-causal' });
  const xRow = el('div', { class: 'apd-chips apd-x', role: 'group', 'aria-label': tr('perm.ariaX') });
  const pRow = el('div', { class: 'apd-chips apd-px', role: 'group', 'aria-label': tr('perm.ariaPX') });
  const permNote = el('p', { class: 'apd-small apd-perm-note' });
  const shuffle = el('button', { type: 'button', class: 'apd-shuffle' }, tr('perm.shuffle'));
  const reverse = el('button', { type: 'button', class: 'apd-reverse' }, tr('perm.reverse'));
  const identity = el('button', { type: 'button', class: 'apd-identity' }, tr('perm.identity'));
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
  const fpx = mapBox(m('f(\\pi X)'), tr('perm.mapFpx'));
  const pfx = mapBox(m('\\pi f(X)'), tr('perm.mapPfx'));
  const dmap = mapBox(el('span', {}, m('f(\\pi X) - \\pi f(X)'), tr('perm.sameColours')), tr('perm.mapDiff'));

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

/** The training pair's elements: its controls, scores, outcomes and charts' boxes. @param {string[]} encodings @param {Tr} tr */
function trainElements(encodings, tr) {
  const opt = (/** @type {string} */ v, label = v) => el('option', { value: v }, label);
  const encoding = el(
    'select',
    { class: 'apd-encoding', 'aria-label': tr('perm.ariaEncoding') },
    ...encodings.map((e) => opt(e)),
  );
  const play = el('button', { type: 'button', class: 'apd-play primary' }, tr('perm.play'));
  const reset = el('button', { type: 'button', class: 'apd-reset' }, tr('perm.reset'));
  const seed = el('input', {
    type: 'number',
    class: 'apd-seed',
    min: '0',
    step: '1',
    'aria-label': tr('perm.ariaSeed'),
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
  const counter = el('output', { class: 'apd-counter' }, tr('perm.stepZero'));
  const scoreA = el('output', { class: 'apd-score-none' }, '–');
  const scoreB = el('output', { class: 'apd-score-encoding' }, '–');
  const nameB = el('span', { class: 'apd-name-b' }, 'learned');
  const accBox = el(
    'div',
    { class: 'apd-chart apd-chart-acc' },
    el('div', { class: 'apd-chart-title' }, tr('perm.heldOutAcc')),
  );
  const lossBox = el(
    'div',
    { class: 'apd-chart apd-chart-loss' },
    el('div', { class: 'apd-chart-title' }, tr('perm.heldOutLoss')),
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
 * @param {Tr} tr
 */
function pairCharts(LineChart, compact, { accBox, lossBox }, tr) {
  const series = (/** @type {string} */ label) => [
    { key: 'a', label: 'none', color: colorOf('none'), points: true },
    { key: 'b', label, color: colorOf('learned'), points: true },
  ];
  const acc = new LineChart(accBox, {
    title: tr('perm.heldOutAcc'),
    xLabel: tr('widget.stat.step'),
    series: series('learned'),
    yRange: [0, 1],
    height: compact ? 140 : 170,
  });
  const loss = new LineChart(lossBox, {
    title: tr('perm.heldOutLoss'),
    xLabel: tr('widget.stat.step'),
    series: series('learned'),
    height: compact ? 140 : 170,
  });
  return { acc, loss };
}

/** Why attention without positions is permutation-equivariant. @param {Tr} tr */
function introSection(tr) {
  return el(
    'section',
    { class: 'apd-intro' },
    el('h2', {}, tr('perm.title')),
    el('p', {}, ...rich(tr('perm.intro1'), { P: m('P'), PSP: m('PS P^{\\top}'), PP: m('P^\\top P = I') })),
    tex(
      '\\operatorname{Attn}(PX) = \\operatorname{softmax}\\!\\Big(\\tfrac{P Q K^\\top P^\\top}{\\sqrt{d}}\\Big) P V = P\\,\\operatorname{softmax}\\!\\Big(\\tfrac{QK^\\top}{\\sqrt d}\\Big) P^\\top P V = P\\,\\operatorname{Attn}(X).',
      true,
    ),
    el(
      'p',
      {},
      ...rich(tr('perm.intro2'), {
        P: m('P'),
        eq: m('f(\\pi X) = \\pi f(X)'),
        mean: m('\\tfrac1n\\sum_i f(\\pi X)_i = \\tfrac1n\\sum_i f(X)_i'),
      }),
    ),
  );
}

/**
 * The check's card: the editor's rows, the checked model's settings, the maps and the results.
 * @param {Record<string, HTMLElement>} parts
 * @param {HTMLElement[]} maps the three heatmaps' figures
 * @param {Tr} tr
 */
function checkCard(
  { xRow, pRow, shuffle, reverse, identity, permNote, position, causal, modelNote, error, diffBox, pooled },
  maps,
  tr,
) {
  return el(
    'section',
    { class: 'apd-card apd-check' },
    el('h3', {}, tr('perm.reorder')),
    el(
      'div',
      { class: 'apd-editor' },
      el('div', { class: 'apd-row' }, el('span', { class: 'apd-row-label' }, 'X'), xRow),
      el('div', { class: 'apd-row' }, el('span', { class: 'apd-row-label' }, 'πX'), pRow),
      el('div', { class: 'apd-tools' }, shuffle, reverse, identity, permNote),
      el('p', { class: 'apd-small' }, tr('perm.editHelp')),
    ),
    el(
      'div',
      { class: 'apd-tools' },
      el('label', {}, ...rich(tr('perm.checkedModel'), { select: position })),
      el('label', { class: 'apd-check-label' }, causal, tr('perm.causal')),
    ),
    modelNote,
    error,
    el('div', { class: 'apd-result' }, diffBox, pooled),
    el('div', { class: 'apd-maps' }, ...maps),
    el(
      'p',
      { class: 'apd-small' },
      ...rich(tr('perm.mapsNote'), {
        dmodel: m('d_{\\text{model}}'),
        tiny: m('10^{-7}'),
        pi: m('p_i'),
        i: m('i'),
        bij: m('b(i-j)'),
        bpi: m('b(\\pi(i)-\\pi(j)) \\neq b(i-j)'),
        M: m('M_{ij} = [\\,j \\le i\\,]'),
        PMP: m('PMP^\\top \\ne M'),
        alibi: m('b = -m\\,\\lvert i-j\\rvert'),
        orig: el('em', {}, tr('perm.identity')),
        rev: el('em', {}, tr('perm.reverse')),
      }),
    ),
  );
}

/**
 * The training pair's card: its controls, scores, outcomes and charts.
 * @param {Record<string, HTMLElement>} parts
 * @param {Tr} tr
 */
function trainCard(
  {
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
  },
  tr,
) {
  return el(
    'section',
    { class: 'apd-card apd-train' },
    el('h3', {}, ...rich(tr('perm.train'), { task: el('code', {}, 'order') })),
    el('p', {}, tr('perm.trainIntro')),
    el(
      'div',
      { class: 'apd-tools' },
      play,
      reset,
      el('label', {}, ...rich(tr('perm.secondModel'), { select: encoding })),
      el('label', {}, ...rich(tr('perm.firstSeed'), { input: seed })),
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
    el('p', { class: 'apd-small' }, ...rich(tr('perm.scoresNote'), { X: m('X'), ln2: m('\\ln 2 \\approx 0.693') })),
  );
}
