// "Your own grid": its form (task, two axes and their values, metric, seeds, steps), the grid of
// cells like the probe demo's (rows: the first axis, columns: the second; mean and spread per
// cell on a colour scale; the caption above it and the sideways scroll with its cue at 375 px),
// and its exports (CSV, PNG, link, native command line). Static DOM and drawing; grid-builder.js wires it.
import { el } from '../../panels/dom.js';
import { sequential, css } from '../../charts/colormap.js';
import { METRICS, LIMITS } from './grid-state.js';

/**
 * The builder's form and result area.
 * @param {{tasks: string[], fields: string[]}} lists
 */
export function buildGridDom({ tasks, fields }) {
  const f = formDom(tasks, fields);
  const g = gridDom();
  const x = exportDom();
  const box = el(
    'section',
    { class: 'apd-card xg', id: 'your-grid', 'aria-labelledby': 'xg-title' },
    el('h2', { id: 'xg-title' }, 'Your own grid'),
    el(
      'p',
      {},
      `Choose two settings and their values; every cell trains with seeds 1 to N (the same seed gives the same batches in every cell) on the worker pool, at most ${LIMITS.runs} runs in all. Values are comma-separated.`,
    ),
    f.form,
    g.caption,
    g.gridScroll,
    g.scrollHint,
    g.scale,
    el('div', { class: 'apd-tools' }, x.csvButton, x.pngButton, x.linkButton, x.link),
    el('p', { class: 'apd-small' }, 'The same grid natively (add --jobs 2 for both cores):'),
    el('div', { class: 'xg-command-row' }, x.command, x.copy, x.copied),
  );
  return { box, ...f, ...g, ...x };
}

/** A select of options ([value, text]). */
const select = (/** @type {string} */ cls, /** @type {string} */ label, /** @type {[string, string][]} */ options) =>
  el('select', { class: cls, 'aria-label': label }, ...options.map(([v, t]) => el('option', { value: v }, t)));

/** An axis's values: a text field. @param {string} cls @param {string} label */
const axisValues = (cls, label) => el('input', { type: 'text', class: cls, 'aria-label': label, size: 22 });

/**
 * The form: task, the two axes and their values, metric, seeds, steps, train and stop.
 * @param {string[]} tasks @param {string[]} fields
 */
function formDom(tasks, fields) {
  const fieldOptions = /** @type {[string, string][]} */ (fields.map((f) => [f, f]));
  const task = select(
    'xg-task',
    'task',
    tasks.map((t) => [t, t]),
  );
  const aField = select('xg-a', 'first axis: setting', fieldOptions);
  const bField = select('xg-b', 'second axis: setting', fieldOptions);
  const aValues = axisValues('xg-av', 'first axis: values, comma-separated');
  const bValues = axisValues('xg-bv', 'second axis: values, comma-separated');
  const metric = select(
    'xg-metric',
    'metric',
    Object.entries(METRICS).map(([k, m]) => [k, m.words]),
  );
  const { seeds, steps, train, stop, hints, error, progress } = runControls();
  const form = el(
    'form',
    { class: 'xg-form' },
    el('div', { class: 'apd-tools' }, el('label', {}, 'task ', task), el('label', {}, 'metric ', metric)),
    el('div', { class: 'apd-tools' }, el('label', {}, 'rows ', aField), el('label', {}, '= ', aValues)),
    el('div', { class: 'apd-tools' }, el('label', {}, 'columns ', bField), el('label', {}, '= ', bValues)),
    el(
      'div',
      { class: 'apd-tools' },
      el('label', {}, 'seeds ', seeds),
      el('label', {}, 'steps ', steps),
      train,
      stop,
      progress,
    ),
    hints,
    error,
  );
  return {
    form,
    task,
    aField,
    bField,
    aValues,
    bValues,
    metric,
    seeds,
    steps,
    train,
    stop,
    hints,
    error,
    progress,
  };
}

