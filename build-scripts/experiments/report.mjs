// build-scripts/experiments/report.mjs — docs/experiments/<id>.md from the definition, its
// summary and the claims' verdicts (stats.mjs): what the seed text claimed, the verdict with the
// numbers (difference, 95% confidence interval, test, p and the Benjamini–Hochberg q), the chart,
// the table of mean ± sd over the seeds, the setup, convergence, the cost, and how to rerun.
import { ALPHA, MIN_SEEDS, STABLE_BUDGETS } from './stats.mjs';

/** @param {number} x */
export function fmt(x) {
  if (!Number.isFinite(x)) return '–';
  const a = Math.abs(x);
  return a >= 1e4
    ? Math.round(x).toLocaleString('en-US')
    : a >= 100
      ? x.toFixed(0)
      : a >= 10
        ? x.toFixed(1)
        : x.toFixed(3);
}

/** A p-value or q as text: 3 significant digits, "< 0.0001" below that. @param {number} p */
export function fmtP(p) {
  if (!Number.isFinite(p)) return '–';
  return p < 1e-4 ? '< 0.0001' : p.toPrecision(2);
}

/** The test a claim used, in words. @param {any} c */
export const testWords = (c) =>
  c.design === 'exact'
    ? 'exact rule, every seed'
    : c.design === 'equivalence'
      ? `two one-sided t (TOST), margin ±${fmt(c.margin)}, df ${c.df.toFixed(1)}`
      : c.design === 'paired'
        ? `paired t, df ${c.df.toFixed(1)}`
        : `Welch t, df ${c.df.toFixed(1)}`;

/** A claim's numbers in one phrase, for verdict.json's text and the page. @param {any} c */
export function claimPhrase(c) {
  if (!c.better || !Number.isFinite(c.diff)) return `${c.text}: ${c.verdict}${c.why ? ` (${c.why})` : ''}`;
  const q = Number.isFinite(c.q) ? `, q ${fmtP(c.q)}` : '';
  return (
    `${c.text}: ${c.verdict}${c.why ? ` (${c.why})` : ''} (${fmt(c.better.mean)} against ${fmt(c.worse.mean)}, n ${c.n}; ` +
    `the difference ${fmt(c.diff)}, 95% CI ${fmt(c.ci[0])} to ${fmt(c.ci[1])}; ${testWords(c)}, p ${fmtP(c.p)}${q})` +
    (c.notes?.length ? ` [${c.notes.join('; ')}]` : '')
  );
}

const UNITS = { peak_memory_bytes: ['peak memory (KiB)', 1 / 1024] };

/** @param {string} m */
const label = (m) => UNITS[m]?.[0] ?? m;

/** The rule, in words. @param {any} def */
const ruleWords = (def) =>
  `Headline metric \`${def.metric}\` (${def.lower_is_better ? 'lower' : 'higher'} is better). ` +
  `Each claim is a two-sided t-test at α = ${ALPHA}: Welch's (Welch–Satterthwaite df) between two grid points, or a paired t-test across seeds where both sides are the same trained models (scored two ways). ` +
  `q is the Benjamini–Hochberg adjusted p over every test of every experiment (each claim at each budget; docs/experiments.md), and the verdict comes from q: it agrees when q < ${ALPHA} and the difference (positive: as claimed) favours it, disagrees when q < ${ALPHA} against it, and is inside the noise otherwise; it is not judged with fewer than 3 runs a side, or an sd of 0 with fewer than ${MIN_SEEDS}. ` +
  `${def.budgets?.length ? `Every grid point is trained at ${def.budgets.join(', ')} steps (separate runs, each with its whole schedule) and each claim judged at each budget; ` : 'Each claim is judged at one budget; '}a verdict is **stable** when it is the same at ${STABLE_BUDGETS} budgets, each twice the last, and **provisional** otherwise.`;

/** A claim's provenance in words. @param {any} p */
export function provenanceWords(p) {
  if (!p) return 'provenance not recorded';
  if (p.kind === 'seed text') return `seed text (seed ${p.seed}, line ${p.line}: “${p.quote}”)`;
  if (p.kind === 'seed figure') return `seed figure (seed ${p.seed}, line ${p.line}: ${p.what})`;
  return `our question (${p.why})`;
}

/** A claim's verdict at each budget, in a cell. @param {any} c */
export const budgetWords = (c) =>
  (c.budgets ?? [])
    .filter((/** @type {any} */ b) => b.budget !== null)
    .map(
      (/** @type {any} */ b) =>
        `${b.budget}: ${b.verdict}${Number.isFinite(b.diff) ? ` (${fmt(b.diff)}, q ${fmtP(b.q)})` : ''}`,
    )
    .join('; ') || '–';

/** @param {any} c */
const claimRow = (c) =>
  c.better && Number.isFinite(c.diff)
    ? `| ${c.text} | ${provenanceWords(c.provenance)} | ${fmt(c.better.mean)} ± ${fmt(c.better.sd)} | ${fmt(c.worse.mean)} ± ${fmt(c.worse.sd)} | ${c.n} | ${fmt(c.diff)} [${fmt(c.ci[0])}, ${fmt(c.ci[1])}] | ${testWords(c)} | ${fmtP(c.p)} | ${fmtP(c.q)} | ${budgetWords(c)} | **${c.verdict}**, ${c.stability}${c.why ? `: ${c.why}` : ''}${c.notes?.length ? ` (${c.notes.join('; ')})` : ''} |`
    : `| ${c.text} | ${provenanceWords(c.provenance)} | | | | | | | | | ${c.verdict}: ${c.why} |`;

