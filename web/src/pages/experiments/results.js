// The committed experiments as the page shows them: the files of docs/experiments/ (bundled at
// build time as text; tests inject their own set) grouped by experiment, each definition with its
// runs (<id>.csv), its summary (<id>.summary.csv) and its verdict (<id>.verdict.json), and the
// grid points of the runs: per point the axis values, every run's metrics, mean ± sd (from the
// summary when committed, else computed from the runs). A file that cannot be read becomes an
// error of its experiment, in words. No DOM.
import { parseCsv, csvObjects } from '../../common/csv.js';
import { parseDefinition, parseVerdict } from './definitions.js';
import { summarize } from '../../demos/seeds.js';

/** @typedef {import('./definitions.js').Definition} Definition */
/** @typedef {import('../../demos/seeds.js').Summary} Summary */
/**
 * @typedef {{seed: number|null, values: Record<string, number|null>, config: string, error: string}} Run
 * @typedef {{key: string, axes: Record<string, string>, runs: Run[], stats: Record<string, Summary|null>, n: number, failed: number}} Point
 * @typedef {{id: string, def: Definition|null, points: Point[], axes: string[], metrics: string[],
 *   verdict: import('./definitions.js').Verdict|null, engine: string, errors: string[], hasResults: boolean,
 *   curves: {budget: string, series: import('./curves-chart.js').CurveSeries[]}|null}} Experiment
 */

