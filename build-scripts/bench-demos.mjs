// build-scripts/bench-demos.mjs — the demos row of `npm run bench`: how long a reader of the built
// probe and extrapolation pages (Chromium, default settings, not isolated: the worker pool) waits
// for the demo's point. Times are the page's clock from its navigation start: `first`, the first
// telling result (a probe cell with a verdict, on its first seeds; an extrapolation curve drawn,
// on its first seeds), and `all`, the whole demo done (every cell or curve on every seed). Their
// ratio is what the turns buy (run/run-set.js: one seed of every cell first). Target: the first
// telling result within about 15 s on 2 cores (issue 44). Reported, never asserted.
//   node build-scripts/bench-demos.mjs [--json] [--dist DIR]
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { CHROMIUM, FLAGS } from './bench-tab.mjs';

/** Each demo page and what its first telling result is, as a selector that appears with it. */
const DEMOS = [
  { name: 'probe', page: 'probe.html', first: '.apd-grid td[data-state="partial"], .apd-grid td[data-state="done"]' },
  { name: 'extrapolation', page: 'extrapolation.html', first: '.apd-task-block:not([data-curves="[]"])[data-curves]' },
];

/**
 * @param {{dist?: string, log?: (...a: unknown[]) => void}} [opts]
 * @returns {Promise<Record<string, {first_s: number, all_s: number, ratio: number}> | {skipped: string}>}
 */
export async function measureDemos({ dist, log = console.error } = {}) {
  if (!existsSync(CHROMIUM)) return { skipped: `no Chromium at ${CHROMIUM}` };
  const { chromium } = await import('playwright-core');
  const { ensureDist, DIST } = await import('../tests/browser/dist.mjs');
  const { serveStatic } = await import('../tests/browser/static-server.mjs');
  if (!dist) await ensureDist();
  const server = await serveStatic(dist ?? DIST, {}, { isolate: false });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  /** @type {Record<string, {first_s: number, all_s: number, ratio: number}>} */
  const out = {};
  try {
    for (const demo of DEMOS) {
      log(`bench: the ${demo.name} demo's first telling result and its end (Chromium, built page)`);
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      // The page's own clock, sampled every 100 ms from its start (the reader's wait).
      await page.addInitScript((first) => {
        const seen = { first: NaN, all: NaN };
        Object.assign(window, { benchDemo: seen });
        const look = () => {
          if (Number.isNaN(seen.first) && document.querySelector(first)) seen.first = performance.now();
          if (Number.isNaN(seen.all) && document.querySelector('.apd[data-complete="true"]'))
            seen.all = performance.now();
          if (Number.isNaN(seen.all)) setTimeout(look, 100);
        };
        look();
      }, demo.first);
      await page.goto(`${server.url}/${demo.page}`);
      await page.waitForFunction(() => !Number.isNaN(window.benchDemo.all), null, { timeout: 600000, polling: 500 });
      const { first, all } = await page.evaluate(() => window.benchDemo);
      out[demo.name] = { first_s: first / 1000, all_s: all / 1000, ratio: first / all };
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return out;
}

/** The row's lines. @param {Awaited<ReturnType<typeof measureDemos>>} r */
export function demosRows(r) {
  if ('skipped' in r) return [`demos: skipped: ${r.skipped}`];
  return Object.entries(r).map(
    ([name, d]) =>
      `demo ${name}: first telling result ${d.first_s.toFixed(1)} s after the page's start, all done ${d.all_s.toFixed(1)} s; first / all ${d.ratio.toFixed(2)} (target: first within about 15 s)`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--dist');
  const r = await measureDemos({ dist: at >= 0 ? args[at + 1] : undefined });
  if (args.includes('--json')) console.log(JSON.stringify(r));
  else for (const line of demosRows(r)) console.log(line);
}
