// build-scripts/bench.mjs — `npm run bench [-- --json] [-- --quick]`: builds what is missing,
// then runs the GEMM and training benchmarks in every flavour and prints GFLOP/s and ratios.
// Speed is reported, never asserted: there are no timed pass/fail tests.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { measureCompareInTab, measureTwoAtOnce } from './bench-compare.mjs';
import { demosRows, measureDemos } from './bench-demos.mjs';
import { courseTasksRow, measureCourseTasks } from './bench-course-tasks.mjs';
import { longTasksRow, measureLongTasks } from './bench-long-tasks.mjs';
import { downloadRows, measureDownload, measureFirstStep } from './bench-size.mjs';
import { measureInTab } from './bench-tab.mjs';
import { measureTabCpu, tabCpuRows } from './bench-tab-cpu.mjs';
import { measureThreadsNode } from './bench-threads.mjs';
import { measureTorch } from './bench-torch.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const asJson = args.includes('--json');
const quick = args.includes('--quick');
const log = (...a) => (asJson ? console.error(...a) : console.log(...a));

const flavours = [
  { name: 'native-best', dir: 'native', run: (p) => [resolve(ROOT, 'build/native', p)] },
  { name: 'native-sse', dir: 'native-sse', run: (p) => [resolve(ROOT, 'build/native-sse', p)] },
  { name: 'wasm-simd', dir: 'wasm-simd', run: (p) => ['node', resolve(ROOT, 'build/wasm-simd', `${p}.js`)] },
  { name: 'wasm-scalar', dir: 'wasm-scalar', run: (p) => ['node', resolve(ROOT, 'build/wasm-scalar', `${p}.js`)] },
];

