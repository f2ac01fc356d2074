// build-scripts/bench-compare.mjs — the comparison row of `npm run bench`: the built playground
// in Chromium (not isolated: every run single-threaded, as the single-run in-tab row) trains
// tiny-ref twice side by side ("Compare runs", compare=seed=1,2: the same work per run) on its
// worker pool, and reads each run's rate from its row of the runs table, with the page's clock.
// Against the single-run in-tab row this is the comparison's cost per run (target: a run of a
// comparison keeps at least 95% of a single run's speed while there is a core per run).
//   node build-scripts/bench-compare.mjs [--quick] [--json] [--dist DIR]
import { pathToFileURL } from 'node:url';
import { TINY_REF, withBuiltPage, rateOf } from './bench-tab.mjs';

const HASH = `#${Object.entries({ ...TINY_REF, steps: 5000 }).map(([k, v]) => `${k}=${v}`).join('&')}&compare=${encodeURIComponent('seed=1,2')}`;

/**
 * @param {{quick?: boolean, dist?: string, log?: (...a: unknown[]) => void}} [opts]
 * @returns {Promise<{runs: number, steps_per_s: number[], seconds: number} | {skipped: string}>}
 */
export async function measureCompareInTab({ quick = false, dist, log = console.error } = {}) {
  log('bench: in-tab comparison of two runs (Chromium, built site) tiny-ref, seeds 1 and 2');
  return withBuiltPage({ dist }, HASH, async (page) => {
    await page.locator('#compare-view tr[data-run="1"]').waitFor({ timeout: 60000 });
    await page.evaluate(() => {
      const seen = /** @type {[number, number][][]} */ ([]);
      for (const row of document.querySelectorAll('#compare-view tbody tr[data-run]')) {
        const cell = /** @type {HTMLElement} */ (row.children[1]);
        const mine = /** @type {[number, number][]} */ ([]);
        seen.push(mine);
        new MutationObserver(() => mine.push([Number(cell.textContent), performance.now()]))
          .observe(cell, { childList: true, characterData: true, subtree: true });
      }
      Object.assign(window, { benchRuns: seen });
    });
    await page.locator('#compare-view .ap-transport button', { hasText: 'Play' }).first().click();
    const [warm, span] = quick ? [1500, 2500] : [4000, 12000];
    await page.waitForTimeout(warm);
    const start = await page.evaluate(() => window.benchRuns.map((s) => s.length));
    await page.waitForTimeout(span);
    const seen = await page.evaluate((n) => window.benchRuns.map((s, i) => s.slice(n[i])), start);
    const rates = seen.map((s) => rateOf(s));
    return { runs: rates.length, steps_per_s: rates.map((r) => r.rate), seconds: Math.min(...rates.map((r) => r.seconds)) };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--dist');
  const r = await measureCompareInTab({ quick: args.includes('--quick'), dist: at >= 0 ? args[at + 1] : undefined });
  if (args.includes('--json')) console.log(JSON.stringify(r));
  else console.log(r);
}
