// Six widgets on one page (built dist/, tests/browser/widget-fixtures.mjs six.html) load and train
// together with no main-thread task that works for more than 50 ms. Chromium's trace gives each
// main-thread task its CPU time (tdur) beside its wall time (dur); the CPU time is what the page's
// own code costs. Wall time is printed too (a PerformanceObserver for 'longtask'), but not
// asserted: on this 2-core machine six training workers share the cores with the main thread, so
// 15-35 ms of work can take 100-300 ms of wall time while the OS runs the workers (measured). The
// page reports by itself through the console, so that no Playwright call runs in the page while it
// is measured (Playwright's injected script takes a long task of its own to compile). The causes a profile
// found, and their fixes: the first Intl call loading ICU (widget-app.js: no toLocaleString);
// charts and heatmaps drawn all at once with forced layouts (light-line-chart.js: one frame queue with
// a budget, width from the ResizeObserver; attention-panel.js: a few maps per task; heatmap.js:
// putImageData, no resize when unchanged); a canvas font loaded in the middle of a draw
// (attention-playground.js: fonts loaded in idle time).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES, startWidgetServer } from './widget-fixtures.mjs';

const STEPS = 100; // every widget trains past this many steps (of 150) during the measurement

let server;
before(async () => { server = await startWidgetServer(FIXTURES); });
after(() => server?.close());

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
    const report = () => console.timeStamp('__long-tasks-end') || console.log(`__long-tasks ${JSON.stringify({ long, done, error: failed?.error, steps: ws.map((w) => w.currentStep) })}`);
    setTimeout(report, 600); // the last charts drawn
  }, 250);
}

const CPU_LIMIT_MS = 50;

/** The page's main-thread tasks from a Chromium trace, up to its report (stopping the trace costs
 * a task of its own): [{ms (wall), cpu (ms)}] over 50 ms either way. The page's main thread is
 * the one that logged the report's stamp (Chromium's own pages, such as the new-tab page, run
 * main threads of their own in the same trace). */
function mainThreadTasks(trace) {
  const events = JSON.parse(trace.toString()).traceEvents;
  const stamp = events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === '__long-tasks-end');
  if (!stamp) return null;
  return events
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.pid === stamp.pid && e.tid === stamp.tid && e.ts + e.dur < stamp.ts)
    .map((e) => ({ ms: Math.round(e.dur / 1000), cpu: Math.round((e.tdur ?? e.dur) / 1000) }))
    .filter((t) => t.ms > 50 || t.cpu > 50);
}

/** One page load of the six widgets: its report ({long, done, steps, error}), traced tasks, errors. */
async function measure() {
  let report; // the page's own, on its console
  const setup = async (page) => {
    await server.browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    report = new Promise((resolve) => page.on('console', (m) => {
      if (m.text().startsWith('__long-tasks ')) resolve(JSON.parse(m.text().slice('__long-tasks '.length)));
    }));
    await page.addInitScript(reporter, STEPS);
  };
  const { page: p, errors } = await server.open('/fixtures/six.html', { width: 1400, height: 1400, setup });
  const r = await report;
  const tasks = mainThreadTasks(await server.browser.stopTracing());
  await p.close();
  return { r, tasks, errors };
}

// Two page loads at most: every one must train and raise no error, and one must have no
// main-thread task over the CPU limit. Every load's tasks are printed (wall/CPU ms).
const ATTEMPTS = 2;

test('six widgets load and train with no main-thread task working over 50 ms', { timeout: 540000 }, async () => {
  const counts = [];
  for (let i = 0; i < ATTEMPTS; i++) {
    const { r, tasks, errors } = await measure();
    assert.ok(r.done, `the six widgets trained past ${STEPS} steps (steps ${r.steps}, error ${r.error})`);
    assert.deepEqual(errors, []);
    assert.ok(tasks, 'the trace holds the page\'s end-of-measurement stamp');
    assert.ok(tasks.length > 0 || r.long.length === 0, 'the trace holds the page\'s main-thread tasks');
    const over = tasks.filter((t) => t.cpu > CPU_LIMIT_MS);
    counts.push(over.length);
    console.log(`load ${i + 1}: main-thread tasks over 50 ms (wall/CPU ms): ${tasks.map((t) => `${t.ms}/${t.cpu}`).join(', ') || 'none'}; longtask observer (wall): ${r.long.map((t) => t.ms).join(', ') || 'none'}`);
    if (over.length === 0) break;
  }
  assert.equal(counts.at(-1), 0, `every one of ${counts.length} loads had main-thread tasks working over ${CPU_LIMIT_MS} ms: counts ${counts.join(', ')}`);
});