function ensureBuilt() {
  const missing = flavours.some(
    (f) => !existsSync(resolve(ROOT, 'build', f.dir, f.dir.startsWith('wasm') ? 'apbench.js' : 'apbench')),
  );
  if (!missing) return;
  log('bench: building native and wasm first');
  execFileSync('bash', ['build-scripts/build-native.sh'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  execFileSync('bash', ['build-scripts/build-wasm.sh'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
}

function runJson(cmd) {
  const [exe, ...rest] = cmd;
  const r = spawnSync(exe, [...rest, ...(quick ? ['--quick'] : [])], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} failed: ${r.stderr}`);
  const lines = r.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

ensureBuilt();
const result = { gemm: {}, train: {}, ratios: {} };
for (const f of flavours) {
  log(`bench: ${f.name} GEMM`);
  result.gemm[f.name] = runJson(f.run('apbench'));
  log(`bench: ${f.name} training`);
  result.train[f.name] = runJson(f.run('apbench-train'));
}

// Table: one row per GEMM shape, one column per flavour, then the two ratios.
const shapes = result.gemm['native-best'].gemm.map((g) => g.name);
const gf = (fl, name) => result.gemm[fl].gemm.find((g) => g.name === name)?.gflops ?? NaN;
const pad = (s, n) => String(s).padEnd(n);
const num = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');
const cols = flavours.map((f) => f.name);
const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b),
    m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
log(`\nGEMM GFLOP/s (single thread)`);
log(pad('shape', 26) + cols.map((c) => pad(c, 13)).join('') + pad('simd/scalar', 13) + 'simd/native-sse');
result.ratios.gemm = {};
for (const s of shapes) {
  const simd = gf('wasm-simd', s),
    scalar = gf('wasm-scalar', s),
    sse = gf('native-sse', s);
  result.ratios.gemm[s] = { wasm_simd_over_scalar: simd / scalar, wasm_simd_over_native_sse: simd / sse };
  log(
    pad(s, 26) + cols.map((c) => pad(num(gf(c, s)), 13)).join('') + pad(num(simd / scalar, 2), 13) + num(simd / sse, 2),
  );
}
// The per-head attention products (rows named "64x(...)", heads of 8, 16, 32: unpacked kernel)
// against the dense shapes' median rate (target >= 0.8).
const DENSE = shapes.filter((n) => n.startsWith('1024') || n.startsWith('(1024'));
const ATTN = shapes.filter((n) => n.startsWith('64x('));
log(`\nattention products / dense GEMM median rate (per flavour)`);
log(pad('shape', 26) + cols.map((c) => pad(c, 13)).join(''));
result.ratios.attention_over_dense = {};
for (const s of ATTN) {
  const row = Object.fromEntries(cols.map((c) => [c, gf(c, s) / median(DENSE.map((d) => gf(c, d)))]));
  result.ratios.attention_over_dense[s] = row;
  log(pad(s, 26) + cols.map((c) => pad(num(row[c], 2), 13)).join(''));
}
log(`\ntiny-ref training (729.8 MFLOP per step, batch 16 x 64 tokens)`);
// The ceiling of a flavour: every FLOP of a step at that build's median GEMM rate over the model's
// shapes (issue 15's definition); steps/s ÷ ceiling is the share of the time spent at GEMM speed.
log(
  pad('flavour', 14) +
    pad('steps/s', 10) +
    pad('tokens/s', 12) +
    pad('GFLOP/s', 10) +
    pad('ceiling', 10) +
    'steps/s / ceiling',
);
result.ratios.train = {};
const FLOP_PER_STEP = 729.8e6;
for (const c of cols) {
  const t = result.train[c];
  // issue 15's six model shapes: the dense ones and the one attention row they had
  const modelShapes = [...DENSE, '64x(64x16·(64x16)T)'];
  const gemmMedian = median(modelShapes.map((s) => gf(c, s)));
  const ceiling = (gemmMedian * 1e9) / FLOP_PER_STEP; // steps/s if every FLOP ran at that rate
  result.ratios.train[c] = {
    gemm_median_gflops: gemmMedian,
    ceiling_steps_per_s: ceiling,
    over_ceiling: t.steps_per_s / ceiling,
  };
  log(
    pad(c, 14) +
      pad(num(t.steps_per_s), 10) +
      pad(num(t.tokens_per_s, 0), 12) +
      pad(num(t.gflops), 10) +
      pad(num(ceiling), 10) +
      num(t.steps_per_s / ceiling, 2),
  );
}
const ts = result.train;
// Native threads (bench_train.cpp): 2 threads / 1 on one session, and the old one-piece split.
for (const c of cols) {
  const th = ts[c].threads;
  if (!th) continue;
  log(
    `${pad(c, 12)} 2 threads / 1: ${num(th.ratio, 2)} (one piece per thread: ${num(th.ratio_one_piece, 2)}); ` +
      `the worker ran ${num(100 * th.two_worker_share, 0)}% of the split tasks (one piece: ${num(100 * th.two_one_piece_worker_share, 0)}%)`,
  );
}
result.ratios.train_wasm_simd_over_scalar = ts['wasm-simd'].steps_per_s / ts['wasm-scalar'].steps_per_s;
log(`\nwasm-simd / wasm-scalar training: ${num(result.ratios.train_wasm_simd_over_scalar, 2)}x`);
// The replay's frames (bench_train.cpp; `snapshots` in results of earlier versions): extra time of a new run's first steps with them on.
for (const c of cols)
  for (const s of ts[c].frames ?? ts[c].snapshots ?? [])
    log(
      `replay frames, ${pad(c, 12)} ${pad(s.model, 9)} a frame ${num((100 * s.frame_s) / s.step_s)}% of a step; ${s.frames} frames in the first ${s.steps} steps: +${num(100 * s.cost, 2)}% time`,
    );

// PyTorch on one thread (bench-torch.mjs), just before the in-tab rows and again at the end.
const torchRuns = [measureTorch({ quick, log })];

// The in-tab row: the built playground in Chromium at max speed, tiny-ref from the URL hash
// (bench-tab.mjs), against wasm-simd under Node from this same run.
result.in_tab = await measureInTab({ quick, log });
if ('skipped' in result.in_tab) {
  log(`\nin-tab: skipped: ${result.in_tab.skipped}`);
} else {
  const tab = result.in_tab;
  result.ratios.in_tab_over_wasm_simd = tab.steps_per_s / ts['wasm-simd'].steps_per_s;
  log(
    `\nin-tab tiny-ref (Chromium, built playground, max speed): ${num(tab.steps_per_s)} steps/s` +
      ` (the page's readout: ${num(tab.readout_steps_per_s ?? NaN)}; inspection ${num(100 * (tab.inspect_share ?? NaN))}% of the time)`,
  );
  log(`in-tab / wasm-simd under Node: ${num(result.ratios.in_tab_over_wasm_simd, 2)}`);
  // The comparison row: two runs side by side on the page's worker pool, each against the single run.
  result.in_tab_compare = await measureCompareInTab({ quick, log });
  const cmp = result.in_tab_compare;
  if (!('skipped' in cmp)) {
    result.ratios.in_tab_compare_run_over_single = Math.min(...cmp.steps_per_s) / tab.steps_per_s;
    log(
      `in-tab comparison of ${cmp.runs} runs: ${cmp.steps_per_s.map((x) => num(x)).join(' and ')} steps/s; slowest run / single run: ${num(result.ratios.in_tab_compare_run_over_single, 2)}`,
    );
    // The machine's part of that: two runs at once without any page, each against one alone.
    const two = (result.two_at_once = await measureTwoAtOnce({ quick, root: ROOT, log }));
    result.ratios.two_at_once_over_single = two.ratio;
    result.ratios.in_tab_compare_over_two_at_once = result.ratios.in_tab_compare_run_over_single / two.ratio;
    log(
      `two runs at once, no page (wasm-simd under Node): ${two.pair.map((x) => num(x)).join(' and ')} steps/s against ${num(two.single)} alone: ${num(two.ratio, 2)}` +
        `; so the page's own cost leaves a compared run ${num(result.ratios.in_tab_compare_over_two_at_once, 2)} of what the machine allows`,
    );
  }
  // The threaded row: the same page served with COOP/COEP (crossOriginIsolated) runs the
  // threaded build (target >= 1.7 on 2 cores).
  result.in_tab_threads = await measureInTab({ quick, isolated: true, log });
  const tt = result.in_tab_threads;
  if (!('skipped' in tt)) {
    result.ratios.in_tab_threads_over_single = tt.steps_per_s / tab.steps_per_s;
    log(
      `in-tab threaded (${tt.threads} threads): ${num(tt.steps_per_s)} steps/s; threaded in-tab / single-threaded in-tab: ${num(result.ratios.in_tab_threads_over_single, 2)}`,
    );
  }
}
// The threaded module under Node (worker_threads), 2 threads against its own 1 thread.
// Where the tab's CPU goes with 1 and 2 threads: every Chromium thread's CPU over a window.
result.tab_cpu = await measureTabCpu({ quick, log });
log(`\n${tabCpuRows(result.tab_cpu)}`);
result.threads_node = await measureThreadsNode({ quick, log });
if (!('skipped' in result.threads_node)) {
  result.ratios.wasm_threads_over_single_node = result.threads_node.ratio;
  log(`wasm-threads under Node, 2 threads / 1 thread: ${num(result.threads_node.ratio, 2)}`);
}
// The download rows (bench-size.mjs): the widget's module, gzip and brotli, and one widget's download
// (dist/, which the in-tab rows built); the playground's first step after load.
result.download = measureDownload();
log('');
for (const row of downloadRows(result.download)) log(row);
result.first_step = await measureFirstStep();
if (!('skipped' in result.first_step))
  log(
    `playground: module ready ${num(result.first_step.ready_ms, 0)} ms after the page's start; first step ${num(result.first_step.first_step_ms, 0)} ms after Play`,
  );
// The demos row: how long a reader waits for the probe's and the extrapolation's point (bench-demos.mjs).
result.demos = await measureDemos({ log });
log('');
for (const row of demosRows(result.demos)) log(row);
// The long_tasks row: the page's main thread while six widgets train (bench-long-tasks.mjs).
result.long_tasks = await measureLongTasks({ log });
log(`\n${longTasksRow(result.long_tasks)}`);
// The course_tasks row: a course page holding three lessons' widgets, read through (bench-course-tasks.mjs).
result.course_tasks = await measureCourseTasks({ log });
log(courseTasksRow(result.course_tasks));
torchRuns.push(measureTorch({ quick, log }));
torchSummary();
if (asJson) console.log(JSON.stringify(result));

// The PyTorch row and, as the last line, the tab (the playground at its default: threaded where
// isolated) ÷ PyTorch; when the tab could not run, the best wasm figure under Node instead.
function torchSummary() {
  const ok = torchRuns.filter((t) => !('skipped' in t));
  if (!ok.length) return log(`\nPyTorch: skipped: ${torchRuns[0].skipped}`);
  const rates = ok.map((t) => t.steps_per_s),
    mean = rates.reduce((a, b) => a + b, 0) / rates.length;
  result.torch = { ...ok[0], steps_per_s: mean, runs: rates };
  log(
    `\nPyTorch ${ok[0].torch}, 1 thread, tiny-ref on ${ok[0].blas}: ${rates.map((x) => num(x)).join(' / ')} steps/s (before / after), mean ${num(mean)}`,
  );
  result.ratios.native_best_over_torch = ts['native-best'].steps_per_s / mean;
  log(`native-best / PyTorch: ${num(result.ratios.native_best_over_torch, 2)}`);
  const tabs = [result.in_tab, result.in_tab_threads].filter((t) => t && !('skipped' in t));
  if (tabs.length) {
    const tab = tabs[tabs.length - 1];
    result.ratios.tab_over_torch = tab.steps_per_s / mean;
    return log(
      `tab (${tab.threads ?? 1} thread${tab.threads > 1 ? 's' : ''}) / PyTorch: ${num(result.ratios.tab_over_torch, 2)}`,
    );
  }
  const node = [['wasm-simd under Node', ts['wasm-simd'].steps_per_s]];
  if (!('skipped' in result.threads_node))
    node.push(['wasm-threads under Node, 2 threads', result.threads_node.threads_2_steps_per_s]);
  const [name, best] = node.reduce((a, b) => (b[1] > a[1] ? b : a));
  result.ratios.best_wasm_over_torch = best / mean;
  log(`(no tab figure) best wasm, ${name} / PyTorch: ${num(result.ratios.best_wasm_over_torch, 2)}`);
}
