// build-scripts/experiments/stats.mjs — reading the sweep's CSVs and judging an experiment's
// claims (docs/experiments/<id>.json "claims") against its summary: Welch's standard error of the
// difference of two grid points' means. A claim agrees when the difference favours it by more than
// two standard errors, disagrees when it goes against it by as much, and is inside the noise
// otherwise. Plain functions, tested in tests/node/experiments.test.mjs.
import { parseCsv as readCsv, csvObjects } from '../../web/src/common/csv.js';

/**
 * A CSV (RFC 4180, with the page's limits) as rows of objects keyed by its header: the
 * experiments page's own reader.
 * @param {string} text @param {string} [name]
 * @returns {Record<string, string>[]}
 */
export const parseCsv = (text, name = 'the CSV') => csvObjects(readCsv(text, name));

/**
 * The summary rows a selector picks: every key equal (as text) to the row's column.
 * @param {Record<string, string>[]} rows @param {Record<string, string|number|boolean>} sel
 */
export const pick = (rows, sel) => rows.filter((r) => Object.entries(sel).every(([k, v]) => r[k] === String(v)));

/**
 * @param {{claims?: {text: string, better: Record<string, any>, worse: Record<string, any>}[], metric: string, lower_is_better: boolean}} def
 * @param {Record<string, string>[]} summary rows of <id>.summary.csv
 */
export function judge(def, summary) {
  const m = def.metric;
  return (def.claims ?? []).map((c) => {
    const [a, b] = [pick(summary, c.better), pick(summary, c.worse)];
    if (a.length !== 1 || b.length !== 1)
      return {
        text: c.text,
        verdict: 'not judged',
        why: `the claim picks ${a.length} and ${b.length} grid points; it must pick one each`,
      };
    const stat = (/** @type {Record<string, string>} */ r) => ({
      mean: Number(r[`${m}_mean`]),
      sd: Number(r[`${m}_sd`] || NaN),
      n: Number(r.n),
    });
    const [x, y] = [stat(a[0]), stat(b[0])];
    const diff = def.lower_is_better ? y.mean - x.mean : x.mean - y.mean; // > 0: as claimed
    const se = Math.sqrt(x.sd ** 2 / x.n + y.sd ** 2 / y.n);
    const verdict = !(x.n >= 2 && y.n >= 2 && Number.isFinite(se))
      ? 'not judged'
      : diff > 2 * se
        ? 'agrees'
        : diff < -2 * se
          ? 'disagrees'
          : 'inside the noise';
    return {
      text: c.text,
      verdict,
      better: x,
      worse: y,
      diff,
      se,
      why: verdict === 'not judged' && !Number.isFinite(diff) ? 'no result' : '',
    };
  });
}

/** One word for the whole experiment. @param {{verdict: string}[]} claims */
export function overall(claims) {
  const v = new Set(claims.map((c) => c.verdict));
  if (!claims.length || v.has('not judged')) return 'not judged';
  return v.size === 1
    ? [...v][0]
    : v.has('agrees')
      ? 'partly agrees'
      : v.has('disagrees')
        ? 'disagrees in part, otherwise inside the noise'
        : 'inside the noise';
}