// docs/experiments/ from here (web/src/pages/experiments/): every definition, result and verdict.
const BUNDLED = import.meta.glob('../../../../docs/experiments/*.{json,csv}', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Columns of the per-run CSV that are not metrics (EXPERIMENTS-SPEC). */
const NOT_METRICS = ['seed', 'steps', 'weights_sha256', 'engine', 'config', 'corpus_sha256', 'error'];

/**
 * The files the page shows: file name -> text. In development, a test may inject its own set as
 * window.__experimentFiles (the build never reads it).
 * @returns {Record<string, string>}
 */
export function experimentFiles() {
  const injected = /** @type {any} */ (globalThis).__experimentFiles;
  if (import.meta.env.DEV && injected && typeof injected === 'object') return { ...injected };
  return Object.fromEntries(
    Object.entries(BUNDLED).map(([path, text]) => [path.slice(path.lastIndexOf('/') + 1), String(text)]),
  );
}

/** @param {string} s */
const num = (s) => (s === undefined || s.trim() === '' || !Number.isFinite(Number(s)) ? null : Number(s));

/**
 * The experiments of a set of files, in the order of their ids.
 * @param {Record<string, string>} files
 * @returns {Experiment[]}
 */
export function readExperiments(files) {
  const ids = Object.keys(files)
    .filter((f) => /^[a-z0-9-]+\.json$/.test(f)) // not <id>.verdict.json, <id>.registration.json
    .map((f) => f.slice(0, -5))
    .sort();
  return ids.map((id) => readOne(id, files));
}

/**
 * @param {string} id
 * @param {Record<string, string>} files
 * @returns {Experiment}
 */
function readOne(id, files) {
  /** @type {Experiment} */
  const ex = {
    id,
    def: null,
    points: [],
    axes: [],
    metrics: [],
    verdict: null,
    engine: '',
    errors: [],
    hasResults: false,
    curves: null,
  };
  const attempt = (/** @type {() => void} */ f) => {
    try {
      f();
    } catch (err) {
      ex.errors.push(/** @type {Error} */ (err).message);
    }
  };
  attempt(() => (ex.def = parseDefinition(files[`${id}.json`], id)));
  if (files[`${id}.verdict.json`] !== undefined)
    attempt(() => (ex.verdict = parseVerdict(files[`${id}.verdict.json`], id)));
  if (files[`${id}.csv`] !== undefined) attempt(() => readRuns(ex, files[`${id}.csv`]));
  if (files[`${id}.summary.csv`] !== undefined) attempt(() => readSummary(ex, files[`${id}.summary.csv`]));
  if (files[`${id}.curves.csv`] !== undefined) attempt(() => (ex.curves = readCurves(ex, files[`${id}.curves.csv`])));
  ex.hasResults = ex.points.length > 0;
  return ex;
}

/**
 * The held-out curves of the largest budget (all runs when there is no column budget): per grid
 * point, the mean eval_loss over its seeds at each step.
 * @param {Experiment} ex @param {string} text
 */
export function readCurves(ex, text) {
  const csv = parseCsv(text, `${ex.id}.curves.csv`);
  const at = csv.header.indexOf('seed');
  if (at < 1 || !csv.header.includes('step') || !csv.header.includes('eval_loss'))
    throw new Error(`${ex.id}.curves.csv: the columns run, the axes, seed, step and eval_loss are expected`);
  const axes = csv.header.slice(1, at).filter((a) => a !== 'budget');
  const rows = csvObjects(csv);
  const budgets = [...new Set(rows.map((r) => r.budget ?? ''))].sort((a, b) => Number(a) - Number(b));
  const budget = budgets[budgets.length - 1];
  /** @type {Map<string, Map<number, number[]>>} */
  const lines = new Map();
  for (const r of rows) {
    if ((r.budget ?? '') !== budget) continue;
    const step = num(r.step);
    const v = num(r.eval_loss);
    if (step === null || v === null) continue;
    const label =
      axes
        .map((a) => r[a])
        .filter((x) => x !== '')
        .join(' · ') || 'all';
    if (!lines.has(label)) lines.set(label, new Map());
    const at = /** @type {Map<number, number[]>} */ (lines.get(label));
    at.set(step, [...(at.get(step) ?? []), v]);
  }
  const series = [...lines].map(([label, at]) => ({
    label,
    points: /** @type {[number, number][]} */ (
      [...at].sort((a, b) => a[0] - b[0]).map(([step, vs]) => [step, vs.reduce((x, y) => x + y, 0) / vs.length])
    ),
  }));
  return { budget, series };
}

/**
 * @param {Experiment} ex
 * @param {string[]} axes
 * @param {Record<string, string>} row
 */
function pointOf(ex, axes, row) {
  const values = Object.fromEntries(axes.map((a) => [a, row[a]]));
  const key = JSON.stringify(axes.map((a) => row[a]));
  let p = ex.points.find((q) => q.key === key);
  if (!p) ex.points.push((p = { key, axes: values, runs: [], stats: {}, n: 0, failed: 0 }));
  return p;
}

/** @param {Experiment} ex @param {string} text */
function readRuns(ex, text) {
  const csv = parseCsv(text, `${ex.id}.csv`);
  const at = csv.header.indexOf('seed');
  if (at < 0 || !csv.header.includes('config') || !csv.header.includes('error'))
    throw new Error(`${ex.id}.csv: the columns seed, config and error are missing (see the spec's per-run CSV)`);
  ex.axes = csv.header.slice(0, at);
  ex.metrics = csv.header.slice(at).filter((c) => !NOT_METRICS.includes(c));
  for (const row of csvObjects(csv)) {
    const p = pointOf(ex, ex.axes, row);
    ex.engine ||= row.engine ?? '';
    if (row.error) p.failed++;
    p.runs.push({
      seed: num(row.seed),
      values: Object.fromEntries(ex.metrics.map((m) => [m, row.error ? null : num(row[m])])),
      config: row.config,
      error: row.error,
    });
  }
  for (const p of ex.points) {
    p.n = p.runs.filter((r) => !r.error).length;
    for (const m of ex.metrics) p.stats[m] = summarize(p.runs.map((r) => r.values[m]));
  }
}

/** The summary's mean, sd, min and max per grid point take the place of the ones computed from the runs. @param {Experiment} ex @param {string} text */
function readSummary(ex, text) {
  const csv = parseCsv(text, `${ex.id}.summary.csv`);
  const at = csv.header.indexOf('n');
  if (at < 0) throw new Error(`${ex.id}.summary.csv: the column n is missing (see the spec's summary CSV)`);
  const axes = csv.header.slice(0, at);
  if (ex.axes.length && axes.join() !== ex.axes.join())
    throw new Error(`${ex.id}.summary.csv: its axes (${axes.join(', ')}) are not the runs' (${ex.axes.join(', ')})`);
  ex.axes = axes;
  const metrics = csv.header.filter((c) => c.endsWith('_mean')).map((c) => c.slice(0, -5));
  if (!ex.metrics.length) ex.metrics = metrics;
  for (const row of csvObjects(csv)) {
    const p = pointOf(ex, axes, row);
    p.n = num(row.n) ?? p.n;
    for (const m of metrics) {
      const mean = num(row[`${m}_mean`]);
      p.stats[m] =
        mean === null
          ? null
          : {
              n: p.n,
              mean,
              sd: num(row[`${m}_sd`]) ?? NaN,
              min: num(row[`${m}_min`]) ?? mean,
              max: num(row[`${m}_max`]) ?? mean,
            };
    }
  }
}

/**
 * The table's other columns: the definition's `columns` (else a few common metrics) beside the
 * headline, those with values.
 * @param {Experiment} ex
 */
export function otherMetrics(ex) {
  const prefer = ex.def?.columns.length
    ? ex.def.columns
    : ['eval_bpc', 'eval_loss', 'eval_accuracy', 'steps_per_s', 'peak_memory_bytes'];
  return prefer
    .filter((m) => m !== ex.def?.metric && ex.metrics.includes(m) && ex.points.some((p) => p.stats[m]))
    .slice(0, 4);
}
