// One committed experiment on the page: its title, source, claim and verdict (all as text), the
// table of its grid points (the headline metric and a few others as mean ± sd over the seeds, n),
// the chart of the headline metric with its spread, and per row "Re-run in this tab": the row's
// config from the CSV, with the definition's `browser` overrides (said above the table), trained
// on the worker pool; the learner's result lands in the table and on the chart as a diamond.
import { el } from '../../panels/dom.js';
import { SpreadChart } from './spread-chart.js';
import { CurvesChart, CURVE_COLORS } from './curves-chart.js';
import { otherMetrics } from './results.js';
import { parseConfig } from './definitions.js';
import { trainAndMeasure } from './train.js';
import { fmt, meanSd, metricWords } from './format.js';

/** @typedef {import('./results.js').Experiment} Experiment */
/** @typedef {import('./results.js').Point} Point */

/**
 * The section of one experiment.
 * @param {Experiment} ex
 * @param {{pool: () => Promise<import('../../client/pool.js').WorkerPool>}} deps pool: the page's
 *   worker pool (started on first use)
 * @returns {HTMLElement}
 */
export function experimentView(ex, { pool }) {
  const def = ex.def;
  const box = el(
    'section',
    { class: 'apd-card xp-experiment', id: `x-${ex.id}`, dataset: { id: ex.id, results: String(ex.hasResults) } },
    ...headerOf(ex),
    verdictLine(ex),
    claimsTable(ex),
    ex.verdict?.convergence
      ? el('p', { class: 'apd-small xp-convergence' }, `Convergence: ${ex.verdict.convergence}.`)
      : null,
    ...ex.errors.map((e) => el('p', { class: 'apd-error', role: 'alert' }, e)),
  );
  if (!def) return box;
  if (!ex.hasResults) {
    box.append(
      el(
        'p',
        { class: 'apd-note xp-empty' },
        'No results committed yet: this experiment is defined, but its runs have not been made. ',
        el('code', {}, 'npm run experiments'),
        ' makes them (natively, on both cores).',
      ),
    );
    return box;
  }
  resultsView(box, ex, def, pool);
  return box;
}

/**
 * What an experiment is before its numbers: title, source, setting, the claim, the notes, each
 * claim with its provenance, and the claims' registration.
 * @param {Experiment} ex
 */
function headerOf(ex) {
  const def = ex.def;
  return [
    el('h2', {}, def?.title ?? ex.id),
    def && el('p', { class: 'apd-small' }, `Source: ${def.source} · id ${ex.id} · ${def.seeds} seeds per grid point`),
    def &&
      el(
        'p',
        { class: 'apd-small xp-setting', dataset: { setting: def.setting ? 'seed' : 'ours' } },
        el('strong', {}, 'Setting: '),
        def.setting ||
          'ours: a causal character language model (causal mask, next-character prediction, every position scored)',
        def.budgets.length ? ` · trained at ${def.budgets.join(', ')} steps` : '',
      ),
    def && el('p', { class: 'xp-claim' }, el('strong', {}, 'The claim: '), def.claim),
    def?.notes ? el('p', { class: 'apd-small xp-notes' }, el('strong', {}, 'Read this with it: '), def.notes) : null,
    def?.claims.length
      ? el(
          'ul',
          { class: 'apd-small xp-claims', 'aria-label': 'the claims judged' },
          ...def.claims.map((c) =>
            el(
              'li',
              { dataset: { provenance: c.provenance?.kind ?? '' } },
              c.text,
              ' — ',
              provenanceText(c.provenance),
            ),
          ),
        )
      : null,
    registrationLine(ex),
  ];
}

/**
 * The results: the table of grid points with their re-run buttons, and the chart.
 * @param {HTMLElement} box @param {Experiment} ex
 * @param {import('./definitions.js').Definition} def
 * @param {() => Promise<import('../../client/pool.js').WorkerPool>} pool
 */
