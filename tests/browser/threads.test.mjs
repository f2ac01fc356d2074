// The threaded build in the page: the dev server sends COOP/COEP (web/vite.config.mjs), so the
// playground is crossOriginIsolated and by default loads the threaded build, says so in its
// engine badge ("WebAssembly SIMD, N threads"), trains, and explains invalid settings with the
// engine's own message; ?threads=0 opts out (the single-threaded SIMD module loads in its worker
// and the badge names it); a widget on the same isolated origin still runs the
// single-threaded SIMD build (widgets never rely on those headers). No timing is asserted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, shot, ready } from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const HASH = '#task=copy&seq_len=16&d_model=32&heads=4&layers=1&batch=16&steps=1000000&speed=0&eval_every=0';

test('the isolated playground runs the threaded build by default, says so and trains', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}${HASH}`);
  await ready(page);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  const status = page.locator('#module-status');
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  assert.ok(cores > 1, `this test needs 2 cores, the browser reports ${cores}`);
  const threads = Math.min(cores, 4);
  assert.equal(await status.getAttribute('data-variant'), 'threads');
  assert.equal(await status.getAttribute('data-threads'), String(threads));
  assert.match(await status.textContent(), new RegExp(`WebAssembly SIMD, ${threads} threads \\(sse4\\.1\\)`));
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('step-counter')?.textContent) >= 50, null, {
    timeout: 30000,
  });
  await page.click('#play'); // pause
  assert.ok(Number(await page.locator('#step-counter').textContent()) >= 50);
  await shot(page, 'threads-playground');
  assert.deepEqual(errors, []);
  await page.close();
});

test("in the threaded build an invalid setting is explained with the engine's message", async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}${HASH}`);
  await ready(page);
  assert.equal(await page.locator('#module-status').getAttribute('data-variant'), 'threads');
  await page.fill('#ctl-heads', '3'); // d_model 32: the engine's validation throws, and says why
  await page.press('#ctl-heads', 'Tab');
  await page.waitForFunction(() => document.body.dataset.run === 'invalid');
  // said once, beside the field just changed
  assert.match((await page.locator('#err-heads').textContent()) ?? '', /d_model: 32 is not divisible by heads = 3/);
  await page.fill('#ctl-heads', '4'); // and the engine lives on
  await page.press('#ctl-heads', 'Tab');
  await page.waitForFunction(() => document.body.dataset.run === 'ready', null, { timeout: 30000 });
  await shot(page, 'threads-invalid-then-valid');
  assert.deepEqual(errors, []);
  await page.close();
});

test('?threads=0 opts out: the isolated playground runs the single-threaded SIMD build', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}?threads=0${HASH}`);
  await ready(page);
  const status = page.locator('#module-status');
  assert.equal(await status.getAttribute('data-variant'), 'simd');
  assert.equal(await status.getAttribute('data-threads'), '1');
  assert.match((await status.textContent()) ?? '', /WebAssembly SIMD \(sse4\.1\)/);
  await shot(page, 'module-loaded');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a widget on an isolated page stays single-threaded', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}examples/blog-post.html`);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  const widget = page.locator('attention-playground[preset="playground"]');
  await widget.scrollIntoViewIfNeeded(); // widgets start when seen
  const foot = widget.locator('footer.ap-foot span').first();
  await foot.filter({ hasText: /WebAssembly/ }).waitFor({ timeout: 30000 });
  const text = await foot.textContent();
  assert.match(text ?? '', /WebAssembly SIMD/);
  assert.doesNotMatch(text ?? '', /threads/);
  assert.deepEqual(errors, []);
  await page.close();
});
