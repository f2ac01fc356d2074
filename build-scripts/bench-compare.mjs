// build-scripts/bench-compare.mjs — the comparison row of `npm run bench`: the built playground
// in Chromium (not isolated: every run single-threaded, as the single-run in-tab row) trains
// tiny-ref twice side by side ("Compare runs", compare=seed=1,2: the same work per run) on its
// worker pool, and reads each run's rate from its row of the runs table, with the page's clock.
// Against the single-run in-tab row this is the comparison's cost per run (target: a run of a
// comparison keeps at least 95% of a single run's speed while there is a core per run).
// The machine's own part of that cost is measured beside it (measureTwoAtOnce): two training
// processes at once (wasm-simd under Node, no page) against one alone. What the comparison loses
// beyond that is the page's: its drawing, messages and inspections.
//   node build-scripts/bench-compare.mjs [--quick] [--json] [--dist DIR]
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TINY_REF, withBuiltPage, rateOf } from './bench-tab.mjs';

const HASH = `#${Object.entries({ ...TINY_REF, steps: 5000 })
  .map(([k, v]) => `${k}=${v}`)
  .join('&')}&compare=${encodeURIComponent('seed=1,2')}`;

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
        new MutationObserver(() => mine.push([Number(cell.textContent), performance.now()])).observe(cell, {
          childList: true,
          characterData: true,
          subtree: true,
        });
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
    return {
      runs: rates.length,
      steps_per_s: rates.map((r) => r.rate),
      seconds: Math.min(...rates.map((r) => r.seconds)),
    };
  });
}

/** tiny-ref's steps/s from one run of the wasm-simd training bench (its JSON line). @param {string[]} cmd */
function trainRate(cmd) {
  return new Promise((done, fail) => {
    const p = spawn(cmd[0], cmd.slice(1), { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('error', fail);
    p.on('close', (code) => {
      if (code !== 0) return fail(new Error(`${cmd.join(' ')} exited with ${code}`));
      done(JSON.parse(out.trim().split('\n').at(-1)).steps_per_s);
    });
  });
}

/**
 * The machine's share of a comparison's cost: tiny-ref trained by two processes at once (wasm-simd
 * under Node, single-threaded, no page), each against one process alone, in this same run.
 * @param {{quick?: boolean, root?: string, log?: (...a: unknown[]) => void}} [opts]
 * @returns {Promise<{single: number, pair: number[], ratio: number}>} ratio: the slower of the pair / single
 */
export async function measureTwoAtOnce({
  quick = false,
  root = resolve(import.meta.dirname, '..'),
  log = console.error,
} = {}) {
  log('bench: two training processes at once against one (wasm-simd under Node, no page)');
  const cmd = ['node', resolve(root, 'build/wasm-simd/apbench-train.js'), ...(quick ? ['--quick'] : [])];
  const single = await trainRate(cmd);
  const pair = await Promise.all([trainRate(cmd), trainRate(cmd)]);
  return { single, pair, ratio: Math.min(...pair) / single };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--dist');
  const r = await measureCompareInTab({ quick: args.includes('--quick'), dist: at >= 0 ? args[at + 1] : undefined });
  if (args.includes('--json')) console.log(JSON.stringify(r));
  else console.log(r);
}
