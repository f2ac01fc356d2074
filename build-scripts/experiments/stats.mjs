// build-scripts/experiments/stats.mjs — reading the sweep's CSVs and judging an experiment's
// claims (docs/experiments/<id>.json "claims"). The rule: Welch's t-test with the
// Welch–Satterthwaite degrees of freedom, two-sided, α = 0.05, on the headline metric of the two
// grid points a claim names; where both sides are the same trained model per seed (the
// extrapolation experiments score one model per seed at every scaling: equal weights_sha256),
// a paired t-test across seeds instead, counting models, not rows. A claim agrees when p < α and
// the difference favours it, disagrees when p < α against it, and is inside the noise otherwise.
// It is not judged when either side has fewer than 3 runs, or an sd of 0 with fewer than 5; with
// fewer than 5 seeds its verdict says it is provisional. Every claim carries the 95% confidence
// interval of the difference, and whether its runs were still learning (convergence.mjs).
// Plain functions, tested in tests/node/experiments.test.mjs and experiments-stats.test.mjs.
import { parseCsv as readCsv, csvObjects } from '../../web/src/common/csv.js';
import { tTwoSided, tQuantile } from './tdist.mjs';
import { convergenceOf } from './convergence.mjs';

/** The significance level and the seeds the rule asks for. */
export const ALPHA = 0.05;
export const MIN_SEEDS = 5;

/**
 * A CSV (RFC 4180, with the page's limits) as rows of objects keyed by its header: the
 * experiments page's own reader.
 * @param {string} text @param {string} [name]
 * @returns {Record<string, string>[]}
 */
export const parseCsv = (text, name = 'the CSV') => csvObjects(readCsv(text, name));

/**
 * The rows a selector picks: every key equal (as text) to the row's column.
 * @param {Record<string, string>[]} rows @param {Record<string, string|number|boolean>} sel
 */
export const pick = (rows, sel) => rows.filter((r) => Object.entries(sel).every(([k, v]) => r[k] === String(v)));

/** Mean, sample sd and n of numbers. @param {number[]} xs */
export function describe(xs) {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : NaN;
  return { mean, sd, n };
}

/**
 * Welch's t-test of x against y from their summaries: the difference x − y, its standard error,
 * the Welch–Satterthwaite df, t, the two-sided p and the 95% confidence interval.
 * @param {{mean: number, sd: number, n: number}} x @param {{mean: number, sd: number, n: number}} y
 */
export function welch(x, y) {
  const [vx, vy] = [x.sd ** 2 / x.n, y.sd ** 2 / y.n];
  const se = Math.sqrt(vx + vy);
  const df = (vx + vy) ** 2 / (vx ** 2 / (x.n - 1) + vy ** 2 / (y.n - 1));
  return test(x.mean - y.mean, se, df);
}

/** The paired t-test of per-seed differences. @param {number[]} d */
export function paired(d) {
  const s = describe(d);
  return { ...test(s.mean, s.sd / Math.sqrt(s.n), s.n - 1), sdDiff: s.sd };
}

/** @param {number} diff @param {number} se @param {number} df */
function test(diff, se, df) {
  const t = diff / se;
  const half = tQuantile(1 - ALPHA / 2, df) * se;
  return {
    diff,
    se,
    df,
    t,
    p: tTwoSided(t, df),
    ci: [diff - half, diff + half],
  };
}

/**
 * Per seed, the metric of one side's runs (rows without error and with a value).
 * @param {Record<string, string>[]} runs @param {string} m
 */
const bySeed = (runs, m) =>
  new Map(runs.filter((r) => !r.error && r[m] !== '' && Number.isFinite(Number(r[m]))).map((r) => [r.seed, r]));

/**
 * Whether the two sides are the same trained model per seed (a paired design).
 * @param {Map<string, Record<string, string>>} a @param {Map<string, Record<string, string>>} b
 */
function samesModels(a, b) {
  if (a.size !== b.size || !a.size) return false;
  for (const [seed, r] of a) if (!r.weights_sha256 || b.get(seed)?.weights_sha256 !== r.weights_sha256) return false;
  return true;
}

