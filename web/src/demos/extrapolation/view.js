// The extrapolation demo's page: the intro and its explanations, the toolbar (Train, the
// encodings, the second task, RoPE scalings), one block per task with its accuracy and loss
// charts against evaluation length and a table of the values, and the RoPE frequency table's
// frame. Static DOM only; index.js wires and fills it.
import { el, m, colorOf, rich } from '../common.js';
import { nearestIndex } from '../../common/nearest.js';
import { SECOND_TASKS } from '../options.js';

export { SECOND_TASKS };

/** @type {Record<string, (k: number) => string>} what each task asks, as TeX (typeset in the block's title) */
const TASK_TEX = {
  copy_back: (k) => `y_t = x_{t-${k}}`,
  copy_first: () => 'y_t = x_0',
};
/** The other tasks in words: the message table's `ext.task.<task>`. */
const TASK_WORDS = ['repeat', 'copy', 'reverse', 'sort', 'dyck'];
/** @typedef {(key: string, params?: Record<string, string|number>) => string} Tr the demo's words (common/messages.js) */

/**
 * A block's title: the task's name as the engine spells it, and what it asks (typeset).
 * @param {string} task
 * @param {number} k copy_back's distance
 * @param {Tr} tr
 * @returns {(string|Node)[]}
 */
export function taskTitle(task, k, tr) {
  const name = el('code', {}, task);
  if (TASK_TEX[task]) return [name, task === 'copy_back' ? ` (k = ${k}): ` : ': ', m(TASK_TEX[task](k))];
  return [name, TASK_WORDS.includes(task) ? `: ${tr(`ext.task.${task}`)}` : ''];
}
export const SCALINGS = ['pi', 'ntk', 'yarn'];
/** A scaling's name in words (`ext.scaling.<x>`). @param {string} x @param {Tr} tr */
export const scalingTitle = (x, tr) => tr(`ext.scaling.${x}`);

/** @typedef {ReturnType<typeof buildDom>} ExtrapolationUi the demo's elements and charts */

/** @type {Record<string, {dash: number[]}>} the line style of each RoPE scaling (its name in the legend: `ext.dash.<x>`) */
export const DASHES = {
  pi: { dash: [2, 3] },
  ntk: { dash: [8, 4] },
  yarn: { dash: [12, 3, 2, 3] },
};

/**
 * @param {import('../../charts/line-chart-base.js').LineChartClass} LineChart
 * @param {boolean} compact
 * @param {{encodings: string[], scaling: Set<string>, tasks: string[], factor: number, seeds: number[], tr: Tr}} s the demo's state (tr: its words)
 * @param {number} L the training length
 * @param {number} k copy_back's distance
 * @param {number[]} lengths the evaluation lengths
 * @param {string[]} encodings the encodings offered (the registry's, demos/lists.js)
 */
export function buildDom(LineChart, compact, s, L, k, lengths, encodings) {
  const { tr } = s;
  const encodingBoxes = encodings.map((e) =>
    el('input', { type: 'checkbox', value: e, checked: s.encodings.includes(e) }),
  );
  const scalingBoxes = SCALINGS.map((x) =>
    el('input', { type: 'checkbox', value: x, checked: s.scaling.has(x), class: `apd-scaling-${x}` }),
  );
  const task2 = el(
    'select',
    { class: 'apd-task2', 'aria-label': tr('ext.task2Aria') },
    ...SECOND_TASKS.map((t) => el('option', { value: t }, t)),
  );
  task2.value = s.tasks[1];
  const factor = el(
    'select',
    { class: 'apd-factor', 'aria-label': tr('ext.factorAria') },
    ...[2, 3, 4].map((v) => el('option', { value: v }, String(v))),
  );
  factor.value = String(s.factor);
  const play = el('button', { type: 'button', class: 'apd-play primary' }, tr('ext.train'));
  const progress = el('output', { class: 'apd-progress', 'aria-live': 'polite' });
  const status = el('ul', { class: 'apd-legend apd-status' });
  const error = el('p', { class: 'apd-error', role: 'alert', hidden: true });
  const { table, tableNote, tableBox } = ropeFrame(factor, tr);

  const blocks = [0, 1].map((index) => taskBlock(LineChart, compact, index, encodings, L, lengths, tr));

  const box = el(
    'div',
    { class: `apd apd-extrapolation${compact ? ' compact' : ''}` },
    introSection(L, lengths, s.seeds, tr),
    toolbar({ play, progress, encodings, encodingBoxes, task2, scalingBoxes, error, status, tr }),
    el('div', { class: 'apd-ext-layout' }, el('div', { class: 'apd-blocks' }, ...blocks.map((b) => b.box)), tableBox),
  );
  return {
    box,
    encodingBoxes,
    scalingBoxes,
    task2,
    factor,
    play,
    progress,
    status,
    error,
    table,
    tableNote,
    tableBox,
    blocks,
  };
}