/** Seeds, steps, train and stop, the hints, the error and the progress. */
function runControls() {
  const seeds = el('input', {
    type: 'number',
    class: 'xg-seeds',
    min: 1,
    max: LIMITS.seeds,
    step: 1,
    'aria-label': 'seeds',
  });
  const steps = el('input', {
    type: 'number',
    class: 'xg-steps',
    min: 1,
    max: LIMITS.steps,
    step: 1,
    'aria-label': 'steps',
  });
  const train = el('button', { type: 'submit', class: 'primary xg-train' }, 'Train the grid');
  const stop = el('button', { type: 'button', class: 'xg-stop', hidden: true }, 'Stop');
  const hints = el('p', { class: 'apd-small xg-hints' });
  const error = el('p', {
    class: 'apd-error xg-error',
    role: 'alert',
    hidden: true,
  });
  const progress = el('output', {
    class: 'apd-small xg-progress',
    'aria-live': 'polite',
  });
  return { seeds, steps, train, stop, hints, error, progress };
}

/** The grid's table, its caption, its sideways scroll with the cue, and the colour scale. */
function gridDom() {
  const caption = el('p', { class: 'apd-grid-caption xg-caption' });
  const table = el('table', { class: 'apd-grid xg-grid' });
  const gridWrap = el(
    'div',
    {
      class: 'apd-grid-wrap',
      tabindex: '0',
      role: 'region',
      'aria-label': 'your grid (scrolls sideways when it is wider than the page)',
    },
    table,
  );
  const gridScroll = el('div', { class: 'apd-grid-scroll' }, gridWrap);
  const scrollHint = el(
    'p',
    { class: 'apd-scroll-hint', hidden: true },
    'The grid is wider than this column: scroll it sideways for more columns →',
  );
  const scale = el('div', { class: 'xg-scale apd-small' });
  return { caption, table, gridWrap, gridScroll, scrollHint, scale };
}

/** The exports: CSV, PNG, link and the native command line. */
function exportDom() {
  const csvButton = el('button', { type: 'button', class: 'xg-csv', disabled: true }, 'Download CSV');
  const pngButton = el('button', { type: 'button', class: 'xg-png', disabled: true }, 'Download PNG');
  const linkButton = el('button', { type: 'button', class: 'xg-link' }, 'Copy link');
  const link = el('a', { class: 'xg-share apd-small', href: '#' }, 'link to this grid');
  const command = el('code', { class: 'xg-command' });
  const copy = el('button', { type: 'button', class: 'xg-copy' }, 'Copy');
  const copied = el('span', {
    class: 'apd-small xg-copied',
    'aria-live': 'polite',
  });
  return { csvButton, pngButton, linkButton, link, command, copy, copied };
}

/**
 * The colour of a value on the grid's scale (better: the bright end) and the ink that reads on it.
 * @param {number} t 0..1, where 1 is the best value of the grid
 */
export function cellColors(t) {
  const rgb = sequential(0.15 + 0.85 * t);
  const lum = (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255;
  return { bg: css(rgb), ink: lum > 0.5 ? '#202124' : '#ffffff' };
}

/**
 * The grid's table: a header row of the second axis's values, a row per value of the first.
 * @param {HTMLTableElement} table
 * @param {import('./grid-state.js').GridSpec} spec
 * @returns {HTMLTableCellElement[]} the cells, row by row
 */
export function drawGridTable(table, spec) {
  /** @type {HTMLTableCellElement[]} */
  const tds = [];
  table.replaceChildren(
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { scope: 'col' }, `${spec.a.field} \\ ${spec.b.field}`),
        ...spec.b.values.map((v) => el('th', { scope: 'col' }, v)),
      ),
    ),
    el(
      'tbody',
      {},
      ...spec.a.values.map((va) =>
        el(
          'tr',
          {},
          el('th', { scope: 'row' }, va),
          ...spec.b.values.map((vb) => {
            const td = el(
              'td',
              {
                class: 'apd-cell xg-cell',
                tabindex: '0',
                dataset: { a: va, b: vb, state: 'idle' },
              },
              el('div', { class: 'apd-acc' }, '–'),
              el('div', { class: 'apd-spread' }),
              el('div', { class: 'apd-verdict' }),
            );
            tds.push(td);
            return td;
          }),
        ),
      ),
    ),
  );
  return tds;
}