/**
 * Each claim's verdict. With the per-run rows, the test uses them (and pairs sides that are the
 * same models); without, the summary's mean, sd and n (Welch). A definition with "budgets" trains
 * every grid point at each budget (the column "budget"): the claim is judged at each, and carries
 * them all in `budgets` (its own numbers are the largest budget's). The verdict word here comes
 * from p; settle() gives the final one from q once addQ (summary-table.mjs) has set it.
 * @param {{claims?: {text: string, better: Record<string, any>, worse: Record<string, any>, provenance?: any}[], metric: string, lower_is_better: boolean, budgets?: number[]}} def
 * @param {Record<string, string>[]} summary rows of <id>.summary.csv
 * @param {Record<string, string>[]} [runs] rows of <id>.csv
 */
export function judge(def, summary, runs) {
  const budgets = def.budgets?.length ? def.budgets : [null];
  return (def.claims ?? []).map((c) => {
    // A budget that neither side of the claim has run yet (a partial result) is left out.
    const ran = budgets.filter(
      (b) =>
        b === null ||
        (pick(summary, { ...c.better, budget: b }).length && pick(summary, { ...c.worse, budget: b }).length),
    );
    const at = (ran.length ? ran : budgets).map((b) => {
      const sel =
        b === null
          ? c
          : {
              ...c,
              better: { ...c.better, budget: b },
              worse: { ...c.worse, budget: b },
            };
      return { budget: b, ...judgeOne(def, sel, summary, runs) };
    });
    return {
      ...at[at.length - 1],
      text: c.text,
      provenance: c.provenance ?? null,
      budgets: at,
    };
  });
}

/** How many budgets, each twice the last, a verdict must hold at to be stable. */
export const STABLE_BUDGETS = 3;

/**
 * The final verdicts, from q (Benjamini–Hochberg over every test of every experiment): at each
 * budget, agrees when q < α and the difference favours the claim, disagrees when q < α against
 * it, inside the noise otherwise; the claim's verdict is its largest budget's. A claim is stable
 * when it was judged at STABLE_BUDGETS budgets or more and the largest STABLE_BUDGETS gave the same word;
 * otherwise provisional, with the reason in `stability`. In place.
 * @param {any[]} claims judged claims with q set on each budget
 */
export function settle(claims) {
  for (const c of claims) {
    for (const b of c.budgets ?? [c]) {
      if (b.verdict === 'not judged' || !Number.isFinite(b.q)) continue; // the exact rule has no q
      b.verdict = wordOf(b, b.q);
    }
    const at = c.budgets ?? [c];
    if (at.some((/** @type {any} */ b) => b.occasion)) {
      settleOccasions(c, at);
      continue;
    }
    const last = at[at.length - 1];
    c.verdict = last.verdict;
    c.q = last.q;
    // Stable is judged over the largest STABLE_BUDGETS budgets: a verdict that moved at the
    // smaller ones and then held through three doublings has stopped moving.
    const lastOnes = at.slice(-STABLE_BUDGETS);
    const words = new Set(lastOnes.map((/** @type {any} */ b) => b.verdict));
    const budgets = lastOnes
      .filter((/** @type {any} */ b) => b.budget !== null)
      .map((/** @type {any} */ b) => b.budget);
    c.stable = c.verdict !== 'not judged' && at.length >= STABLE_BUDGETS && words.size === 1;
    c.stability =
      c.verdict === 'not judged'
        ? ''
        : c.stable
          ? `stable: the same at ${budgets.join(', ')} steps`
          : at.length < STABLE_BUDGETS
            ? `provisional: judged at ${budgets.length ? `${budgets.join(', ')} steps` : 'one budget'}; stable needs ${STABLE_BUDGETS} budgets, each twice the last`
            : `provisional: ${at.map((/** @type {any} */ b) => `${b.verdict} at ${b.budget}`).join(', ')}`;
  }
}

/**
 * A claim judged on two separate occasions (timing): each occasion's word is its largest budget's;
 * the same word on both is the verdict and counts as stable (replicated), different words are
 * "undecided". With one occasion so far the verdict is provisional. The claim's own numbers stay
 * the first occasion's. In place.
 * @param {any} c @param {any[]} at its tests, each with `occasion` 1 or 2
 */
