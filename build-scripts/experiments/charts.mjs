// build-scripts/experiments/charts.mjs — <id>.png for each report: the experiments page's own
// chart of the experiment (mean ± sd per grid point, a dot per seed), built with the results in
// `out` and photographed in headless Chromium. The page runs on Vite's dev server, which lets it
// read an injected set of files (window.__experimentFiles: web/src/pages/experiments/results.js)
// instead of the bundled docs/experiments/, so fresh results are drawn before they are committed.
import { createServer } from 'vite';
import { chromium } from 'playwright-core';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];

/**
 * Photograph the page's chart of each experiment into <out>/<id>.png.
 * @param {string[]} ids
 * @param {string} out the folder with <id>.json (or docs/experiments'), <id>.csv, <id>.summary.csv
 * @param {{defs?: string, width?: number}} [opts] defs: where the definitions are when not in out
 */
export async function drawCharts(ids, out, { defs = join(ROOT, 'docs/experiments'), width = 900 } = {}) {
  const files = {};
  for (const dir of [defs, out])
    for (const f of readdirSync(dir)) if (/\.(json|csv)$/.test(f)) files[f] = readFileSync(join(dir, f), 'utf8');
  const server = await createServer({
    configFile: join(ROOT, 'web/vite.config.mjs'),
    server: { port: 0, strictPort: false },
    logLevel: 'error',
  });
  await server.listen();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: FLAGS,
  });
  try {
    const page = await browser.newPage({
      viewport: { width, height: 900 },
      colorScheme: 'light',
      deviceScaleFactor: 2,
    });
    await page.addInitScript((f) => {
      globalThis.__experimentFiles = f;
    }, files);
    await page.goto(`${server.resolvedUrls.local[0]}experiments.html`);
    await page.locator('.xp[data-experiments]').waitFor({ timeout: 30000 });
    // Vite shows a failed module (e.g. the wasm not built yet) as an overlay over the page: a chart
    // taken then would be a picture of the error.
    if (await page.locator('vite-error-overlay').count())
      throw new Error(
        `experiments: the experiments page shows a build error: ${(await page.locator('vite-error-overlay').evaluate((e) => e.shadowRoot?.querySelector('.message')?.textContent ?? '')).slice(0, 300)}`,
      );
    for (const id of ids) {
      const chart = page.locator(`.xp-experiment[data-id="${id}"] .xp-chart:not(.xp-curves)`);
      if (!(await chart.count())) {
        const why = await page
          .locator(`.xp-experiment[data-id="${id}"] .apd-error, .xp-experiment[data-id="${id}"] .xp-empty`)
          .allTextContents();
        throw new Error(`experiments: ${id}: the page draws no chart: ${why.join(' ') || 'no such experiment'}`);
      }
      await chart.screenshot({ path: join(out, `${id}.png`) });
      console.error(`experiments: ${id}.png drawn by the experiments page`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}
