// build-scripts/experiments.mjs — `npm run experiments`: every experiment defined in
// docs/experiments/<id>.json, run natively by `attnplay sweep --experiment` (two runs at a time,
// one per core), then per experiment: the per-run CSV and its summary, the claims' verdicts
// (<id>.verdict.json, read by the experiments page), the report (<id>.md) and the chart (<id>.png,
// the experiments page's own chart, drawn in headless Chromium). cost-per-encoding also runs its
// grid in wasm (wasm-simd under Node) and reports both.
//   node build-scripts/experiments.mjs [--quick] [--only ID] [--out DIR] [--jobs N] [--no-charts | --charts-only]
// --quick: each definition's "quick" overrides (a few steps, one seed), into a temporary folder
// unless --out is given, without charts: it checks that the pipeline works, nothing more.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseCsv, judge, overall } from './experiments/stats.mjs';
import { reportMarkdown, fmt } from './experiments/report.mjs';
import { wasmCost, summarise } from './experiments/wasm-cost.mjs';
import { drawCharts } from './experiments/charts.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const DEFS = join(ROOT, 'docs/experiments');
const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const quick = args.includes('--quick');
const out = resolve(opt('--out') ?? (quick ? mkdtempSync(join(tmpdir(), 'attnplay-experiments-')) : DEFS));
const jobs = opt('--jobs') ?? '2';
const BIN = join(ROOT, 'build/native/attnplay');
if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npm run build:native`);
mkdirSync(out, { recursive: true });

const ids = readdirSync(DEFS).filter((f) => /^[a-z0-9-]+\.json$/.test(f) && !f.endsWith('.verdict.json')).map((f) => f.slice(0, -5))
  .filter((id) => !opt('--only') || id === opt('--only'));
if (!ids.length) throw new Error(`no experiment ${opt('--only') ?? ''} in ${DEFS}`);
const engine = spawnSync(BIN, ['--version'], { encoding: 'utf8' }).stdout.trim();
if (args.includes('--charts-only')) {
  await drawCharts(ids, out);
  process.exit(0);
}
const done = [];
for (const id of ids) {
  const def = JSON.parse(readFileSync(join(DEFS, `${id}.json`), 'utf8'));
  const csv = join(out, `${id}.csv`), summaryCsv = join(out, `${id}.summary.csv`);
  const sweep = ['sweep', '--experiment', join(DEFS, `${id}.json`), '--jobs', jobs, '--out', csv, '--summary', summaryCsv,
    ...(quick ? ['--quick'] : []), ...(def.corpus ? ['--text-file', join(ROOT, `web/public/corpus/${def.corpus}.txt`)] : [])];
  console.error(`experiments: ${id}: attnplay ${sweep.join(' ')}`);
  const t0 = Date.now();
  const r = spawnSync(BIN, sweep, { stdio: ['ignore', 'inherit', 'inherit'] });
  const minutes = (Date.now() - t0) / 60000;
  if (r.status !== 0) throw new Error(`experiments: ${id}: the sweep failed (exit ${r.status})`);
  const runs = parseCsv(readFileSync(csv, 'utf8'));
  const summary = parseCsv(readFileSync(summaryCsv, 'utf8'));
  const axes = Object.keys(summary[0] ?? {}).slice(0, Object.keys(summary[0] ?? {}).indexOf('n'));
  if (runs.some((x) => x.error)) throw new Error(`experiments: ${id}: runs failed: ${runs.filter((x) => x.error).map((x) => x.error).join('; ')}`);
  const claims = judge(def, summary);
  const verdict = quick ? 'not judged (--quick)' : overall(claims);
  let extra = '';
  if (id === 'cost-per-encoding') {
    const w = await wasmCost(def, { quick, log: (s) => console.error(`experiments: ${s}`) });
    const ws = summarise(w.rows, axes, ['steps_per_s', 'infer_tokens_per_s']);
    writeFileSync(join(out, `${id}.wasm.summary.csv`), [Object.keys(ws[0]).join(','), ...ws.map((x) => Object.values(x).join(','))].join('\n') + '\n');
    extra = [`**The same grid in wasm** (${w.engine}; memory as native, the engine counts the same buffers):`, '',
      `| ${axes.join(' | ')} | training steps/s | inference tokens/s | wasm ÷ native training |`, `|${axes.map(() => '---').join('|')}|---|---|---|`,
      ...ws.map((x) => {
        const nat = summary.find((s) => axes.every((a) => s[a] === x[a]));
        return `| ${axes.map((a) => x[a]).join(' | ')} | ${fmt(Number(x.steps_per_s_mean))} ± ${fmt(Number(x.steps_per_s_sd))} | ${fmt(Number(x.infer_tokens_per_s_mean))} | ${fmt(Number(x.steps_per_s_mean) / Number(nat?.steps_per_s_mean))} |`;
      })].join('\n');
  }
  writeFileSync(join(out, `${id}.verdict.json`), JSON.stringify({ verdict, text: claims.map((c) => `${c.text}: ${c.verdict}` + (c.better ? ` (${fmt(c.better.mean)} against ${fmt(c.worse.mean)}; the difference ${fmt(c.diff)}, two standard errors ${fmt(2 * c.se)})` : '')).join('. '), claims, minutes, runs: runs.length, engine }, null, 1) + '\n');
  writeFileSync(join(out, `${id}.md`), reportMarkdown(def, summary, claims, { verdict, minutes, runs: runs.length, axes, engine, extra }));
  console.error(`experiments: ${id}: ${runs.length} runs in ${minutes.toFixed(1)} min: ${verdict}`);
  done.push({ id, verdict, minutes, runs: runs.length });
}
if (!quick && !args.includes('--no-charts')) await drawCharts(done.map((d) => d.id), out);
console.log(done.map((d) => `${d.id}: ${d.verdict} (${d.runs} runs, ${d.minutes.toFixed(1)} min)`).join('\n'));
console.log(`experiments: results in ${out}`);
