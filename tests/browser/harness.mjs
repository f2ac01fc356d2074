// Browser-test harness: a Vite dev server on a free port and Debian's Chromium through
// playwright-core (no browser download). Screenshots go to test-results/ as artifacts.
import { createServer } from 'vite';
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { until } from './until.mjs';

export { until, WAIT, pausedPlayground, pausedWidget, frames } from './until.mjs';

export const ROOT = resolve(import.meta.dirname, '../..');
export const RESULTS = resolve(ROOT, 'test-results');
mkdirSync(RESULTS, { recursive: true });

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];

/**
 * Chromium: the suite's (ATTNPLAY_BROWSER_WS, the browser server run.mjs starts), or one of this
 * file's own. Each test's pages live in contexts of their own; close() closes what this file opened
 * (and, for a browser of its own, the browser).
 * @returns {Promise<import('playwright-core').Browser>}
 */
export function launchBrowser() {
  const ws = process.env.ATTNPLAY_BROWSER_WS;
  return ws ? chromium.connect(ws) : chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}

/**
 * A download's bytes (download.path() is not offered on a shared browser).
 * @param {import('playwright-core').Download} dl
 */
export async function downloaded(dl) {
  const chunks = [];
  for await (const c of await dl.createReadStream()) chunks.push(c);
  return Buffer.concat(chunks);
}

/**
 * The Vite dev server of web/ on a free port: {url, close()}. tests/browser/run.mjs starts one for
 * the whole suite and hands its URL to every file as ATTNPLAY_DEV_URL (the modules it transformed
 * for one file are served warm to the next).
 */
export async function startDevServer() {
  const server = await createServer({
    configFile: resolve(ROOT, 'web/vite.config.mjs'),
    server: { port: 0, strictPort: false },
    logLevel: 'error',
  });
  await server.listen();
  return { url: server.resolvedUrls.local[0], close: () => server.close() };
}

/**
 * Chromium and the dev server (the suite's, ATTNPLAY_DEV_URL, or one of this file's own):
 * {url, browser, close()}. Each test's page gets its own browser context (openPage), so nothing
 * of one test's page state reaches the next.
 */
export async function startHarness() {
  const shared = process.env.ATTNPLAY_DEV_URL;
  const server = shared ? { url: shared, close: async () => {} } : await startDevServer();
  const browser = await launchBrowser();
  return {
    url: server.url,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** A new page that records console errors and uncaught exceptions (scheme: the colour scheme it prefers). */
export async function openPage(browser, url, { width = 1280, height = 900, scheme = 'light' } = {}) {
  const page = await browser.newPage({ viewport: { width, height }, colorScheme: scheme });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  await page.goto(url);
  return { page, errors };
}

/**
 * The saved runs in IndexedDB (state/saved-work.js), newest first: [{id, tab, step, task,
 * position, normalization, savedAt}].
 */
export const savedRuns = (page) =>
  page.evaluate(
    () =>
      new Promise((resolve) => {
        const req = indexedDB.open('attention-playground', 1);
        req.onupgradeneeded = () => req.result.createObjectStore('saved-work');
        req.onsuccess = () => {
          const all = req.result
            .transaction('saved-work')
            .objectStore('saved-work')
            .getAll(IDBKeyRange.bound('run:', 'run:\uffff'));
          all.onsuccess = () => {
            resolve(all.result.sort((a, b) => b.savedAt - a.savedAt));
            req.result.close();
          };
          all.onerror = () => resolve([]);
        };
        req.onerror = () => resolve([]);
      }),
  );

/** The newest saved run as {step, task}, or null. */
export const savedCheckpoint = async (page) => {
  const [run] = await savedRuns(page);
  return run ? { step: run.step, task: run.task } : null;
};

/**
 * Wait (bounded) until `read()` gives a value that `ok` accepts; returns it, or fails with `what`
 * and the last value read.
 * @template T
 * @param {() => Promise<T>} read
 * @param {(v: T) => boolean} ok
 * @param {string} what
 */
export async function waitForValue(read, ok, what, timeout = 15000) {
  const seen = await until(
    null,
    async () => {
      const v = await read();
      return { ok: ok(v), v };
    },
    what,
    { timeout },
  );
  return seen.v;
}

/**
 * An init script (`context.addInitScript(recordSaves)`): window.__saves lists the page's IndexedDB
 * writes, {key, done} (done: its transaction completed), so that a test can wait for the page's
 * own saves (its settings: key 'state') instead of for a time.
 */
export function recordSaves() {
  window.__saves = [];
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (value, key) {
    const rec = { key, done: false };
    window.__saves.push(rec);
    this.transaction.addEventListener('complete', () => {
      rec.done = true;
    });
    return put.call(this, value, key);
  };
}

/**
 * A full-page screenshot. Blocks with `content-visibility: auto` (the course's text) are laid out
 * only near the window, so a capture of the whole page would show them blank: they are shown for
 * the capture (a CSSOM change, which the pages' CSP allows) and left as they were after it.
 */
export async function shot(page, name) {
  const shown = await page.evaluate(() => {
    const auto = [...document.querySelectorAll('main *')].filter(
      (e) => getComputedStyle(e).contentVisibility === 'auto',
    );
    for (const e of auto) /** @type {HTMLElement} */ (e).style.contentVisibility = 'visible';
    return auto.length;
  });
  await page.screenshot({ path: resolve(RESULTS, `${name}.png`), fullPage: true });
  if (shown)
    await page.evaluate(() => {
      for (const e of document.querySelectorAll('main *')) /** @type {HTMLElement} */ (e).style.contentVisibility = '';
    });
}

/**
 * A page as a reader sees it four ways: 1280 and 375 px, light and dark. For each it checks that
 * nothing scrolls the page sideways and that the theme reached the page (dark: a dark background),
 * then saves `${name}-${width}-${scheme}.png`. Returns the page to 1280 px light.
 */
export async function shotFourWays(page, name, height = 900) {
  const seen = [];
  for (const [width, scheme] of [
    [1280, 'light'],
    [1280, 'dark'],
    [375, 'light'],
    [375, 'dark'],
  ]) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height });
    // Charts follow a ResizeObserver and the theme switch: wait for what is checked below.
    await until(
      page,
      ([w, dark]) => {
        const bg = getComputedStyle(document.body).backgroundColor.match(/\d+/g).slice(0, 3).map(Number);
        const wide = document.documentElement.scrollWidth;
        const light = bg.reduce((a, b) => a + b, 0) / 3;
        return { ok: wide <= w && dark === light < 128, wide, light };
      },
      `${name} at ${width} px (${scheme}): the page no wider than the window (wide) and the theme on it (background lightness)`,
      { arg: [width, scheme === 'dark'] },
    );
    await shot(page, `${name}-${width}-${scheme}`);
    seen.push(`${width}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height });
  return seen;
}

/**
 * The playground at `hash`, once its first model is built (openPage's options).
 * @returns {Promise<{page: import('playwright-core').Page, errors: string[]}>}
 */
export async function openPlayground(h, hash, opts = {}) {
  const opened = await openPage(h.browser, `${h.url}${hash}`, opts);
  await ready(opened.page);
  return opened;
}

/** Wait until the playground's engine is loaded and its first model is built. */
export async function ready(page) {
  await until(
    page,
    () => document.getElementById('module-status')?.dataset.ready === 'true',
    'the training engine to load',
    { timeout: 30000 },
  );
  await until(
    page,
    () => ({ ok: document.body.dataset.run === 'ready', run: document.body.dataset.run }),
    'the first model to be built (body[data-run=ready])',
    { timeout: 30000 },
  );
}
