// The page loads the wasm module in a worker and shows which variant runs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, shot } from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

test('the playground loads the SIMD module in Chromium and says so', async () => {
  // the dev server sends COOP/COEP, so the playground would run the threaded build
  // (threads.test.mjs); ?threads=0 asks for the single-threaded one
  const { page, errors } = await openPage(h.browser, `${h.url}?threads=0#task=copy`);
  const status = page.locator('#module-status');
  await status.and(page.locator('[data-ready="true"]')).waitFor({ timeout: 30000 });
  assert.equal(await status.getAttribute('data-variant'), 'simd');
  assert.match(await status.textContent(), /WebAssembly SIMD \(sse4\.1\)/);
  await shot(page, 'module-loaded');
  assert.deepEqual(errors, []);
});