function settleOccasions(c, at) {
  const ends = [1, 2]
    .map((o) => at.filter((b) => b.occasion === o))
    .filter((x) => x.length)
    .map((x) => x[x.length - 1]);
  const numbers = (/** @type {any} */ b) =>
    b.verdict === 'not judged' ? '' : ` (difference ${b.diff.toPrecision(3)}, q ${b.q.toPrecision(2)})`;
  c.q = ends[0].q;
  if (ends.length < 2) {
    c.verdict = ends[0].verdict;
    c.stable = false;
    c.stability =
      c.verdict === 'not judged' ? '' : 'provisional: judged on one occasion; a timing claim is judged on two';
    return;
  }
  const same = ends[0].verdict === ends[1].verdict;
  c.verdict = same ? ends[0].verdict : 'undecided';
  c.stable = same && c.verdict !== 'not judged';
  c.stability = same
    ? c.verdict === 'not judged'
      ? ''
      : `replicated: ${c.verdict} on both occasions${numbers(ends[0])}${numbers(ends[1])}`
    : `undecided: ${ends[0].verdict} on the first occasion${numbers(ends[0])}, ${ends[1].verdict} on the second${numbers(ends[1])}`;
}

/**
 * @param {any} def @param {{text: string, better: Record<string, any>, worse: Record<string, any>, metric?: string, rule?: any}} c
 * @param {Record<string, string>[]} summary @param {Record<string, string>[]} [runs]
 */
function judgeOne(def, c, summary, runs) {
  if (c.rule?.kind === 'exact') return judgeExact(c, runs);
  const m = c.metric ?? def.metric; // a claim may be judged on another column (PI's 2× fine-tune length)
  const [a, b] = [pick(summary, c.better), pick(summary, c.worse)];
  if (a.length !== 1 || b.length !== 1)
    return notJudged(c, `the claim picks ${a.length} and ${b.length} grid points; it must pick one each`);
  const sign = def.lower_is_better ? -1 : 1; // the difference as claimed, > 0 in the claim's favour
  const stat = (/** @type {Record<string, string>} */ r) => ({
    mean: Number(r[`${m}_mean`]),
    sd: Number(r[`${m}_sd`] || NaN),
    n: Number(r.n),
  });
  let [x, y] = [stat(a[0]), stat(b[0])];
  let design = 'welch';
  let result;
  const sides = runs ? [bySeed(pick(runs, c.better), m), bySeed(pick(runs, c.worse), m)] : null;
  if (sides) [x, y] = sides.map((s) => describe([...s.values()].map((r) => Number(r[m]))));
  if (sides && samesModels(sides[0], sides[1])) {
    design = 'paired';
    const d = [...sides[0]].map(([seed, r]) => sign * (Number(r[m]) - Number(sides[1].get(seed)?.[m])));
    result = paired(d);
  } else {
    const w = welch(x, y);
    result = {
      ...w,
      diff: sign * w.diff,
      ci: sign > 0 ? w.ci : [-w.ci[1], -w.ci[0]],
    };
  }
  if (c.rule?.kind === 'equivalence') result = equivalence(result, c.rule.margin * Math.abs(y.mean));
  const n = Math.min(x.n, y.n);
  const zeroSd = design === 'paired' ? result.sdDiff === 0 : x.sd === 0 || y.sd === 0;
  const base = { text: c.text, design, better: x, worse: y, n, ...result };
  const converged = runs ? convergenceOf([...pick(runs, c.better), ...pick(runs, c.worse)]) : null;
  const notes = [];
  if (design === 'paired')
    notes.push(`paired across ${n} seeds: both sides are the same ${n} trained models, scored two ways`);
  if (converged?.falling) notes.push(converged.words);
  if (n < 3)
    return {
      ...base,
      verdict: 'not judged',
      why: `${n} run${n === 1 ? '' : 's'} on a side; at least 3`,
      notes,
    };
  if (zeroSd && n < MIN_SEEDS)
    return {
      ...base,
      verdict: 'not judged',
      why: `an sd of 0 with ${n} runs; at least ${MIN_SEEDS}`,
      notes,
    };
  if (!Number.isFinite(result.p)) return { ...base, verdict: 'not judged', why: 'no result', notes };
  if (n < MIN_SEEDS) notes.push(`provisional: ${n} seeds, fewer than the ${MIN_SEEDS} the rule asks`);
  const verdict = wordOf(
    {
      ...result,
      design: c.rule?.kind === 'equivalence' ? 'equivalence' : design,
    },
    result.p,
  );
  if (c.rule?.kind === 'equivalence') base.design = 'equivalence';
  return { ...base, verdict, why: '', notes };
}

