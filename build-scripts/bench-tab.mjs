// build-scripts/bench-tab.mjs — the in-tab row of `npm run bench`: Debian's Chromium (through
// playwright-core) opens the built playground (dist/, served as a static host would) with the
// reference model tiny-ref in the URL hash, plays at max speed, and reads the training rate from
// the page: the step counter as it changes, with the page's own clock, over a window after a
// warm-up (and the page's smoothed steps/s readout beside it). `isolated` serves the site with
// COOP/COEP, so the page is crossOriginIsolated and runs the threaded build. Also run alone:
//   node build-scripts/bench-tab.mjs [--quick] [--json] [--isolated] [--dist DIR]   (DIR: a built site, as it is)
// Skips (returns {skipped: reason}) when Chromium or playwright-core is missing.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];

/** tiny-ref as in bench/bench_train.cpp, as the playground's URL hash (steps: never reached). */
export const TINY_REF = {
  task: 'random',
  vocab: 64,
  seq_len: 64,
  batch: 16,
  d_model: 64,
  heads: 4,
  layers: 2,
  ffn: 256,
  activation: 'gelu',
  norm_position: 'pre',
  position: 'learned',
  causal: true,
  lr: 0.003,
  eval_every: 0,
  seed: 1,
  steps: 1000000,
  speed: 0,
};
export const tinyRefHash = () =>
  `#${Object.entries(TINY_REF)
    .map(([k, v]) => `${k}=${v}`)
    .join('&')}`;

/**
 * Measure tiny-ref's steps/s in the tab.
 * @param {{quick?: boolean, dist?: string, isolated?: boolean, log?: (...a: unknown[]) => void}} [opts]
 *   dist: serve this built folder as it is (default: dist/, rebuilt when older than web/src);
 *   isolated: with COOP/COEP (the threaded build, which the page must then say it runs)
 * @returns {Promise<{steps_per_s: number, readout_steps_per_s: number|null, steps: number, seconds: number,
 *   inspect_share: number|null, variant: string, threads: number} | {skipped: string}>}
 */
export async function measureInTab({ quick = false, dist, isolated = false, log = console.error } = {}) {
  log(`bench: in-tab (Chromium, built site${isolated ? ', crossOriginIsolated' : ''}) tiny-ref`);
  return withBuiltPage({ dist, isolated }, tinyRefHash(), async (page) => {
    const status = page.locator('#module-status');
    const variant = (await status.getAttribute('data-variant')) ?? '?';
    const threads = Number((await status.getAttribute('data-threads')) ?? 1);
    if (isolated && variant !== 'threads')
      throw new Error(`the isolated page runs the ${variant} build: ${await status.getAttribute('title')}`);
    await watchSteps(page);
    await page.click('#play');
    const [warm, span] = quick ? [1500, 2500] : [4000, 12000];
    await page.waitForTimeout(warm);
    const start = await page.evaluate(() => ({
      n: window.benchSeen.length,
      inspect: window.playground.model?.inspectMs ?? null,
      t: performance.now(),
    }));
    await page.waitForTimeout(span);
    const r = await page.evaluate((s) => {
      const seen = window.benchSeen.slice(s.n);
      const readout = document.getElementById('steps-per-s')?.dataset.value;
      const inspect = window.playground.model?.inspectMs;
      return {
        seen,
        readout: readout ? Number(readout) : null,
        inspect: s.inspect === null || inspect == null ? null : inspect - s.inspect,
        wall: performance.now() - s.t,
      };
    }, start);
    const { steps, seconds, rate } = rateOf(r.seen);
    return {
      steps_per_s: rate,
      readout_steps_per_s: r.readout,
      steps,
      seconds,
      inspect_share: r.inspect === null ? null : r.inspect / r.wall,
      variant,
      threads,
    };
  });
}

/**
 * Record every change of the playground's step counter, with the page's clock, in window.benchSeen.
 * @param {import('playwright-core').Page} page
 */
export function watchSteps(page) {
  return page.evaluate(() => {
    const out = /** @type {HTMLElement} */ (document.getElementById('step-counter'));
    const seen = [];
    Object.assign(window, { benchSeen: seen });
    new MutationObserver(() => seen.push([Number(out.textContent), performance.now()])).observe(out, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
}

/** @param {[number, number][]} seen (step, ms) pairs */
export function rateOf(seen) {
  if (seen.length < 2) throw new Error('the step counter did not move');
  const [[s0, t0], [s1, t1]] = [seen[0], seen[seen.length - 1]];
  const seconds = (t1 - t0) / 1000;
  return { steps: s1 - s0, seconds, rate: (s1 - s0) / seconds };
}

/**
 * Serve the built site, open index.html with `hash` in Chromium at 1280 px, wait for the module
 * and the run, and hand the page to `fn`; fails on a page error or a hash the page ignored.
 * @template T
 * @param {{dist?: string, isolated?: boolean}} opts
 * @param {string} hash
 * @param {(page: import('playwright-core').Page) => Promise<T>} fn
 * @returns {Promise<T | {skipped: string}>}
 */
export async function withBuiltPage({ dist, isolated = false }, hash, fn) {
  if (!existsSync(CHROMIUM))
    return { skipped: `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM)` };
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    return { skipped: 'playwright-core is not installed (npm install)' };
  }
  const { ensureDist, DIST } = await import('../tests/browser/dist.mjs');
  const { serveStatic } = await import('../tests/browser/static-server.mjs');
  if (!dist) await ensureDist();
  const server = await serveStatic(dist ?? DIST, {}, { isolate: isolated });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/index.html${hash}`); // isolated: threads by default
    await page.locator('#module-status[data-ready="true"]').waitFor({ timeout: 60000 });
    await page.waitForFunction(() => document.body.dataset.run === 'ready', null, { timeout: 60000 });
    const notice = await page.locator('#notice').textContent();
    if (/Ignored/.test(notice ?? '')) throw new Error(`the page did not take the hash: ${notice}`);
    const out = await fn(page);
    if (errors.length) throw new Error(`the page failed: ${errors.join('; ')}`);
    return out;
  } finally {
    await browser.close();
    await server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--dist');
  const r = await measureInTab({
    quick: args.includes('--quick'),
    isolated: args.includes('--isolated'),
    dist: at >= 0 ? args[at + 1] : undefined,
  });
  if (args.includes('--json')) console.log(JSON.stringify(r));
  else console.log(r);
}
