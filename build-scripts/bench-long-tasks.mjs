// build-scripts/bench-long-tasks.mjs — the long_tasks row of `npm run bench`: six widgets on one
// page (built dist/, tests/browser/widget-fixtures.mjs six.html) load and train past 100 steps, and
// the page's main-thread tasks are measured from a Chromium trace: each task's CPU time (tdur,
// what the page's own code costs) beside its wall time (dur). Figures, never pass/fail: on a
// 2-core machine six training workers share the cores with the main thread, so 15-35 ms of work
// can take 100-300 ms of wall time while the OS runs the workers (measured). The page reports by
// itself through the console, so that no Playwright call runs in the page while it is measured
// (Playwright's injected script takes a long task of its own to compile). The causes a profile
// found, and their fixes: the first Intl call loading ICU (widget-app.js: no toLocaleString);
// charts and heatmaps drawn all at once with forced layouts (light-line-chart.js: one frame queue
// with a budget, width from the ResizeObserver; attention-panel.js: a few maps per task;
// heatmap.js: putImageData, no resize when unchanged); a canvas font loaded in the middle of a
// draw (attention-playground.js: fonts loaded in idle time). Also run alone:
//   node build-scripts/bench-long-tasks.mjs [--json]
// Skips (returns {skipped: reason}) when Chromium or playwright-core is missing.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { CHROMIUM } from './bench-tab.mjs';

const STEPS = 100; // every widget trains past this many steps (of 150) during the measurement
const LONG_MS = 50;

/** In the page, from its first script: record long tasks; say on the console when all trained. */
function reporter(steps) {
  const long = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) long.push({ start: Math.round(e.startTime), ms: Math.round(e.duration) });
  }).observe({ type: 'longtask', buffered: true });
  const t0 = performance.now();
  const timer = setInterval(() => {
    const ws = [...document.querySelectorAll('attention-playground')];
    const failed = ws.find((w) => w.status === 'error');
    const done = ws.length > 0 && ws.every((w) => w.status === 'ready' && w.currentStep >= steps);
    if (!failed && !done && performance.now() - t0 < 120000) return;
    clearInterval(timer);
    const report = () =>
      console.timeStamp('__long-tasks-end') ||
      console.log(
        `__long-tasks ${JSON.stringify({ long, done, error: failed?.error, steps: ws.map((w) => w.currentStep) })}`,
      );
    setTimeout(report, 600); // the last charts drawn
  }, 250);
}

/** The page's main-thread tasks from a Chromium trace, up to its report (stopping the trace costs
 * a task of its own), and after the stamp `from` when given: [{ms (wall), cpu (ms)}]. The page's main thread is the one that logged the
 * report's stamp (Chromium's own pages run main threads of their own in the same trace). */
export function mainThreadTasks(trace, from = '') {
  const events = JSON.parse(trace.toString()).traceEvents;
  const stampOf = (message) => events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === message);
  const stamp = stampOf('__long-tasks-end');
  if (!stamp) return null;
  const start = from ? stampOf(from)?.ts : -Infinity; // from: only the tasks that start after that stamp
  if (start === undefined) return null;
  return events
    .filter(
      (e) =>
        e.ph === 'X' &&
        e.name === 'RunTask' &&
        e.pid === stamp.pid &&
        e.tid === stamp.tid &&
        e.ts > start &&
        e.ts + e.dur < stamp.ts,
    )
    .map((e) => ({ ms: e.dur / 1000, cpu: (e.tdur ?? e.dur) / 1000 }));
}

/**
 * Load `path` of a static server holding dist/ and `pages` ({path: html}, or a function making them
 * once dist/ is built) in Chromium, traced, with
 * `script(arg)` as its first init script; `script` logs `${tag} {json}` on the console when the
 * measurement ends, after a console.timeStamp('__long-tasks-end'). Returns that report and the
 * page's main-thread tasks up to the stamp (mainThreadTasks), or {skipped} without Chromium or
 * playwright-core. Throws when the page failed or the trace lacks the stamp.
 * @param {{pages: Record<string, string> | (() => Promise<Record<string, string>>), path: string, tag: string,
 *   script: (arg: any) => void, arg: unknown, width: number, height: number}} o
 */
