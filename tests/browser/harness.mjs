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

/** A new page that records console errors and uncaught exceptions. */
export async function openPage(browser, url, { width = 1280, height = 900 } = {}) {
  const page = await browser.newPage({ viewport: { width, height } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  await page.goto(url);
  return { page, errors };
}

export const shot = (page, name) => page.screenshot({ path: resolve(RESULTS, `${name}.png`), fullPage: true });

/** Wait until the playground's engine is loaded and its first model is built. */
export async function ready(page) {
  await page.locator('#module-status[data-ready="true"]').waitFor({ timeout: 30000 });
  await page.waitForFunction(() => document.body.dataset.run === 'ready', null, { timeout: 30000 });
}
