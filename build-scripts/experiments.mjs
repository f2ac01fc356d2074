// build-scripts/experiments.mjs — `npm run experiments`: every experiment defined in
// docs/experiments/<id>.json, run natively by `attnplay sweep --experiment` (two runs at a time,
// one per core), then per experiment: the per-run CSV and its summary, the claims' verdicts
// (<id>.verdict.json, read by the experiments page), the report (<id>.md) and the chart (<id>.png,
// the experiments page's own chart, drawn in headless Chromium). cost-per-encoding also runs its
// grid in wasm (wasm-simd under Node) and reports both.
//   node build-scripts/experiments.mjs [--quick] [--only ID] [--out DIR] [--jobs N] [--bin ATTNPLAY]
//     [--no-charts | --charts-only | --reports-only]
// --bin: the native program to run (default build/native/attnplay), e.g. another build's.
// --quick: each definition's "quick" overrides (a few steps, one seed), into a temporary folder
// unless --out is given, without charts: it checks that the pipeline works, nothing more.
// --reports-only: the reports and verdicts again from the CSVs there (after a change of a
// definition's claims or columns); --charts-only: the charts again.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseCsv, overall } from './experiments/stats.mjs';
import { reportMarkdown, fmt, claimPhrase } from './experiments/report.mjs';
import { addQ, summaryMarkdown, replaceBetweenMarkers, readJudged, settingName } from './experiments/summary-table.mjs';
import { wasmCost, summarise } from './experiments/wasm-cost.mjs';
import { drawCharts } from './experiments/charts.mjs';
import { toCsv } from '../web/src/common/csv.js';
import { register, readRegistration } from './experiments/registration.mjs';
import { corpusReferences, pastL } from './experiments/references.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const DEFS = join(ROOT, 'docs/experiments');
const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const quick = args.includes('--quick');
const out = resolve(opt('--out') ?? (quick ? mkdtempSync(join(tmpdir(), 'attnplay-experiments-')) : DEFS));
const jobs = opt('--jobs') ?? '2';
const BIN = resolve(opt('--bin') ?? join(ROOT, 'build/native/attnplay'));
mkdirSync(out, { recursive: true });

const ids = readdirSync(DEFS)
  .filter((f) => /^[a-z0-9-]+\.json$/.test(f) && !f.endsWith('.verdict.json'))
  .map((f) => f.slice(0, -5))
  .filter((id) => !opt('--only') || id === opt('--only'))
  .filter(
    (id) => !(args.includes('--reports-only') || args.includes('--charts-only')) || existsSync(join(out, `${id}.csv`)),
  );
if (!ids.length) throw new Error(`no experiment ${opt('--only') ?? ''} in ${DEFS}`);
if (args.includes('--charts-only')) {
  await drawCharts(ids, out);
  process.exit(0);
}
const reportsOnly = args.includes('--reports-only');
/** @type {Map<string, number>} the minutes of each sweep run now */
const swept = new Map();
for (const id of ids) {
  const def = readDef(id);
  if (!reportsOnly) swept.set(id, sweep(id, def, join(out, `${id}.csv`), join(out, `${id}.summary.csv`)));
}
// Timing claims are judged on two separate occasions (summary-table.mjs withOccasions): the
// second sweep of such an experiment starts after every other sweep of this run has finished.
for (const id of reportsOnly ? [] : ids) {
  const def = readDef(id);
  if ((def.occasions ?? 1) < 2) continue;
  const csv = [join(out, `${id}.occasion2.csv`), join(out, `${id}.occasion2.summary.csv`)];
  swept.set(id, Number(swept.get(id)) + sweep(id, def, csv[0], csv[1], false));
}
// Every experiment with results in `out` is judged (not only those run now): the false-discovery
// rate is controlled over all their claims together.
const all = readdirSync(DEFS)
  .filter((f) => /^[a-z0-9-]+\.json$/.test(f) && !f.endsWith('.verdict.json'))
  .map((f) => f.slice(0, -5))
  .filter((id) => existsSync(join(out, `${id}.csv`)) && existsSync(join(out, `${id}.summary.csv`)))
  .map((id) => readJudged(out, id, readDef(id)));
addQ(all);
const done = [];
for (const e of all) {
  const minutes =
    swept.get(e.id) ??
    (existsSync(join(out, `${e.id}.verdict.json`))
      ? JSON.parse(readFileSync(join(out, `${e.id}.verdict.json`), 'utf8')).minutes
      : NaN);
  const verdict = quick ? 'not judged (--quick)' : overall(e.claims);
  const extra =
    e.id === 'cost-per-encoding'
      ? await wasmTable(e.def, e.axes, e.summary, join(out, `${e.id}.wasm.summary.csv`), swept.has(e.id))
      : e.def.corpus && e.def.eval_at?.length && e.def.set?.causal !== false
        ? pastLTable(e.def, e.axes, e.summary)
        : '';
  writeFileSync(
    join(out, `${e.id}.verdict.json`),
    JSON.stringify(
      {
        verdict,
        text: e.claims.map(claimPhrase).join('. '),
        claims: e.claims.map(({ budgets, ...c }) => ({
          ...c,
          // every test of the claim: each budget, or each occasion of a timing claim (budget null),
          // so that the whole family of the Benjamini–Hochberg adjustment is in the files
          budgets: budgets
            .filter((/** @type {any} */ b) => b.budget !== null || b.occasion)
            .map((/** @type {any} */ b) => ({
              ...(b.occasion ? { occasion: b.occasion } : {}),
              budget: b.budget,
              verdict: b.verdict,
              n: b.n,
              diff: b.diff,
              ci: b.ci,
              p: b.p,
              q: b.q,
            })),
        })),
        setting: settingName(e.def),
        gaps: e.gaps,
        convergence: e.convergence.words,
        minutes,
        runs: e.runs,
        models: e.models,
        engine: e.engine,
        registration: readRegistration(out, e.id),
      },
      null,
      1,
    ) + '\n',
  );
  writeFileSync(
    join(out, `${e.id}.md`),
    reportMarkdown(e.def, e.summary, e.claims, {
      ...e,
      verdict,
      minutes,
      convergence: e.convergence.words,
      extra,
    }),
  );
  console.error(`experiments: ${e.id}: ${e.runs} runs in ${Number(minutes).toFixed(1)} min: ${verdict}`);
  if (swept.has(e.id) || reportsOnly) done.push({ id: e.id, verdict, minutes, runs: e.runs });
}
if (!quick && out === DEFS) {
  const doc = join(ROOT, 'docs/experiments.md');
  writeFileSync(doc, replaceBetweenMarkers(readFileSync(doc, 'utf8'), summaryMarkdown(all)));
}