export async function tracedPage({ pages, path, tag, script, arg, width, height }) {
  if (!existsSync(CHROMIUM)) return { skipped: `no Chromium at ${CHROMIUM}` };
  try {
    await import('playwright-core');
  } catch {
    return { skipped: 'playwright-core is not installed (npm install)' };
  }
  const { startWidgetServer } = await import('../tests/browser/widget-fixtures.mjs');
  const server = await startWidgetServer(typeof pages === 'function' ? {} : pages); // builds dist/ when stale
  try {
    // a function: pages made from the built dist/ (bench-course-tasks.mjs)
    if (typeof pages === 'function') for (const [k, v] of Object.entries(await pages())) server.extra.set(k, v);
    let report; // the page's own, on its console
    const setup = async (page) => {
      await server.browser.startTracing(page, {
        categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline'],
      });
      report = new Promise((resolve) =>
        page.on('console', (m) => {
          if (m.text().startsWith(`${tag} `)) resolve(JSON.parse(m.text().slice(tag.length + 1)));
        }),
      );
      await page.addInitScript(script, arg);
    };
    const { page, errors } = await server.open(path, { width, height, setup });
    const r = await report;
    const trace = await server.browser.stopTracing();
    const tasks = mainThreadTasks(trace);
    await page.close();
    if (errors.length) throw new Error(`the page failed: ${errors.join('; ')}`);
    if (!tasks) throw new Error("the trace lacks the page's end-of-measurement stamp");
    return { report: r, tasks, trace };
  } finally {
    await server.close();
  }
}

/** The longest task by CPU and by wall time, and how many took over `ms` of each. @param {{ms: number, cpu: number}[]} tasks */
export function taskFigures(tasks, ms) {
  const max = (xs) => Math.round(Math.max(0, ...xs));
  return {
    longest_cpu_ms: max(tasks.map((t) => t.cpu)),
    longest_wall_ms: max(tasks.map((t) => t.ms)),
    [`over_${ms}_cpu`]: tasks.filter((t) => t.cpu > ms).length,
    [`over_${ms}_wall`]: tasks.filter((t) => t.ms > ms).length,
    tasks: tasks.length,
  };
}

/**
 * One page load of the six widgets, traced.
 * @param {{log?: (...a: unknown[]) => void}} [opts]
 * @returns {Promise<{longest_cpu_ms: number, longest_wall_ms: number, over_50_cpu: number, over_50_wall: number,
 *   tasks: number, observer_over_50: number, steps: number[]} | {skipped: string}>}
 */
export async function measureLongTasks({ log = console.error } = {}) {
  log('bench: long tasks (Chromium, built site, six widgets training)');
  const { FIXTURES } = await import('../tests/browser/widget-fixtures.mjs');
  const t = await tracedPage({
    pages: FIXTURES,
    path: '/fixtures/six.html',
    tag: '__long-tasks',
    script: reporter,
    arg: STEPS,
    width: 1400,
    height: 1400,
  });
  if ('skipped' in t) return t;
  const r = t.report;
  if (!r.done)
    throw new Error(`the six widgets did not train past ${STEPS} steps (steps ${r.steps}, error ${r.error})`);
  return { ...taskFigures(t.tasks, LONG_MS), observer_over_50: r.long.length, steps: r.steps };
}

/** The row as `npm run bench` prints it. */
export const longTasksRow = (t) =>
  'skipped' in t
    ? `long_tasks: skipped: ${t.skipped}`
    : `long_tasks (six widgets training, built site): longest main-thread task ${t.longest_cpu_ms} ms of CPU (${t.longest_wall_ms} ms wall); ` +
      `tasks over 50 ms: ${t.over_50_cpu} by CPU, ${t.over_50_wall} by wall time (the longtask observer: ${t.observer_over_50}), of ${t.tasks}`;

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await measureLongTasks();
  console.log(process.argv.includes('--json') ? JSON.stringify(r) : longTasksRow(r));
}
