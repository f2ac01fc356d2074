// The page loads the wasm module in a worker and shows which variant runs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, shot } from './harness.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

test('the playground loads the SIMD module in Chromium and says so', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}#task=copy`);
  const status = page.locator('#module-status');
  await status.and(page.locator('[data-ready="true"]')).waitFor({ timeout: 30000 });
  // the dev server sends COOP/COEP, but threads are opt-in (?threads=1, threads.test.mjs): SIMD here
  assert.equal(await status.getAttribute('data-variant'), 'simd');
  assert.match(await status.textContent(), /WebAssembly SIMD(, \d threads)? \(sse4\.1\)/);
  await shot(page, 'module-loaded');
  assert.deepEqual(errors, []);
});
