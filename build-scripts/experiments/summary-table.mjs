// build-scripts/experiments/summary-table.mjs — the claims of every experiment in one table, with
// the Benjamini–Hochberg adjusted p (q) over all of them, written into docs/experiments.md between
// its <!-- claims:begin --> and <!-- claims:end --> markers, and each experiment's best grid point
// on its headline metric: every number there comes from the committed CSVs, so none can drift.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benjaminiHochberg } from './tdist.mjs';
import { ALPHA, parseCsv, judge, settle } from './stats.mjs';
import { convergenceOf } from './convergence.mjs';
import { fmt, fmtP, testWords, budgetWords } from './report.mjs';

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
    claims: withOccasions(dir, id, def, judge(def, summary, runs)),
    convergence: convergenceOf(runs),
    gaps: gapsOf(def, runs),
    engine: runs[0]?.engine ?? '?',
  };
}

/**
 * A definition with "occasions": 2 (timing claims) is swept twice, the second time into
 * <id>.occasion2.csv and its summary: each claim then carries both occasions' tests in `budgets`
 * (marked occasion 1 and 2), and settle() calls a verdict that differs between them undecided.
 * Before the second sweep exists, the claim has its first occasion only.
 * @param {string} dir @param {string} id @param {any} def @param {any[]} claims judge()'s, of the first occasion
 */
function withOccasions(dir, id, def, claims) {
  if ((def.occasions ?? 1) < 2) return claims;
  const [f2, s2] = [join(dir, `${id}.occasion2.csv`), join(dir, `${id}.occasion2.summary.csv`)];
  const two =
    existsSync(f2) && existsSync(s2)
      ? judge(def, parseCsv(readFileSync(s2, 'utf8')), parseCsv(readFileSync(f2, 'utf8')))
      : null;
  return claims.map((c, i) => ({
    ...c,
    budgets: [
      ...c.budgets.map((/** @type {any} */ b) => ({ ...b, occasion: 1 })),
      ...(two ? two[i].budgets.map((/** @type {any} */ b) => ({ ...b, occasion: 2 })) : []),
    ],
  }));
}

/**
 * The train/held-out gap at each budget: the mean over runs of eval_loss − train_loss (nats; both
 * measured at the end of the run on eval_batches batches of their split).
 * @param {any} def @param {Record<string, string>[]} runs
 * @returns {{budget: number|null, gap: number, n: number}[]}
 */
export function gapsOf(def, runs) {
  const budgets = def.budgets?.length ? def.budgets : [null];
  return budgets.map((/** @type {number|null} */ b) => {
    const at = runs.filter((r) => (b === null || r.budget === String(b)) && r.train_loss !== '' && r.eval_loss !== '');
    const d = at.map((r) => Number(r.eval_loss) - Number(r.train_loss)).filter(Number.isFinite);
    return {
      budget: b,
      gap: d.reduce((a, x) => a + x, 0) / d.length,
      n: d.length,
    };
  });
}

/**
 * Sets q on every test (each claim at each budget) of every experiment, BH over all their
 * p-values, and the final verdicts from q (stats.mjs settle); in place.
 * @param {{claims: any[]}[]} experiments
 */
export function addQ(experiments) {
  const claims = experiments.flatMap((e) => e.claims);
  const all = claims.flatMap((c) => c.budgets ?? [c]); // every test: each claim at each budget
  const q = benjaminiHochberg(all.map((c) => (c.verdict === 'not judged' ? NaN : c.p)));
  all.forEach((c, i) => (c.q = q[i]));
  settle(claims);
}

/**
 * @param {{id: string, def: any, claims: any[], summary: Record<string, string>[], axes: string[], runs: number, models: number}[]} experiments
 */
