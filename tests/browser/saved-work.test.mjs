// The user's weights are never thrown away by the page: the snapshot saved in IndexedDB stays
// through any number of reloads until a newer snapshot replaces it or the user dismisses the
// offer; a model file that fails to import leaves the page as it was (the same model, usable,
// training again if it was, body[data-run] not stuck at "building"). Screenshots in test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, shot, ready, savedSnapshot, until, recordSaves } from './harness.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const counter = async (page) => Number(await page.locator('#step-counter').textContent());
const playButtonBack = (page) => page.waitForFunction(() => document.getElementById('play').textContent === 'Play', null, { timeout: 60000 });

async function trainAndSave(page, steps) {
  await ready(page);
  await page.click('#play');
  await page.waitForFunction((n) => Number(document.getElementById('step-counter').textContent) >= n, steps, { timeout: 60000 });
  await playButtonBack(page);
  await until(null, async () => { const saved = await savedSnapshot(page); return { ok: saved?.step === steps, saved }; }, `the snapshot of step ${steps} in IndexedDB`);
  assert.deepEqual(await savedSnapshot(page), { step: steps, task: 'copy' });
}

test('the saved snapshot survives reloads without an answer, and restores', { timeout: 180000 }, async () => {
  const ctx = await h.browser.newContext();
  await ctx.addInitScript(recordSaves);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${h.url}#task=copy&steps=20&seed=9`);
  await trainAndSave(page, 20);
  for (const visit of [1, 2, 3]) {
    await page.reload();
    await ready(page);
    const offer = page.locator('#restore-offer');
    await offer.waitFor({ timeout: 10000 });
    assert.match(await offer.textContent(), /copy at step 20/, `visit ${visit}`);
    await until(page, () => window.__saves.some((w) => w.key === 'state' && w.done), `visit ${visit}: the page's own save of its settings`); // done
    assert.deepEqual(await savedSnapshot(page), { step: 20, task: 'copy' }, `visit ${visit}: still saved`);
  }
  await page.click('#restore-saved');
  await page.locator('#notice', { hasText: 'at step 20' }).waitFor({ timeout: 30000 });
  await ready(page);
  assert.equal(await counter(page), 20);
  assert.deepEqual(await savedSnapshot(page), { step: 20, task: 'copy' }, 'restoring keeps it');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('dismissing the offer forgets the snapshot; a newer snapshot replaces it', { timeout: 180000 }, async () => {
  const ctx = await h.browser.newContext();
  const page = await ctx.newPage();
  await page.goto(`${h.url}#task=copy&steps=12&seed=4`);
  await trainAndSave(page, 12);
  // A newer model trained past step 0 replaces it (an untrained one does not).
  await page.reload();
  await ready(page);
  await page.locator('#restore-offer').waitFor({ timeout: 10000 });
  await page.click('#step');
  await page.waitForFunction(() => document.getElementById('step-counter').textContent === '1');
  await until(null, async () => { const saved = await savedSnapshot(page); return { ok: saved?.step === 1, saved }; }, 'the snapshot of step 1 in IndexedDB');
  assert.deepEqual(await savedSnapshot(page), { step: 1, task: 'copy' });
  // Dismissed: gone for good.
  await page.reload();
  await ready(page);
  await page.locator('#restore-offer', { hasText: 'copy at step 1.' }).waitFor({ timeout: 10000 });
  await page.click('#dismiss-saved');
  await until(null, async () => { const saved = await savedSnapshot(page); return { ok: saved === null, saved }; }, 'the snapshot gone from IndexedDB'); // late on a busy machine
  assert.equal(await savedSnapshot(page), null);
  await page.reload();
  await ready(page); // the offer comes with the first model, before the page is ready
  assert.equal(await page.locator('#restore-offer').count(), 0);
  await ctx.close();
});

test('a model file that fails to import leaves the page as it was, usable', { timeout: 180000 }, async () => {
  const page = await h.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${h.url}#task=copy&steps=10&seed=3`);
  await ready(page);
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('step-counter').textContent) >= 10, null, { timeout: 60000 });
  await playButtonBack(page);
  const broken = { name: 'broken.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.from('this is not a model file') };
  // Paused: the same model, still ready, at the same step; Play trains it.
  await page.setInputFiles('#import-model', broken);
  await page.locator('#notice', { hasText: 'Could not import broken.safetensors' }).waitFor({ timeout: 10000 });
  await page.waitForFunction(() => document.body.dataset.run === 'ready', null, { timeout: 10000 });
  assert.equal(await counter(page), 10);
  assert.equal(await page.locator('#play').isDisabled(), false);
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('step-counter').textContent) > 15, null, { timeout: 30000 });
  // Training: it trains on after the failed import.
  await page.setInputFiles('#import-model', { ...broken, name: 'broken-2.safetensors' });
  await page.locator('#notice', { hasText: 'Could not import broken-2.safetensors' }).waitFor({ timeout: 10000 });
  await page.waitForFunction(() => document.body.dataset.run === 'ready', null, { timeout: 10000 });
  const at = await counter(page);
  await page.waitForFunction((s) => Number(document.getElementById('step-counter').textContent) > s + 5, at, { timeout: 30000 });
  assert.equal(await page.locator('#play').textContent(), 'Pause');
  await shot(page, 'saved-work-failed-import');
  assert.deepEqual(errors, []);
  await page.close();
});
