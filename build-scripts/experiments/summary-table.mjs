// build-scripts/experiments/summary-table.mjs — the claims of every experiment in one table, with
// the Benjamini–Hochberg adjusted p (q) over all of them, written into docs/experiments.md between
// its <!-- claims:begin --> and <!-- claims:end --> markers, and each experiment's best grid point
// on its headline metric: every number there comes from the committed CSVs, so none can drift.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benjaminiHochberg } from './tdist.mjs';
import { ALPHA, parseCsv, judge } from './stats.mjs';
import { convergenceOf } from './convergence.mjs';
import { fmt, fmtP, testWords } from './report.mjs';

/**
 * An experiment's results in `dir` (<id>.csv, <id>.summary.csv), judged; throws when a run failed.
 * @param {string} dir @param {string} id @param {any} def its definition
 */
export function readJudged(dir, id, def) {
  const runs = parseCsv(readFileSync(join(dir, `${id}.csv`), 'utf8'));
  const summary = parseCsv(readFileSync(join(dir, `${id}.summary.csv`), 'utf8'));
  const axes = Object.keys(summary[0] ?? {}).slice(0, Object.keys(summary[0] ?? {}).indexOf('n'));
  const failed = runs.filter((x) => x.error);
  if (failed.length) throw new Error(`experiments: ${id}: runs failed: ${failed.map((x) => x.error).join('; ')}`);
  return {
    id,
    def,
    runs: runs.length,
    models: new Set(runs.map((r) => r.weights_sha256).filter(Boolean)).size,
    summary,
    axes,
    claims: judge(def, summary, runs),
    convergence: convergenceOf(runs),
    engine: runs[0]?.engine ?? '?',
  };
}

/**
 * Sets c.q on every judged claim of every experiment (in place): BH over all their p-values.
 * @param {{claims: any[]}[]} experiments
 */
export function addQ(experiments) {
  const all = experiments.flatMap((e) => e.claims);
  const q = benjaminiHochberg(all.map((c) => (c.verdict === 'not judged' ? NaN : c.p)));
  all.forEach((c, i) => (c.q = q[i]));
}

/**
 * @param {{id: string, def: any, claims: any[], summary: Record<string, string>[], axes: string[], runs: number, models: number}[]} experiments
 */
export function summaryMarkdown(experiments) {
  const all = experiments.flatMap((e) => e.claims);
  const judged = all.filter((c) => c.verdict !== 'not judged');
  const held = judged.filter((c) => c.q < ALPHA);
  const lines = [
    `${judged.length} of ${all.length} claims judged; at a false-discovery rate of ${ALPHA} (Benjamini–Hochberg over all ${judged.length}), ${held.length} differences are significant (q < ${ALPHA}).`,
    '',
    '| experiment | claim | better | worse | n | difference [95% CI] | test | p | q | verdict |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const e of experiments)
    for (const c of e.claims)
      lines.push(
        c.better && Number.isFinite(c.diff)
          ? `| [${e.id}](experiments/${e.id}.md) | ${c.text} | ${fmt(c.better.mean)} ± ${fmt(c.better.sd)} | ${fmt(c.worse.mean)} ± ${fmt(c.worse.sd)} | ${c.n} | ${fmt(c.diff)} [${fmt(c.ci[0])}, ${fmt(c.ci[1])}] | ${testWords(c)} | ${fmtP(c.p)} | ${fmtP(c.q)} | **${c.verdict}**${c.why ? `: ${c.why}` : ''}${c.n < 5 ? ' (provisional: n < 5)' : ''} |`
          : `| [${e.id}](experiments/${e.id}.md) | ${c.text} | | | | | | | | **${c.verdict}**: ${c.why} |`,
      );
  lines.push('', '| experiment | headline metric | best grid point | runs (trained models) |', '|---|---|---|---|');
  for (const e of experiments) {
    const b = best(e);
    lines.push(
      `| ${e.id} | \`${e.def.metric}\` (${e.def.lower_is_better ? 'lower' : 'higher'} is better) | ${b ? `${b.name}: ${fmt(b.mean)} ± ${fmt(b.sd)}` : '–'} | ${e.runs}${e.models && e.models < e.runs ? ` (${e.models})` : ''} |`,
    );
  }
  lines.push('', ...seedsWords(experiments));
  return lines.join('\n');
}

/**
 * Each experiment's claim as its seed makes it (the definition's `claim`: the seed's words, quoted
 * or closely paraphrased), next to the verdicts of the claims judged on it.
 * @param {{id: string, def: any, claims: any[]}[]} experiments
 */
function seedsWords(experiments) {
  const lines = ['**What each seed says, next to our verdicts.**', ''];
  for (const e of experiments) {
    const verdicts = e.claims.map(
      (c) =>
        `${c.text}: **${c.verdict}**${Number.isFinite(c.p) ? ` (p ${fmtP(c.p)}, q ${fmtP(c.q)})` : ''}${c.n < 5 ? ' (provisional: n < 5)' : ''}`,
    );
    lines.push(
      `- [${e.id}](experiments/${e.id}.md), ${e.def.source}. *The seed:* ${e.def.claim} *Ours:* ${verdicts.length ? verdicts.join('; ') : 'no claim judged'}.`,
    );
  }
  return lines;
}

/** The grid point with the best mean of the headline metric. @param {any} e */
function best(e) {
  const m = e.def.metric;
  const rows = e.summary.filter(
    (/** @type {any} */ r) => Number.isFinite(Number(r[`${m}_mean`])) && r[`${m}_mean`] !== '',
  );
  if (!rows.length) return null;
  const sign = e.def.lower_is_better ? 1 : -1;
  const r = rows.reduce((a, b) => (sign * Number(b[`${m}_mean`]) < sign * Number(a[`${m}_mean`]) ? b : a));
  const name = e.axes
    .filter((/** @type {string} */ a) => r[a] !== '')
    .map((/** @type {string} */ a) => `${a}=${r[a]}`)
    .join(', ');
  return { name, mean: Number(r[`${m}_mean`]), sd: Number(r[`${m}_sd`]) };
}

/**
 * text with the part between the markers replaced; throws when the markers are missing.
 * @param {string} text @param {string} table
 */
export function replaceBetweenMarkers(text, table) {
  const [a, b] = ['<!-- claims:begin -->', '<!-- claims:end -->'];
  const i = text.indexOf(a);
  const j = text.indexOf(b);
  if (i < 0 || j < i) throw new Error(`docs/experiments.md: the markers ${a} and ${b} are missing`);
  return `${text.slice(0, i + a.length)}\n${table}\n${text.slice(j)}`;
}