function resultsView(box, ex, def, pool) {
  const metric = def.metric;
  const others = otherMetrics(ex);
  /** @type {Map<string, number[]>} grid point -> the learner's values of the headline metric */
  const mine = new Map();
  const chartBox = el('div', { class: 'xp-chart' });
  const chart = new SpreadChart(chartBox, {
    label: `${def.title}: ${metric} per grid point, mean ± sd, with every seed`,
    metric,
  });
  const redraw = () =>
    chart.set(
      ex.points.map((p) => ({
        label: labelOf(p),
        mean: p.stats[metric]?.mean ?? null,
        sd: p.stats[metric]?.sd ?? null,
        seeds: p.runs
          .map((r) => r.values[metric])
          .filter((v) => v !== null && v !== undefined && Number.isFinite(v))
          .map(Number),
        mine: mine.get(p.key) ?? [],
      })),
    );
  const head = [...ex.axes, metric, ...others, 'n', 'yours', ''].map((h) => el('th', { scope: 'col' }, h));
  box.append(
    el(
      'p',
      { class: 'apd-small' },
      `Headline: ${metricWords(metric)} (${def.lower_is_better ? 'lower' : 'higher'} is better), mean ± sd over the seeds; n: runs without error. ${ex.engine ? `Engine: ${ex.engine}.` : ''}`,
    ),
    el('p', { class: 'apd-small xp-browser' }, browserWords(def)),
    el(
      'div',
      {
        class: 'xp-table-wrap',
        tabindex: '0',
        role: 'region',
        'aria-label': `${def.title}: results table`,
      },
      el(
        'table',
        { class: 'apd-table xp-table' },
        el('thead', {}, el('tr', {}, ...head)),
        el('tbody', {}, ...ex.points.map((p) => pointRow(p, { ex, pool, metric, others, mine, redraw }))),
      ),
    ),
    chartBox,
    el(
      'p',
      { class: 'apd-small' },
      `Chart: ${metricWords(metric)} per grid point: bar at the mean, whiskers ± sd, a dot per committed seed; ◇ your runs in this tab.`,
    ),
    ...curvesView(ex),
  );
  redraw();
}

/** The held-out curves, when the experiment kept them (<id>.curves.csv). @param {Experiment} ex */
function curvesView(ex) {
  if (!ex.curves?.series.length) return [];
  const { budget, series } = ex.curves;
  const box = el('div', { class: 'xp-chart xp-curves' });
  new CurvesChart(box, { label: `${ex.def?.title ?? ex.id}: held-out loss against the step` }).set(series);
  return [
    el('h3', {}, 'Held-out loss during training'),
    box,
    el(
      'ul',
      { class: 'apd-small xp-curves-legend', 'aria-label': 'the curves' },
      ...series.map((s, i) =>
        el(
          'li',
          {},
          el('span', { class: 'xp-swatch', style: { background: CURVE_COLORS[i % CURVE_COLORS.length] } }),
          s.label,
        ),
      ),
    ),
    el(
      'p',
      { class: 'apd-small' },
      `Held-out loss (nats) against the step, the mean over the seeds${budget ? `, for the runs of ${budget} steps (the largest budget)` : ''}: lines that still fall were not converged; lines that cross would give another verdict at another budget.`,
    ),
  ];
}

/** @type {Record<string, string>} */
const TESTS = {
  paired: 'paired t',
  welch: 'Welch t',
  equivalence: 'two one-sided t (TOST)',
};

/**
 * A claim's tests, one per budget (or per occasion, for a timing claim): "2000: agrees (q 0.01)".
 * @param {import('./definitions.js').VerdictClaim} c @param {(x: number|null) => string} pv
 */
function budgetCell(c, pv) {
  const at = (/** @type {import('./definitions.js').VerdictClaim['budgets'][number]} */ b) =>
    b.occasion ? `occasion ${b.occasion}` : b.budget;
  return c.budgets.map((b) => `${at(b)}: ${b.verdict}${b.q === null ? '' : ` (q ${pv(b.q)})`}`).join('; ') || '–';
}