export function summaryMarkdown(experiments) {
  const all = experiments.flatMap((e) => e.claims);
  const judged = all.filter((c) => c.verdict !== 'not judged');
  const tests = all.flatMap((c) => c.budgets ?? [c]).filter((c) => Number.isFinite(c.p));
  const exact = judged.filter((c) => c.design === 'exact').length;
  const decided = judged.filter((c) => c.verdict === 'agrees' || c.verdict === 'disagrees').length;
  const lines = [
    `${judged.length} of ${all.length} claims judged: ${judged.length - exact} by t-tests, in ${tests.length} tests (a claim is tested at each budget its experiment trains) whose q is the Benjamini–Hochberg adjustment over all ${tests.length} at a false-discovery rate of ${ALPHA}, and ${exact} by the exact rule they test. ${decided} claims are decided (agree or disagree) at their largest budget; ${judged.filter((c) => c.stable).length} verdicts are stable (the same at 3 budgets, each twice the last), the rest provisional.`,
    '',
    ...provenanceCounts(experiments),
    '',
    '| experiment | setting | claim | provenance | better | worse | n | difference [95% CI] | test | q | at each budget | verdict |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const e of experiments)
    for (const c of e.claims)
      lines.push(
        c.better && Number.isFinite(c.diff)
          ? `| [${e.id}](experiments/${e.id}.md) | ${settingName(e.def)} | ${c.text} | ${provenanceKind(c.provenance)} | ${fmt(c.better.mean)} ± ${fmt(c.better.sd)} | ${fmt(c.worse.mean)} ± ${fmt(c.worse.sd)} | ${c.n} | ${fmt(c.diff)} [${fmt(c.ci[0])}, ${fmt(c.ci[1])}] | ${testWords(c)} | ${fmtP(c.q)} | ${budgetWords(c)} | **${c.verdict}**, ${c.stable ? 'stable' : 'provisional'}${c.why ? `: ${c.why}` : ''} |`
          : `| [${e.id}](experiments/${e.id}.md) | ${settingName(e.def)} | ${c.text} | ${provenanceKind(c.provenance)} | | | | | | | | **${c.verdict}**: ${c.why} |`,
      );
  lines.push('', ...settingsCompared(experiments));
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
        `${c.text}: **${c.verdict}**${Number.isFinite(c.q) ? ` (q ${fmtP(c.q)})` : ''}${c.stability ? `, ${c.stability}` : ''}`,
    );
    lines.push(
      `- [${e.id}](experiments/${e.id}.md), ${e.def.source}; setting: ${settingName(e.def)}. *The seed:* ${e.def.claim} *Ours:* ${verdicts.length ? verdicts.join('; ') : 'no claim judged'}.`,
    );
  }
  return lines;
}

/**
 * The claims judged in both settings (experiment ID in ours, ID-mlm in seed 000's, the same claim
 * text), side by side, and whether the two verdicts are the same.
 * @param {{id: string, def: any, claims: any[]}[]} experiments
 */
export function settingsCompared(experiments) {
  const byId = new Map(experiments.map((e) => [e.id, e]));
  const rows = [];
  for (const seed of experiments.filter((e) => e.def.setting && e.id.endsWith('-mlm'))) {
    const ours = byId.get(seed.id.slice(0, -'-mlm'.length));
    if (!ours) continue;
    for (const c of seed.claims) {
      const o = ours.claims.find((x) => x.text === c.text);
      if (!o) continue;
      const word = (/** @type {any} */ x) => `**${x.verdict}**${x.stable ? ', stable' : ', provisional'}`;
      rows.push(
        `| ${c.text} | [${seed.id}](experiments/${seed.id}.md): ${word(c)} | [${ours.id}](experiments/${ours.id}.md): ${word(o)} | ${c.verdict === o.verdict ? 'the same' : '**the settings disagree**'} |`,
      );
    }
  }
  if (!rows.length) return [];
  const differ = rows.filter((r) => r.includes('the settings disagree')).length;
  return [
    `**Seed 000's claims in both settings.** ${rows.length} claims are judged in seed 000's setting (a bidirectional masked LM) and in ours (a causal LM); the settings give different verdicts on ${differ} of them. Where they differ, the seed's sentence is about its own setting; ours says how far it carries to a causal model, whose mask already tells each token its position.`,
    '',
    "| claim | seed 000's setting | ours (causal) | |",
    '|---|---|---|---|',
    ...rows,
  ];
}

/** The setting's short name: seed 000's (a bidirectional masked LM) or ours. @param {any} def */
export const settingName = (def) => (def.setting ? "seed 000's (bidirectional masked LM)" : 'ours (causal)');

/** @param {any} p */
const provenanceKind = (p) => (p ? (p.kind === 'our question' ? p.kind : `${p.kind} (${p.seed}:${p.line})`) : '–');

/**
 * How many claims of each provenance agree, disagree or sit inside the noise.
 * @param {{claims: any[]}[]} experiments
 */
function provenanceCounts(experiments) {
  const all = experiments.flatMap((e) => e.claims);
  const kinds = ['seed text', 'seed figure', 'our question', null];
  const lines = [
    '| provenance | claims | agree | disagree | inside the noise | undecided | not judged | stable |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const k of kinds) {
    const cs = all.filter((c) => (c.provenance?.kind ?? null) === k);
    if (!cs.length) continue;
    const n = (/** @type {string} */ v) => cs.filter((c) => c.verdict === v).length;
    lines.push(
      `| ${k ?? 'not recorded'} | ${cs.length} | ${n('agrees')} | ${n('disagrees')} | ${n('inside the noise')} | ${n('undecided')} | ${n('not judged')} | ${cs.filter((c) => c.stable).length} |`,
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
