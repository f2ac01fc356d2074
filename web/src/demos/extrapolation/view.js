// The extrapolation demo's page: the intro and its explanations, the toolbar (Train, the
// encodings, the second task, RoPE scalings), one block per task with its accuracy and loss
// charts against evaluation length and a table of the values, and the RoPE frequency table's
// frame. Static DOM only; index.js wires and fills it.
import { el, m, colorOf } from '../common.js';
import { nearestIndex } from '../../common/nearest.js';

export const SECOND_TASKS = ['copy_first', 'repeat', 'copy', 'reverse', 'sort', 'dyck'];
/** @type {Record<string, (k: number) => string>} what each task asks, as TeX (typeset in the block's title) */
const TASK_TEX = {
  copy_back: (k) => `y_t = x_{t-${k}}`,
  copy_first: () => 'y_t = x_0',
};
/** @type {Record<string, string>} the other tasks in words */
const TASK_WORDS = {
  repeat: 'continue a short pattern periodically',
  copy: 'repeat a digit string after it',
  reverse: 'the digit string reversed',
  sort: 'the digit string sorted',
  dyck: 'nesting depth of brackets',
};

/**
 * A block's title: the task's name as the engine spells it, and what it asks (typeset).
 * @param {string} task
 * @param {number} k copy_back's distance
 * @returns {(string|Node)[]}
 */
export function taskTitle(task, k) {
  const name = el('code', {}, task);
  if (TASK_TEX[task]) return [name, task === 'copy_back' ? ` (k = ${k}): ` : ': ', m(TASK_TEX[task](k))];
  return [name, TASK_WORDS[task] ? `: ${TASK_WORDS[task]}` : ''];
}
export const SCALINGS = ['pi', 'ntk', 'yarn'];
/** @type {Record<string, string>} */
export const SCALING_TITLES = { pi: 'position interpolation', ntk: 'NTK-aware base', yarn: 'YaRN' };

/** @typedef {ReturnType<typeof buildDom>} ExtrapolationUi the demo's elements and charts */

/** @type {Record<string, {dash: number[], words: string}>} the line style of each RoPE scaling, and its name in the legend */
export const DASHES = {
  pi: { dash: [2, 3], words: 'dotted' },
  ntk: { dash: [8, 4], words: 'dashed' },
  yarn: { dash: [12, 3, 2, 3], words: 'dash-dot' },
};

/**
 * @param {import('../../charts/line-chart-base.js').LineChartClass} LineChart
 * @param {boolean} compact
 * @param {{encodings: string[], scaling: Set<string>, tasks: string[], factor: number, seeds: number[]}} s the demo's state
 * @param {number} L the training length
 * @param {number} k copy_back's distance
 * @param {number[]} lengths the evaluation lengths
 * @param {string[]} encodings the encodings offered (the registry's, demos/lists.js)
 */