/**
 * The verdict word from a significance level (p, or q once adjusted): for a difference claim,
 * agrees or disagrees by the sign when it is under α; for an equivalence claim, agrees when the
 * two one-sided tests show the difference inside ±margin, disagrees when the 95% interval lies
 * wholly outside it.
 * @param {any} r @param {number} level
 */
export function wordOf(r, level) {
  if (r.design === 'equivalence') return level < ALPHA ? 'agrees' : r.outside ? 'disagrees' : 'inside the noise';
  return level >= ALPHA ? 'inside the noise' : r.diff > 0 ? 'agrees' : 'disagrees';
}

/** P(T > t) for Student's t with df degrees of freedom. @param {number} t @param {number} df */
const upperTail = (t, df) => (t >= 0 ? tTwoSided(t, df) / 2 : 1 - tTwoSided(t, df) / 2);

/**
 * Two one-sided tests (TOST) that the difference lies inside ±margin: p = the larger of
 * P(T > (d + margin)/se) and P(T < (d − margin)/se). `outside`: the 95% interval excludes the
 * whole of [−margin, margin].
 * @param {any} r a difference test's result (diff, se, df, ci) @param {number} margin
 */
export function equivalence(r, margin) {
  const p = Math.max(upperTail((r.diff + margin) / r.se, r.df), upperTail(-(r.diff - margin) / r.se, r.df));
  return { ...r, p, margin, outside: r.ci[0] > margin || r.ci[1] < -margin };
}

/**
 * A claim settled by a proof (the probe: a row-stochastic model sits at chance exactly), judged
 * by the rule it tests: the better side reaches `better` on every seed and the worse side is at
 * `worse` on every seed (agrees), the reverse (disagrees), or neither (inside the noise). No p:
 * a t-test on a variance of 1e-5 against one of 0 says nothing; it takes no part in the
 * Benjamini–Hochberg adjustment.
 * @param {any} c @param {Record<string, string>[]} [runs]
 */
function judgeExact(c, runs) {
  const { metric, better, worse } = c.rule;
  if (!runs) return notJudged(c, 'the exact rule needs the per-run rows');
  const vals = (/** @type {any} */ sel) =>
    pick(runs, sel)
      .filter((r) => !r.error && r[metric] !== '')
      .map((r) => Number(r[metric]));
  const [a, b] = [vals(c.better), vals(c.worse)];
  const n = Math.min(a.length, b.length);
  const all = (/** @type {number[]} */ xs, /** @type {number} */ v) =>
    xs.length > 0 && xs.every((x) => Math.abs(x - v) <= 1e-9);
  const base = {
    text: c.text,
    design: 'exact',
    better: describe(a),
    worse: describe(b),
    n,
    diff: describe(a).mean - describe(b).mean,
    ci: [Math.min(...a) - Math.max(...b), Math.max(...a) - Math.min(...b)],
    p: NaN,
    df: NaN,
    notes: [`exact rule on ${metric}: ${better} on every seed against ${worse} on every seed`],
  };
  if (n < 3)
    return {
      ...base,
      verdict: 'not judged',
      why: `${n} runs on a side; at least 3`,
    };
  const verdict =
    all(a, better) && all(b, worse) ? 'agrees' : all(a, worse) && all(b, better) ? 'disagrees' : 'inside the noise';
  return { ...base, verdict, why: '' };
}

/** @param {{text: string}} c @param {string} why */
const notJudged = (c, why) => ({
  text: c.text,
  verdict: 'not judged',
  why,
  notes: [],
});

/** One phrase for the whole experiment. @param {{verdict: string}[]} claims */
export function overall(claims) {
  const judged = claims.filter((c) => c.verdict !== 'not judged');
  if (!judged.length) return 'not judged';
  const v = new Set(judged.map((c) => c.verdict));
  const word =
    v.size === 1
      ? [...v][0]
      : v.has('agrees')
        ? v.has('disagrees')
          ? 'agrees in part, disagrees in part'
          : 'partly agrees'
        : v.has('disagrees')
          ? 'disagrees in part, otherwise inside the noise'
          : 'inside the noise';
  return judged.length < claims.length ? `${word}, some claims not judged` : word;
}
