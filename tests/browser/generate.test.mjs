// Generate panel: a person types a prompt and sees a continuation appear, on a next-token task
// (text) and on an answer-slot task (copy, with a held-out example and the right answer); and on
// copy with learned positions (12 of them), a typed prompt with spaces in Generate and in "Try
// your own input" gets its answer slots without touching the tokens count.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, shot, ready, until, WAIT } from './harness.mjs';

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

test('copy with 12 learned positions: typed prompts with spaces get their answer slots in both fields', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}#task=copy&position=learned&seq_len=12&steps=300`);
  await ready(page);
  await page.click('#play');
  await until(
    page,
    () =>
      document.getElementById('play').textContent === 'Play' &&
      Number(document.getElementById('step-counter').textContent) >= 300,
    'training to step 300',
    { timeout: WAIT.training * 1.5 },
  );
  // The tokens count defaults to the task's answer length (6 of the 12 positions), not 32.
  const count = await until(
    page,
    () => document.querySelector('#generate .gen-form')?.dataset.tokens,
    'the tokens count settled',
  );
  assert.equal(count, '6');
  assert.equal(await page.inputValue('#gen-tokens'), '6');
  await page.fill('#gen-prompt', '3 1 4 1 5 9');
  await page.click('#gen-run');
  await page.locator('#generate .gen-out[data-generated="6"]').waitFor({ timeout: WAIT.fact });
  assert.equal(await page.locator('#generate .gen-out .error').count(), 0, 'no error under Generate');
  // Slots typed at the end are the engine's to add: "2 7 _ _" answers in two tokens.
  await page.fill('#gen-prompt', '2 7 _ _');
  await page.click('#gen-run');
  await page.locator('#generate .gen-out[data-generated="2"]').waitFor({ timeout: WAIT.fact });
  // Try your own input: spaces separate tokens, and the six slots are added.
  await page.fill('#free-input', '3 1 4 1 5 9');
  await page.click('#free-run');
  const rows = await until(
    page,
    () => {
      const out = document.querySelector('#free-input-form .free-out');
      const row = (/** @type {number} */ i) =>
        [...(out?.querySelectorAll('.tok-row')[i]?.querySelectorAll('.tok') ?? [])].map((t) => t.textContent);
      return {
        ok: row(1).length > 0 || Boolean(out?.querySelector('.error')),
        error: out?.querySelector('.error')?.textContent,
        input: row(0),
        model: row(1),
      };
    },
    'the model under Try your own input',
  );
  assert.equal(rows.error, undefined, `no error under Try your own input: ${rows.error}`);
  assert.deepEqual(rows.input, ['3', '1', '4', '1', '5', '9', '_', '_', '_', '_', '_', '_']);
  assert.equal(rows.model.length, 12);
  await shot(page, 'generate-copy-typed');
  assert.deepEqual(errors, []);
});
