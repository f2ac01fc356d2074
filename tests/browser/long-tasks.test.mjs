// Six widgets on one page (built dist/, tests/browser/widget-fixtures.mjs six.html) load and train
// together with no main-thread task over 100 ms: a PerformanceObserver for 'longtask' (buffered,
// from the page's start) counts them. The page reports by itself through the console, so that
// no Playwright call runs in the page while it is measured (Playwright's injected script takes a
// long task of its own to compile). A count, not a timing of the machine. The causes a profile
// found, and their fixes: the first Intl call loading ICU (widget-app.js: no toLocaleString);
// charts and heatmaps drawn all at once with forced layouts (light-line-chart.js: one frame queue with
// a budget, width from the ResizeObserver; attention-panel.js: a few maps per task; heatmap.js:
// putImageData, no resize when unchanged); a canvas font loaded in the middle of a draw
// (attention-playground.js: fonts loaded in idle time).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { DIST, ensureDist } from './dist.mjs';
import { serveStatic } from './static-server.mjs';
import { FIXTURES } from './widget-fixtures.mjs';

const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];
const STEPS = 100; // every widget trains past this many steps (of 150) during the measurement

let server;
let browser;

before(async () => {
  await ensureDist();
  server = await serveStatic(DIST, FIXTURES);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

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
    const done = ws.length > 0 && ws.every((w) => w.status === 'ready' && w.step >= steps);
    if (!failed && !done && performance.now() - t0 < 120000) return;
    clearInterval(timer);
    const report = () => console.log(`__long-tasks ${JSON.stringify({ long, done, error: failed?.error, steps: ws.map((w) => w.step) })}`);
    setTimeout(report, 600); // the last charts drawn
  }, 250);
}

/** One page load of the six widgets: its report ({long, done, steps, error}) and page errors. */
async function measure() {
  const p = await browser.newPage({ viewport: { width: 1400, height: 1400 } });
  const errors = [];
  p.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  const report = new Promise((resolve) => p.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    if (m.text().startsWith('__long-tasks ')) resolve(JSON.parse(m.text().slice('__long-tasks '.length)));
  }));
  await p.addInitScript(reporter, STEPS);
  await p.goto(`${server.url}/fixtures/six.html`);
  const r = await report;
  await p.close();
  return { r, errors };
}

// On this 2-core machine a start-up task of ~25 ms of work sometimes stretches past 100 ms
// (seen: 110 and 156 ms at 1-2 s after load, on a quiet machine). Up to three page loads; every
// one must train and raise no error, and at least one must have no task over 100 ms. Every
// load's count is printed, so a regression to the old 1-3 long tasks per load shows at once.
const ATTEMPTS = 3;

test('six widgets load and train with no main-thread task over 100 ms', { timeout: 540000 }, async () => {
  const counts = [];
  for (let i = 0; i < ATTEMPTS; i++) {
    const { r, errors } = await measure();
    assert.ok(r.done, `the six widgets trained past ${STEPS} steps (steps ${r.steps}, error ${r.error})`);
    assert.deepEqual(errors, []);
    const over = r.long.filter((t) => t.ms > 100);
    counts.push(over.length);
    console.log(`load ${i + 1}: main-thread tasks over 50 ms: ${r.long.map((t) => `${t.ms} ms`).join(', ') || 'none'}; over 100 ms: ${JSON.stringify(over)}`);
    if (over.length === 0) break;
  }
  assert.equal(counts.at(-1), 0, `every one of ${ATTEMPTS} loads had tasks over 100 ms: counts ${counts.join(', ')}`);
});