/**
 * The judged claims: difference with its 95% confidence interval, the test, p and the
 * Benjamini–Hochberg q, and the verdict; nothing when the verdict file has no claims.
 * @param {Experiment} ex
 */
function claimsTable(ex) {
  const claims = ex.verdict?.claims ?? [];
  if (!claims.length) return null;
  const num = (/** @type {number|null} */ x) => (x === null ? '–' : Number(x.toPrecision(3)).toString());
  const pv = (/** @type {number|null} */ x) => (x === null ? '–' : x < 1e-4 ? '< 0.0001' : x.toPrecision(2));
  const rows = claims.map((c) =>
    el(
      'tr',
      { dataset: { verdict: c.verdict } },
      el('th', { scope: 'row' }, c.text),
      el('td', {}, c.diff === null ? '–' : `${num(c.diff)} [${num(c.ci[0])}, ${num(c.ci[1])}]`),
      el(
        'td',
        {},
        c.design === 'exact'
          ? 'exact rule, every seed'
          : c.df === null
            ? '–'
            : `${TESTS[c.design] ?? 'Welch t'}, df ${c.df.toFixed(1)}`,
      ),
      el('td', { class: 'xp-p' }, pv(c.p)),
      el('td', { class: 'xp-q' }, pv(c.q)),
      el('td', { class: 'xp-budgets' }, budgetCell(c, pv)),
      el(
        'td',
        { class: 'xp-claim-verdict', dataset: { stable: String(c.stable) } },
        [c.verdict, c.stability || (c.stable ? 'stable' : 'provisional'), c.why, ...c.notes].filter(Boolean).join('; '),
      ),
    ),
  );
  const head = ['claim', 'difference [95% CI]', 'test', 'p', 'q (BH)', 'at each budget', 'verdict'].map((h) =>
    el('th', { scope: 'col' }, h),
  );
  return el(
    'div',
    {
      class: 'xp-table-wrap',
      tabindex: '0',
      role: 'region',
      'aria-label': 'the claims: tests and verdicts',
    },
    el(
      'table',
      { class: 'apd-table xp-claims-table' },
      el(
        'caption',
        { class: 'apd-small' },
        'Two-sided t-tests (difference > 0: as claimed); q: Benjamini–Hochberg over every test of every experiment (each claim at each budget); the verdict comes from q < 0.05. Stable: the same verdict at three budgets, each twice the last; provisional otherwise.',
      ),
      el('thead', {}, el('tr', {}, ...head)),
      el('tbody', {}, ...rows),
    ),
  );
}

/**
 * One grid point's row, with its "Re-run in this tab" button.
 * @param {Point} p
 * @param {{ex: Experiment, pool: () => Promise<import('../../client/pool.js').WorkerPool>, metric: string, others: string[],
 *   mine: Map<string, number[]>, redraw: () => void}} ctx the experiment, its headline and other metrics, the learner's values
 */
