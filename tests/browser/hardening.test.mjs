// The playground keeps what the user had when things go wrong, asserted on what a person sees:
// training that diverges stops with the core's message and suggestion, and lr/clip then change
// on the live model (no rebuild, same step); a crashed worker is replaced and the model comes
// back from its last checkpoint with a notice; after a reload the saved model is offered and
// restored. Screenshots go to test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, shot, ready, savedCheckpoint, until } from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const counter = async (page) => Number(await page.locator('#step-counter').textContent());
const playButtonBack = (page) =>
  page.waitForFunction(() => document.getElementById('play').textContent === 'Play', null, { timeout: 60000 });

test('divergence stops training with the message, and lr then changes on the live model', async () => {
  // exp normalization at lr 1 without clipping overflows within a few steps.
  const { page, errors } = await openPage(
    h.browser,
    `${h.url}#task=copy&normalization=exp&lr=1&clip=0&warmup=0&steps=200`,
  );
  await ready(page);
  await page.click('#play');
  await page.locator('#notice', { hasText: 'Training stopped' }).waitFor({ timeout: 60000 });
  await playButtonBack(page);
  const notice = await page.locator('#notice').textContent();
  assert.match(notice, /became (NaN|infinite), so the update was refused .* lower lr \(now 1\) or set clip \(now 0\)/);
  const step = await counter(page);
  assert.ok(step < 200, `stopped early (step ${step})`);
  await page.fill('#ctl-lr', '0.001');
  await page.press('#ctl-lr', 'Tab');
  await page.locator('#notice', { hasText: 'lr is now 0.001' }).waitFor({ timeout: 10000 });
  assert.equal(await counter(page), step); // the same model: nothing was rebuilt
  const config = await page.evaluate(() => window.playground.model.info.config);
  assert.equal(config.lr, 0.001);
  await shot(page, 'hardening-divergence');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a crashed worker is restarted and the model restored from its last checkpoint', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}#task=copy&steps=30&seed=5`);
  await ready(page);
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('step-counter').textContent) >= 30, null, {
    timeout: 60000,
  });
  await playButtonBack(page);
  // Stopping kept a checkpoint; then the module traps (a test command that throws as a trap would).
  await page.waitForFunction(() => window.playground.model.checkpointBytes !== null, null, { timeout: 10000 });
  await page.evaluate(() => window.playground.client.call('trap').catch(() => {}));
  await page.waitForFunction(() => document.body.dataset.engine === 'restored', null, { timeout: 30000 });
  const notice = await page.locator('#notice').textContent();
  assert.match(
    notice,
    /crashed \(unreachable \(simulated trap\)\) and was restarted; the model was restored from its last checkpoint, at step 30/,
  );
  await ready(page);
  assert.equal(await counter(page), 30);
  // The restored model trains on in the new worker.
  await page.evaluate(() => window.playground.train(2));
  await page.waitForFunction(() => Number(document.getElementById('step-counter').textContent) >= 32, null, {
    timeout: 30000,
  });
  await shot(page, 'hardening-restored');
  assert.deepEqual(errors, []);
  await page.close();
});

test('after a reload, the saved model is offered and restored', async () => {
  const ctx = await h.browser.newContext();
  const page = await ctx.newPage();
  await page.goto(`${h.url}#task=copy&steps=20&seed=9`);
  await ready(page);
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('step-counter').textContent) >= 20, null, {
    timeout: 60000,
  });
  await playButtonBack(page);
  // The checkpoint reaches IndexedDB (later on a busy machine).
  await until(
    null,
    async () => {
      const saved = await savedCheckpoint(page);
      return { ok: saved?.step === 20, saved };
    },
    'the checkpoint of step 20 in IndexedDB',
    { timeout: 20000 },
  );
  await page.reload();
  await ready(page);
  const offer = page.locator('#restore-offer');
  await offer.waitFor({ timeout: 10000 });
  assert.match(await offer.textContent(), /copy at step 20/);
  await page.click('#restore-saved');
  await page.locator('#notice', { hasText: 'at step 20' }).waitFor({ timeout: 30000 });
  await ready(page);
  assert.equal(await counter(page), 20);
  await shot(page, 'hardening-restore-offer');
  await ctx.close();
});