/**
 * The RoPE table's frame (rope-table.js fills it): the factor, the table, its note and the formulas.
 * @param {HTMLSelectElement} factor @param {Tr} tr
 */
function ropeFrame(factor, tr) {
  const table = el('table', { class: 'apd-table apd-rope-table' });
  const tableNote = el('p', { class: 'apd-small' });
  const tableBox = el(
    'div',
    { class: 'apd-card apd-rope' },
    el('h3', {}, tr('ext.rope.title')),
    el('label', {}, ...rich(tr('ext.rope.factor'), { select: factor })),
    table,
    tableNote,
    el(
      'p',
      { class: 'apd-small' },
      ...rich(tr('ext.rope.formulas'), {
        pi: m("\\theta'_i = \\theta_i/s"),
        ntk: m("b' = b\\,s^{d/(d-2)}"),
        yarn: m('(0.1\\ln s + 1)^2'),
      }),
    ),
  );

  return { table, tableNote, tableBox };
}

/**
 * The toolbar card: Train, the encodings, the second task and the RoPE scalings, the error and the status.
 * @param {{play: HTMLElement, progress: HTMLElement, encodings: string[], encodingBoxes: HTMLInputElement[],
 *   task2: HTMLSelectElement, scalingBoxes: HTMLInputElement[], error: HTMLElement, status: HTMLElement, tr: Tr}} parts
 */
function toolbar({ play, progress, encodings, encodingBoxes, task2, scalingBoxes, error, status, tr }) {
  return el(
    'section',
    { class: 'apd-card' },
    el('div', { class: 'apd-tools' }, play, progress),
    el(
      'div',
      { class: 'apd-tools' },
      el('span', { class: 'apd-small' }, tr('ext.encodings')),
      el(
        'div',
        { class: 'apd-encodings' },
        ...encodings.map((e, i) => el('label', { style: { color: colorOf(e) } }, encodingBoxes[i], e)),
      ),
    ),
    el(
      'div',
      { class: 'apd-tools' },
      el('label', {}, ...rich(tr('ext.secondTask'), { select: task2 })),
      el('span', { class: 'apd-small' }, tr('ext.ropeAtEval')),
      ...SCALINGS.map((x, i) =>
        el('label', { title: scalingTitle(x, tr) }, scalingBoxes[i], `${x} (${tr(`ext.dash.${x}`)})`),
      ),
    ),
    error,
    status,
  );
}

/**
 * One task's block: its title, the accuracy and loss charts against ℓ, the notes and the values.
 * @param {import('../../charts/line-chart-base.js').LineChartClass} LineChart @param {boolean} compact
 * @param {number} index @param {string[]} encodings @param {number} L @param {number[]} lengths the evaluation lengths
 * @param {Tr} tr
 */