function pointRow(p, { ex, pool, metric, others, mine, redraw }) {
  const def = /** @type {NonNullable<Experiment['def']>} */ (ex.def);
  const yours = el('td', { class: 'xp-yours' }, '–');
  const status = el('span', {
    class: 'apd-small xp-status',
    'aria-live': 'polite',
  });
  // A fine-tuned point's config is the fine-tune's (train, then train --resume): it re-runs natively only.
  const tuned = p.axes.fine_tune === 'true';
  const source = tuned ? undefined : p.runs.find((r) => !r.error && r.config);
  const button = el('button', { type: 'button', class: 'xp-rerun', disabled: !source }, 'Re-run in this tab');
  if (tuned) status.textContent = ' fine-tuned after training: re-run it natively (attnplay sweep)';
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const cfg = {
        ...parseConfig(/** @type {string} */ (source?.config), `${ex.id}.csv config`),
        ...def?.browser,
      };
      status.textContent = ' starting…';
      const steps = Number(cfg.steps);
      const { values } = await trainAndMeasure(await pool(), cfg, {
        evalAt: def?.eval_at ?? [],
        onStep: (s) => (status.textContent = ` step ${s} of ${steps}`),
      });
      const v = values[metric];
      if (v === null || v === undefined) throw new Error(`${metric} is not measured in the browser`);
      mine.set(p.key, [...(mine.get(p.key) ?? []), v]);
      yours.textContent = (mine.get(p.key) ?? []).map((x) => fmt(metric, x)).join(', ');
      tr.dataset.mine = String(v);
      status.textContent = '';
      redraw();
    } catch (err) {
      status.textContent = ` ${/** @type {Error} */ (err).message}`;
      tr.dataset.error = 'true';
    } finally {
      button.disabled = false;
    }
  });
  const tr = el(
    'tr',
    { dataset: { point: p.key } },
    ...ex.axes.map((a) => el('th', { scope: 'row' }, p.axes[a])),
    el('td', { class: 'xp-headline' }, meanSd(metric, p.stats[metric])),
    ...others.map((m) => el('td', {}, meanSd(m, p.stats[m]))),
    el('td', {}, `${p.n}${p.failed ? ` (${p.failed} failed)` : ''}`),
    yours,
    el('td', {}, button, status),
  );
  return tr;
}

/** A grid point's name: its axis values. @param {Point} p */
const labelOf = (p) =>
  Object.values(p.axes)
    .filter((v) => v !== '')
    .join(' · ');

/** The verdict as the report gives it, or that there is none yet. @param {Experiment} ex */
function verdictLine(ex) {
  if (!ex.verdict)
    return el('p', { class: 'apd-small xp-verdict', dataset: { verdict: '' } }, 'Verdict: none written yet.');
  const v = ex.verdict;
  const cost =
    v.minutes !== null
      ? ` (${v.runs !== null ? `${v.runs} runs, ` : ''}${v.models !== null && v.runs !== null && v.models < v.runs ? `${v.models} trained models, ` : ''}${v.minutes.toFixed(1)} min natively)`
      : '';
  return el(
    'p',
    { class: 'xp-verdict', dataset: { verdict: v.verdict } },
    el('strong', {}, 'Verdict: '),
    el('span', { class: 'xp-verdict-word' }, v.verdict),
    v.text && !v.claims.length ? ` — ${v.text}` : '',
    cost,
  );
}

/**
 * Where a claim comes from, in words.
 * @param {import('./definitions.js').Provenance|null} p
 */
function provenanceText(p) {
  if (!p) return 'provenance not recorded';
  if (p.kind === 'seed text') return `seed text (seed ${p.seed}, line ${p.line}: “${p.quote}”)`;
  if (p.kind === 'seed figure') return `seed figure (seed ${p.seed}, line ${p.line}: ${p.what})`;
  return `our question: ${p.why}`;
}

/** When the claims were registered, and against which commit. @param {Experiment} ex */
function registrationLine(ex) {
  const r = ex.verdict?.registration;
  if (!r) return null;
  return el(
    'p',
    { class: 'apd-small xp-registration' },
    el('strong', {}, 'Registered: '),
    `${r.date}, at commit ${r.commit}`,
    r.note ? ` (${r.note})` : '',
  );
}

/**
 * What a re-run changes, in words: "Re-running a row trains it here with steps 300 instead of 600."
 * @param {import('./definitions.js').Definition} def
 */
function browserWords(def) {
  const changes = Object.entries(def.browser).map(
    ([k, v]) => `${k} ${v}${def.set[k] !== undefined ? ` instead of ${def.set[k]}` : ''}`,
  );
  const corpus = def.corpus ? ` on the bundled ${def.corpus} corpus` : '';
  return `Re-running a row trains that grid point's config (its first seed's, from the committed CSV) in this tab${corpus}, on the worker pool${changes.length ? `, with ${changes.join(', ')}` : ', unchanged'}; wall-clock rates are the browser's, not the native engine's.`;
}