/**
 * @param {any} def the definition
 * @param {Record<string, string>[]} summary
 * @param {any[]} claims judged (stats.mjs judge), with q
 * @param {{verdict: string, minutes: number, runs: number, models: number, axes: string[], engine: string, convergence: string, extra?: string, gaps?: {budget: number|null, gap: number, n: number}[]}} info
 */
export function reportMarkdown(def, summary, claims, info) {
  const cols = def.columns ?? [def.metric];
  const scale = (/** @type {string} */ m) => UNITS[m]?.[1] ?? 1;
  const cell = (/** @type {Record<string, string>} */ r, /** @type {string} */ m) =>
    `${fmt(Number(r[`${m}_mean`]) * scale(m))} ± ${fmt(Number(r[`${m}_sd`] || NaN) * scale(m))}`;
  const seedsRun = Math.max(0, ...summary.map((r) => Number(r.n) || 0));
  const lines = [
    `# ${def.title}`,
    '',
    `Source: ${def.source}.`,
    '',
    `**Setting.** ${def.setting ?? 'a causal character language model (ours): causal mask, next-character prediction, every position scored'}.`,
    '',
    `**What the seed text claims.** ${def.claim}`,
    '',
    ...(def.notes ? [`**Read this with it.** ${def.notes}`, ''] : []),
    `**Verdict in this setting, at this scale: ${info.verdict}** (${claims.filter((c) => c.verdict !== 'not judged').length} of ${claims.length} claims judged). ${ruleWords(def)}`,
    '',
    '| claim | provenance | claimed better | claimed worse | n | difference [95% CI] | test | p | q | at each budget | verdict |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...claims.map(claimRow),
    '',
    `**Convergence** (the held-out loss over the last fifth of training): ${info.convergence}.`,
    ...(info.gaps?.length
      ? [
          '',
          `**Train against held-out** (eval_loss − train_loss in nats, mean over the runs; positive: the held-out text is harder than the training text the model saw): ${info.gaps
            .map((g) => `${g.budget === null ? 'at its budget' : `${g.budget} steps`}: ${fmt(g.gap)} (${g.n} runs)`)
            .join('; ')}.`,
        ]
      : []),
    '',
    `![${def.id}: ${def.metric} per grid point, mean ± sd, a dot per seed](${def.id}.png)`,
    '',
    `| ${[...info.axes, 'n', ...cols.map(label)].join(' | ')} |`,
    `|${[...info.axes, 'n', ...cols].map(() => '---').join('|')}|`,
    ...summary.map((r) => `| ${[...info.axes.map((a) => r[a]), r.n, ...cols.map((m) => cell(r, m))].join(' | ')} |`),
    '',
    ...(info.extra ? [info.extra, ''] : []),
    `**Setup.** Shared fields: ${Object.entries(def.set)
      .map(([k, v]) => `\`${k}=${v}\``)
      .join(', ')}${def.corpus ? `; corpus: the bundled ${def.corpus} text (docs/corpus.md)` : ''}. ` +
      `Grid: ${def.grids
        .map((/** @type {Record<string, any[]>} */ g) =>
          Object.entries(g)
            .map(([k, v]) => `${k} ∈ {${v.join(', ')}}`)
            .join(' × '),
        )
        .join('; plus ')}` +
      `${def.eval_at ? `; also evaluated at ${def.eval_at.map((/** @type {number} */ m) => `${m}L`).join(', ')}` : ''}. ` +
      `${
        def.fine_tune
          ? `Fine-tune: the grid points with fine_tune true then continue ${def.fine_tune.steps} steps with ${Object.entries(
              def.fine_tune.set ?? {},
            )
              .map(([k, v]) => `\`${k}=${v}\``)
              .join(', ')} (train --resume), and are evaluated after, at the same multiples of the base length. `
          : ''
      }` +
      `Seeds: the definition asks for ${def.seeds}; these results hold ${seedsRun} per grid point.`,
    '',
    `**Cost.** ${info.runs} runs${info.models && info.models < info.runs ? ` (${info.models} trained models: the grid points that differ only in how a model is scored share it)` : ''} in ${info.minutes.toFixed(1)} minutes on 2 cores (native, two runs at a time), engine ${info.engine}.`,
    '',
    `**Rerun.** \`npm run experiments -- --only ${def.id}\`, or \`attnplay sweep --experiment docs/experiments/${def.id}.json --jobs 2 --out ${def.id}.csv --summary ${def.id}.summary.csv\`` +
      `${def.corpus ? ` with \`--text-file web/public/corpus/${def.corpus}.txt\`` : ''}. Every row of [${def.id}.csv](${def.id}.csv) holds its run's config. In the browser: the experiments page re-runs any row${def.browser?.steps ? ` (${def.browser.steps} steps)` : ''}.`,
    '',
  ];
  return lines.join('\n');
}
