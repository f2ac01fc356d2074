// build-scripts/bench-tab-cpu.mjs — where a tab's CPU goes while it trains tiny-ref (issue 32's
// "trace of the tab"): the built playground plays at max speed in Debian's Chromium, and over a
// window the CPU time of every thread of every Chromium process started for it is read from
// /proc (utime + stime of /proc/PID/task/TID/stat, Linux only), by process type (browser,
// renderer, gpu-process, utility ...) and thread name (CrRendererMain: the page's main thread;
// DedicatedWorker: the app's worker, which drives the session and takes its share of each split
// product, and the pthreads of the threaded build, each listed with its thread id; a process's
// main thread as "main"; Compositor, VizCompositorThread, Chrome_ChildIOThread ...).
// The window's steps/s beside it, and the machine's whole CPU from /proc/stat, so that a busy
// machine shows. Run for the simd build (one thread) and the threaded build (isolated, two
// threads). Figures, never pass/fail. Also run alone:
//   node build-scripts/bench-tab-cpu.mjs [--quick] [--json]
// Skips (returns {skipped: reason}) without Chromium, playwright-core or /proc.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { rateOf, tinyRefHash, watchSteps, withBuiltPage } from './bench-tab.mjs';

const HZ = 100; // clock ticks per second of /proc's utime and stime (USER_HZ on Linux)

/** @param {string} path */
const read = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null; // a thread or process that ended
  }
};

/** The descendants of process `root` (pids), from /proc's parent links. */
function descendants(root) {
  const parent = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const stat = read(`/proc/${d}/stat`);
    if (stat) parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const out = [];
  const walk = (p) => {
    for (const [c, pp] of parent) if (pp === p) (out.push(c), walk(c));
  };
  walk(root);
  return out;
}

/** Chromium's process type from its command line: browser (no --type), renderer, gpu-process ... */
function processType(pid) {
  const cmd = read(`/proc/${pid}/cmdline`) ?? '';
  if (!/chrom/i.test(cmd.split('\0')[0] ?? '')) return null;
  return /--type=([\w-]+)/.exec(cmd)?.[1] ?? 'browser';
}

/** CPU ticks of every thread of Chromium's processes under this one: Map "type/name#tid" -> ticks. */
function threadTicks() {
  const out = new Map();
  for (const pid of descendants(process.pid)) {
    const type = processType(pid);
    if (!type) continue;
    let tids = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const stat = read(`/proc/${pid}/task/${tid}/stat`);
      const comm = read(`/proc/${pid}/task/${tid}/comm`);
      if (!stat || !comm) continue;
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(`${type}/${comm.trim()}#${pid}.${tid}`, Number(f[11]) + Number(f[12]));
    }
  }
  return out;
}

/** The machine's busy and total ticks (all CPUs) from /proc/stat. */
function machineTicks() {
  const f = (read('/proc/stat') ?? '').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/**
 * One tab, one window: steps/s and the cores each thread used (CPU seconds per second).
 * @param {{isolated: boolean, quick?: boolean}} opts
 */
async function oneTab({ isolated, quick = false }) {
  return withBuiltPage({ isolated }, tinyRefHash(), async (page) => {
    const status = page.locator('#module-status');
    const variant = (await status.getAttribute('data-variant')) ?? '?';
    const threads = Number((await status.getAttribute('data-threads')) ?? 1);
    await watchSteps(page);
    await page.click('#play');
    const [warm, span] = quick ? [1500, 2500] : [4000, 10000];
    await page.waitForTimeout(warm); // the bench's warm-up, not a wait for a fact: nothing is asserted
    const n0 = await page.evaluate(() => window.benchSeen.length);
    const [t0, m0, w0] = [threadTicks(), machineTicks(), Date.now()];
    await page.waitForTimeout(span);
    const [t1, m1, w1] = [threadTicks(), machineTicks(), Date.now()];
    const seen = await page.evaluate((n) => window.benchSeen.slice(n), n0);
    const seconds = (w1 - w0) / 1000;
    /** @type {Record<string, number>} cores used per "type/name" (threads of one name summed) */
    const cores = {};
    for (const [key, ticks] of t1) {
      const used = (ticks - (t0.get(key) ?? ticks)) / HZ / seconds;
      // a process's main thread carries the program's name; the workers are listed one by one
      let name = key.slice(0, key.indexOf('#')).replace(/\/chromium$/, '/main');
      if (name.endsWith('/DedicatedWorker')) name += ` ${key.slice(key.indexOf('.') + 1)}`;
      cores[name] = (cores[name] ?? 0) + used;
    }
    const top = Object.entries(cores)
      .filter(([, c]) => c >= 0.01)
      .sort((a, b) => b[1] - a[1])
      .map(([name, c]) => ({ name, cores: Math.round(c * 100) / 100 }));
    const chromium = top.reduce((a, t) => a + t.cores, 0);
    const machine = ((m1.busy - m0.busy) / (m1.total - m0.total)) * cpuCount();
    return {
      variant,
      threads,
      steps_per_s: rateOf(seen).rate,
      seconds,
      chromium_cores: Math.round(chromium * 100) / 100,
      machine_cores: Math.round(machine * 100) / 100,
      threads_cpu: top,
    };
  });
}

const cpuCount = () => (read('/proc/stat') ?? '').split('\n').filter((l) => /^cpu\d/.test(l)).length || 1;

/** @param {{quick?: boolean, log?: (...a: unknown[]) => void}} [opts] */
export async function measureTabCpu({ quick = false, log = console.error } = {}) {
  if (!existsSync('/proc/self/task')) return { skipped: 'no /proc (Linux only)' };
  log("bench: where the tab's CPU goes (per Chromium thread, from /proc), tiny-ref, 1 and 2 threads");
  const one = await oneTab({ isolated: false, quick });
  if ('skipped' in one) return one;
  const two = await oneTab({ isolated: true, quick });
  return { one, two };
}

/** The bench's lines for this row. */
export function tabCpuRows(r) {
  if ('skipped' in r) return `tab CPU: skipped (${r.skipped})`;
  const line = (x) =>
    `  ${x.variant}, ${x.threads} thread(s): ${x.steps_per_s.toFixed(1)} steps/s; Chromium used ${x.chromium_cores} cores ` +
    `(machine ${x.machine_cores} of ${cpuCount()}): ${x.threads_cpu
      .slice(0, 8)
      .map((t) => `${t.name} ${t.cores}`)
      .join(', ')}`;
  return `where the tab's CPU goes (cores used per thread, over the window):\n${line(r.one)}\n${line(r.two)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const r = await measureTabCpu({ quick: args.includes('--quick') });
  console.log(args.includes('--json') ? JSON.stringify(r) : tabCpuRows(r));
}