function taskBlock(LineChart, compact, index, encodings, L, lengths, tr) {
  const colorize = (/** @type {string} */ key) => {
    const [pos, method] = key.split('+');
    return {
      key,
      label: method ? `rope + ${method} (${tr(`ext.dash.${method}`)})` : pos,
      color: colorOf(pos),
      dash: method ? DASHES[method].dash : undefined,
      points: true,
    };
  };
  const seriesKeys = [...encodings, ...SCALINGS.map((x) => `rope+${x}`)];
  const title = el('h3', { class: 'apd-task-title' });
  const accBox = el(
    'div',
    { class: 'apd-chart apd-chart-acc' },
    el('div', { class: 'apd-chart-title' }, tr('ext.chart.acc')),
  );
  const lossBox = el(
    'div',
    { class: 'apd-chart apd-chart-loss' },
    el('div', { class: 'apd-chart-title' }, tr('ext.chart.loss')),
  );
  const note = el('p', { class: 'apd-note', hidden: true });
  const measured = el('p', { class: 'apd-measured apd-small', 'aria-live': 'polite' });
  const values = el('div');
  const box = el(
    'section',
    { class: 'apd-card apd-task-block', dataset: { block: String(index) } },
    title,
    el('div', { class: 'apd-charts' }, accBox, lossBox),
    measured,
    note,
    el('details', { class: 'apd-values' }, el('summary', {}, tr('ext.values')), values),
  );
  const h = compact ? 150 : 190;
  const markers = [{ x: L, label: `L = ${L}` }];
  // Curves are drawn a little apart in ℓ (results.js): the legend names the length evaluated.
  const xText = (/** @type {number} */ x) => String(lengths[nearestIndex(lengths, x)] ?? Math.round(x));
  const axis = { xLabel: tr('ext.chart.x'), xText, markers, empty: tr('ext.chart.empty'), height: h };
  const acc = new LineChart(accBox, {
    title: tr('ext.chart.accTitle'),
    series: seriesKeys.map(colorize),
    yRange: [0, 1.05],
    ...axis,
  });
  const loss = new LineChart(lossBox, { title: tr('ext.chart.lossTitle'), series: seriesKeys.map(colorize), ...axis });
  return { index, box, title, acc, loss, note, values, measured };
}

/**
 * What the demo measures and why encodings differ past L.
 * @param {number} L @param {number[]} lengths @param {number[]} seeds @param {Tr} tr
 */
function introSection(L, lengths, seeds, tr) {
  return el(
    'section',
    { class: 'apd-intro' },
    el('h2', {}, tr('ext.intro.title')),
    el(
      'p',
      {},
      ...rich(tr('ext.intro.p'), {
        L: m(`L = ${L}`),
        lengths: m(`\\ell = ${lengths.join(', ')}`),
        fourL: m('4L'),
        Lsym: m('L'),
      }),
    ),
    el('div', { class: 'apd-explain' }, absoluteCard(tr), relativeCard(tr), scalingCard(seeds, tr)),
  );
}

/** Why absolute encodings end at, or fail past, L. @param {Tr} tr */
function absoluteCard(tr) {
  return el(
    'div',
    {},
    el('h4', {}, tr('ext.abs.title')),
    el(
      'p',
      {},
      ...rich(tr('ext.abs.p'), {
        learned: el('strong', {}, tr('ext.abs.learned')),
        P: m('P \\in \\mathbb{R}^{L\\times d}'),
        L: m('L'),
        sin: el('strong', {}, tr('ext.abs.sin')),
        pt: m('p_{t,2i} = \\sin(t/10000^{2i/d})'),
        t: m('t'),
        L2: m('L'),
      }),
    ),
  );
}

/** What relative encodings do past L. @param {Tr} tr */
function relativeCard(tr) {
  return el(
    'div',
    {},
    el('h4', {}, tr('ext.rel.title')),
    el(
      'p',
      {},
      ...rich(tr('ext.rel.p'), {
        alibi: el('strong', {}, 'ALiBi'),
        bias: m('-m_h (i-j)'),
        L: m('L'),
        L2: m('L'),
        t5: el('strong', {}, 'T5'),
        rope: el('strong', {}, 'RoPE'),
        angle: m('t\\,\\theta_i'),
        L3: m('L'),
      }),
    ),
  );
}

/** RoPE scaled at evaluation, and what the curves average. @param {number[]} seeds @param {Tr} tr */
function scalingCard(seeds, tr) {
  return el(
    'div',
    {},
    el('h4', {}, tr('ext.scale.title')),
    el('p', {}, ...rich(tr('ext.scale.p'), { ell: m('\\ell'), map: m('t \\mapsto t/s'), s: m('s = \\ell/L') })),
    el('p', { class: 'apd-small' }, tr('ext.scale.small', { n: seeds.length, list: seeds.join(', ') })),
  );
}
