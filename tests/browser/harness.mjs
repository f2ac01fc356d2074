// Browser-test harness: a Vite dev server on a free port and Debian's Chromium through
// playwright-core (no browser download). Screenshots go to test-results/ as artifacts.
import { createServer } from 'vite';
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const RESULTS = resolve(ROOT, 'test-results');
mkdirSync(RESULTS, { recursive: true });

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];

/** Start Vite and Chromium; returns {url, browser, close()}. */
export async function startHarness() {
  const server = await createServer({
    configFile: resolve(ROOT, 'web/vite.config.mjs'),
    server: { port: 0, strictPort: false },
    logLevel: 'error',
  });
  await server.listen();
  const url = server.resolvedUrls.local[0];
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  return {
    url,
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
export const savedRuns = (page) => page.evaluate(() => new Promise((resolve) => {
  const req = indexedDB.open('attention-playground', 1);
  req.onupgradeneeded = () => req.result.createObjectStore('saved-work');
  req.onsuccess = () => {
    const all = req.result.transaction('saved-work').objectStore('saved-work').getAll(IDBKeyRange.bound('run:', 'run:\uffff'));
    all.onsuccess = () => {
      resolve(all.result.sort((a, b) => b.savedAt - a.savedAt));
      req.result.close();
    };
    all.onerror = () => resolve([]);
  };
  req.onerror = () => resolve([]);
}));

/** The newest saved run as {step, task}, or null. */
export const savedSnapshot = async (page) => {
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
  const end = Date.now() + timeout;
  let v = await read();
  while (!ok(v)) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeout} ms (last: ${JSON.stringify(v)})`);
    await new Promise((r) => setTimeout(r, 100));
    v = await read();
  }
  return v;
}

export const shot = (page, name) => page.screenshot({ path: resolve(RESULTS, `${name}.png`), fullPage: true });

/**
 * A page as a reader sees it four ways: 1280 and 375 px, light and dark. For each it checks that
 * nothing scrolls the page sideways and that the theme reached the page (dark: a dark background),
 * then saves `${name}-${width}-${scheme}.png`. Returns the page to 1280 px light.
 */
export async function shotFourWays(page, name, height = 900) {
  const seen = [];
  for (const [width, scheme] of [[1280, 'light'], [1280, 'dark'], [375, 'light'], [375, 'dark']]) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(400); // charts follow a ResizeObserver and the theme switch
    // On a busy machine later: wait for what is checked below (which still fails if it never comes).
    await page.waitForFunction(([w, dark]) => {
      const bg = getComputedStyle(document.body).backgroundColor.match(/\d+/g).slice(0, 3).map(Number);
      return document.documentElement.scrollWidth <= w && dark === (bg.reduce((a, b) => a + b, 0) / 3 < 128);
    }, [width, scheme === 'dark'], { timeout: 5000 }).catch(() => {});
    const m = await page.evaluate(() => {
      const bg = getComputedStyle(document.body).backgroundColor.match(/\d+/g).slice(0, 3).map(Number);
      return { wide: document.documentElement.scrollWidth, light: bg.reduce((a, b) => a + b, 0) / 3 };
    });
    if (m.wide > width) throw new Error(`${name} at ${width} px (${scheme}): the page is ${m.wide} px wide`);
    if ((scheme === 'dark') !== (m.light < 128)) throw new Error(`${name} at ${width} px: the ${scheme} theme did not reach the page (background lightness ${m.light})`);
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
  await page.locator('#module-status[data-ready="true"]').waitFor({ timeout: 30000 });
  await page.waitForFunction(() => document.body.dataset.run === 'ready', null, { timeout: 30000 });
}
