// Generate panel: a person types a prompt and sees a continuation appear, on a next-token task
// (text) and on an answer-slot task (copy, with a held-out example and the right answer).
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

test('text task: typing a prompt and pressing Generate shows a continuation', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}#task=text&seq_len=16&steps=60`);
  await ready(page);
  await page.click('#play');
  await page.waitForFunction(
    () =>
      document.getElementById('play').textContent === 'Play' &&
      Number(document.getElementById('step-counter').textContent) >= 60,
    null,
    { timeout: 60000 },
  );
  await page.fill('#gen-prompt', 'The ');
  await page.fill('#gen-tokens', '20');
  await page.click('#gen-run');
  await page.locator('#generate .gen-out[data-generated="20"]').waitFor({ timeout: 20000 });
  const tokens = await page.locator('#generate .gen-tok').count();
  assert.equal(tokens, 20);
  await shot(page, 'generate-text');
  assert.deepEqual(errors, []);
});

test('copy task: a held-out example shows the model answer next to the right one', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}#task=copy&steps=400`);
  await ready(page);
  await page.click('#play');
  await page.waitForFunction(
    () =>
      document.getElementById('play').textContent === 'Play' &&
      Number(document.getElementById('step-counter').textContent) >= 400,
    null,
    { timeout: 90000 },
  );
  await page.click('#generate .gen-example');
  await page.locator('#generate .gen-line').nth(1).waitFor({ timeout: 20000 });
  const verdict = await page.locator('#generate .gen-out p').textContent();
  assert.match(verdict, /right/);
  await shot(page, 'generate-copy');
  assert.deepEqual(errors, []);
});