/** @param {string} id */
function readDef(id) {
  return JSON.parse(readFileSync(join(DEFS, `${id}.json`), 'utf8'));
}

/** Run the experiment's sweep into csv and summaryCsv (registering its claims first, unless it is a second occasion); returns its minutes. */
function sweep(id, def, csv, summaryCsv, first = true) {
  if (first) register(id, def, out);
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npm run build:native (or give --bin)`);
  const cmd = [
    'sweep',
    '--experiment',
    join(DEFS, `${id}.json`),
    '--jobs',
    jobs,
    '--out',
    csv,
    '--summary',
    summaryCsv,
    ...(quick ? ['--quick'] : []),
    ...(def.corpus ? ['--text-file', join(ROOT, `web/public/corpus/${def.corpus}.txt`)] : []),
  ];
  console.error(`experiments: ${id}: attnplay ${cmd.join(' ')}`);
  const t0 = Date.now();
  const r = spawnSync(BIN, cmd, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`experiments: ${id}: the sweep failed (exit ${r.status})`);
  return (Date.now() - t0) / 60000;
}

/** The loss past L beside the corpus's unigram and bigram references (references.mjs). */
function pastLTable(def, axes, summary) {
  const ref = corpusReferences(readFileSync(join(ROOT, `web/public/corpus/${def.corpus}.txt`)));
  const ms = def.eval_at;
  const judged = ms[ms.length > 1 ? 1 : 0];
  return [
    `**Past the training length.** Held-out loss on the tokens past L alone (nats per character), estimated as (m · loss at mL − loss at L) / (m − 1) from the two averages (exact in expectation for a causal model), beside the corpus's references: a unigram model ${fmt(ref.unigram)} and a bigram model ${fmt(ref.bigram)} (the training 90% of the text's bytes, add-one smoothed, scored on the held-out 10%: ${ref.heldout_chars.toLocaleString('en-US')} characters). Worse than the unigram reference past L: the model uses nothing of the text before a token there.`,
    '',
    `| ${axes.join(' | ')} | ${ms.map((m) => `past L at ${m}L`).join(' | ')} | at ${judged}L, against the unigram |`,
    `|${axes.map(() => '---').join('|')}|${ms.map(() => '---').join('|')}|---|`,
    ...pastL(summary, ms).map(
      ({ row, past }) =>
        `| ${axes.map((a) => row[a]).join(' | ')} | ${ms.map((x) => fmt(past[x])).join(' | ')} | ${Number.isFinite(past[judged]) ? (past[judged] > ref.unigram ? 'worse' : 'better') : '–'} |`,
    ),
  ].join('\n');
}

/** cost-per-encoding's grid in wasm (rerun when the native sweep was), as a markdown table against native. */
async function wasmTable(def, axes, summary, file, fresh) {
  if (fresh) {
    const w = await wasmCost(def, {
      quick,
      log: (s) => console.error(`experiments: ${s}`),
    });
    const ws = summarise(w.rows, axes, ['steps_per_s', 'infer_tokens_per_s']);
    writeFileSync(
      file,
      toCsv(
        Object.keys(ws[0]),
        ws.map((x) => Object.values(x)),
      ),
    ); // quoted and formula-safe, as the sweep's
  }
  const ws = parseCsv(readFileSync(file, 'utf8'));
  return [
    `**The same grid in wasm** (wasm-simd under Node, one thread; memory as native, the engine counts the same buffers):`,
    '',
    `| ${axes.join(' | ')} | training steps/s | inference tokens/s | wasm ÷ native training |`,
    `|${axes.map(() => '---').join('|')}|---|---|---|`,
    ...ws.map((x) => {
      const nat = summary.find((s) => axes.every((a) => s[a] === x[a]));
      return `| ${axes.map((a) => x[a]).join(' | ')} | ${fmt(Number(x.steps_per_s_mean))} ± ${fmt(Number(x.steps_per_s_sd))} | ${fmt(Number(x.infer_tokens_per_s_mean))} | ${fmt(Number(x.steps_per_s_mean) / Number(nat?.steps_per_s_mean))} |`;
    }),
  ].join('\n');
}
if (!quick && !reportsOnly && !args.includes('--no-charts'))
  await drawCharts(
    done.map((d) => d.id),
    out,
  );
console.log(done.map((d) => `${d.id}: ${d.verdict} (${d.runs} runs, ${Number(d.minutes).toFixed(1)} min)`).join('\n'));
console.log(`experiments: results in ${out}`);