export function buildDom(LineChart, compact, s, L, k, lengths, encodings) {
  const encodingBoxes = encodings.map((e) =>
    el('input', { type: 'checkbox', value: e, checked: s.encodings.includes(e) }),
  );
  const scalingBoxes = SCALINGS.map((x) =>
    el('input', { type: 'checkbox', value: x, checked: s.scaling.has(x), class: `apd-scaling-${x}` }),
  );
  const task2 = el(
    'select',
    { class: 'apd-task2', 'aria-label': 'second task' },
    ...SECOND_TASKS.map((t) => el('option', { value: t }, t)),
  );
  task2.value = s.tasks[1];
  const factor = el(
    'select',
    { class: 'apd-factor', 'aria-label': 'scaling factor s for the table' },
    ...[2, 3, 4].map((v) => el('option', { value: v }, String(v))),
  );
  factor.value = String(s.factor);
  const play = el('button', { type: 'button', class: 'apd-play primary' }, 'Train');
  const progress = el('output', { class: 'apd-progress', 'aria-live': 'polite' });
  const status = el('ul', { class: 'apd-legend apd-status' });
  const error = el('p', { class: 'apd-error', role: 'alert', hidden: true });
  const { table, tableNote, tableBox } = ropeFrame(factor);

  const blocks = [0, 1].map((index) => taskBlock(LineChart, compact, index, encodings, L, lengths));

  const box = el(
    'div',
    { class: `apd apd-extrapolation${compact ? ' compact' : ''}` },
    introSection(L, lengths, s.seeds),
    toolbar({ play, progress, encodings, encodingBoxes, task2, scalingBoxes, error, status }),
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
 * @param {HTMLSelectElement} factor
 */
function ropeFrame(factor) {
  const table = el('table', { class: 'apd-table apd-rope-table' });
  const tableNote = el('p', { class: 'apd-small' });
  const tableBox = el(
    'div',
    { class: 'apd-card apd-rope' },
    el('h3', {}, 'RoPE frequencies, scaled'),
    el('label', {}, 'factor s ', factor),
    table,
    tableNote,
    el(
      'p',
      { class: 'apd-small' },
      'PI divides every angle by s: ',
      m("\\theta'_i = \\theta_i/s"),
      '. NTK-aware raises the base, ',
      m("b' = b\\,s^{d/(d-2)}"),
      ': the fastest pair stays, the slowest is divided by s. YaRN keeps the pairs that turn many times within L, interpolates the slow ones and scales the logits by ',
      m('(0.1\\ln s + 1)^2'),
      '. Values from the engine (positions() of a RoPE model loaded with each scaling). In the charts, s = ℓ/L for each evaluation length ℓ.',
    ),
  );

  return { table, tableNote, tableBox };
}

/**
 * The toolbar card: Train, the encodings, the second task and the RoPE scalings, the error and the status.
 * @param {{play: HTMLElement, progress: HTMLElement, encodings: string[], encodingBoxes: HTMLInputElement[],
 *   task2: HTMLSelectElement, scalingBoxes: HTMLInputElement[], error: HTMLElement, status: HTMLElement}} parts
 */
function toolbar({ play, progress, encodings, encodingBoxes, task2, scalingBoxes, error, status }) {
  return el(
    'section',
    { class: 'apd-card' },
    el('div', { class: 'apd-tools' }, play, progress),
    el(
      'div',
      { class: 'apd-tools' },
      el('span', { class: 'apd-small' }, 'Encodings:'),
      el(
        'div',
        { class: 'apd-encodings' },
        ...encodings.map((e, i) => el('label', { style: { color: colorOf(e) } }, encodingBoxes[i], e)),
      ),
    ),
    el(
      'div',
      { class: 'apd-tools' },
      el('label', {}, 'Second task ', task2),
      el('span', { class: 'apd-small' }, 'RoPE at evaluation:'),
      ...SCALINGS.map((x, i) =>
        el('label', { title: SCALING_TITLES[x] }, scalingBoxes[i], `${x} (${DASHES[x].words})`),
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
 */
function taskBlock(LineChart, compact, index, encodings, L, lengths) {
  const colorize = (/** @type {string} */ key) => {
    const [pos, method] = key.split('+');
    return {
      key,
      label: method ? `rope + ${method} (${DASHES[method].words})` : pos,
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
    el('div', { class: 'apd-chart-title' }, 'accuracy (scored positions) vs evaluation length ℓ'),
  );
  const lossBox = el(
    'div',
    { class: 'apd-chart apd-chart-loss' },
    el('div', { class: 'apd-chart-title' }, 'loss vs evaluation length ℓ'),
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
    el('details', { class: 'apd-values' }, el('summary', {}, 'the values'), values),
  );
  const h = compact ? 150 : 190;
  const markers = [{ x: L, label: `L = ${L}` }];
  // Curves are drawn a little apart in ℓ (results.js): the legend names the length evaluated.
  const xText = (/** @type {number} */ x) => String(lengths[nearestIndex(lengths, x)] ?? Math.round(x));
  const acc = new LineChart(accBox, {
    title: 'accuracy',
    series: seriesKeys.map(colorize),
    yRange: [0, 1.05],
    height: h,
    xLabel: 'evaluation length ℓ',
    xText,
    markers,
    empty: 'A curve comes as its models finish training.',
  });
  const loss = new LineChart(lossBox, {
    title: 'loss',
    series: seriesKeys.map(colorize),
    height: h,
    xLabel: 'evaluation length ℓ',
    xText,
    markers,
    empty: 'A curve comes as its models finish training.',
  });
  return { index, box, title, acc, loss, note, values, measured };
}

/**
 * What the demo measures and why encodings differ past L.
 * @param {number} L @param {number[]} lengths @param {number[]} seeds
 */
function introSection(L, lengths, seeds) {
  return el(
    'section',
    { class: 'apd-intro' },
    el('h2', {}, 'Train short, test long'),
    el(
      'p',
      {},
      'Each encoding below trains a causal model at length ',
      m(`L = ${L}`),
      ' and is then evaluated, unchanged, at ',
      m(`\\ell = ${lengths.join(', ')}`),
      ' (up to ',
      m('4L'),
      '). The held-out data are the same for every encoding. Past ',
      m('L'),
      ' a model meets positions and distances it never saw in training.',
    ),
    el('div', { class: 'apd-explain' }, absoluteCard(), relativeCard(), scalingCard(seeds)),
  );
}

/** Why absolute encodings end at, or fail past, L. */
function absoluteCard() {
  return el(
    'div',
    {},
    el('h4', {}, 'Absolute encodings'),
    el(
      'p',
      {},
      'A ',
      el('strong', {}, 'learned'),
      ' table ',
      m('P \\in \\mathbb{R}^{L\\times d}'),
      ' has no row for position ',
      m('L'),
      ' or beyond: the model cannot even be run there. ',
      el('strong', {}, 'Sinusoidal'),
      ' positions ',
      m('p_{t,2i} = \\sin(t/10000^{2i/d})'),
      ' exist for every ',
      m('t'),
      ', but the vectors past ',
      m('L'),
      ' are inputs the network has never seen.',
    ),
  );
}

/** What relative encodings do past L. */
function relativeCard() {
  return el(
    'div',
    {},
    el('h4', {}, 'Relative encodings'),
    el(
      'p',
      {},
      el('strong', {}, 'ALiBi'),
      ' adds ',
      m('-m_h (i-j)'),
      ' to the logits: far keys are pushed down by a bias that keeps growing the same way past ',
      m('L'),
      '; how well that carries past ',
      m('L'),
      ' is measured below. ',
      el('strong', {}, 'T5'),
      ' puts distances into buckets (logarithmic past a few); distances longer than any in training land in buckets that were never trained. ',
      el('strong', {}, 'RoPE'),
      ' rotates q and k by ',
      m('t\\,\\theta_i'),
      '; past ',
      m('L'),
      ' the slow pairs reach angles never trained.',
    ),
  );
}

/** RoPE scaled at evaluation, and what the curves average. @param {number[]} seeds */
function scalingCard(seeds) {
  return el(
    'div',
    {},
    el('h4', {}, 'Scaling RoPE at evaluation'),
    el(
      'p',
      {},
      'Position interpolation squeezes ',
      m('\\ell'),
      ' positions into the trained range (',
      m('t \\mapsto t/s'),
      ', ',
      m('s = \\ell/L'),
      '), at the price of finer steps between neighbours: without fine-tuning, distance k now looks like k/s, while copy_back needs the exact distance (the dotted curve shows what that does). NTK-aware scaling changes the base so that fast pairs (local order) stay as trained and slow pairs are interpolated; YaRN interpolates per pair by wavelength. Switch them on below: they appear as RoPE-coloured curves, dotted (PI), dashed (NTK) and dash-dotted (YaRN).',
    ),
    el(
      'p',
      { class: 'apd-small' },
      'Each curve is the mean over ',
      String(seeds.length),
      ' seeds (',
      seeds.join(', '),
      '); the table under each chart gives the lowest and highest. Curves are drawn slightly apart in ℓ so that equal ones stay visible.',
    ),
  );
}
