// "What the model uses": the encoding's card states the parameter count of the model as built
// (the registry's is for the default setup), and follows a change of seq_len; at 375 px, light and
// dark, the cards stay inside their panel (a formula too wide scrolls inside its card).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPlayground, RESULTS, until } from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const params = (page) => page.locator('#explain [data-kind="position"] .explain-params').textContent();

test("the position card counts this model's parameters: learned positions, 12 × 32, then 16 × 32", async () => {
  const { page, errors } = await openPlayground(h, '#task=copy&position=learned&seq_len=12&d_model=32');
  await until(
    page,
    (want) => {
      const text = document.querySelector('#explain [data-kind="position"] .explain-params')?.textContent;
      return { ok: text === want, text };
    },
    'the position card to count 384 parameters (a 12 × 32 table)',
    { arg: ' 384 parameters.', timeout: 20000 },
  );
  assert.equal(await params(page), ' 384 parameters.', 'a 12 × 32 table');
  await page.evaluate(() => window.playground.set('seq_len', 16));
  await until(
    page,
    (want) => {
      const text = document.querySelector('#explain [data-kind="position"] .explain-params')?.textContent;
      return { ok: text === want, text };
    },
    'the position card to count 512 parameters (a 16 × 32 table)',
    { arg: ' 512 parameters.', timeout: 20000 },
  );
  assert.equal(await params(page), ' 512 parameters.', 'a 16 × 32 table');
  assert.deepEqual(errors, []);
  await page.close();
});

// One page at 375 px for both schemes (these tests only look; it closes with the browser): its theme
// switches as the system's does.
/** @type {Promise<{page: import('playwright-core').Page, errors: string[]}> | undefined} */
let narrow;

for (const scheme of ['light', 'dark'])
  test(`375 px, ${scheme}: the cards of "What the model uses" stay inside their panel`, async () => {
    narrow ??= openPlayground(h, '#task=copy&position=rope', { width: 375, scheme });
    const { page, errors } = await narrow;
    await page.emulateMedia({ colorScheme: scheme });
    await until(
      page,
      (dark) => matchMedia('(prefers-color-scheme: dark)').matches === dark,
      `the page in the ${scheme} scheme`,
      { arg: scheme === 'dark' },
    );
    await page.locator('#explain-panel').scrollIntoViewIfNeeded();
    const over = await page.evaluate(() => {
      const panel = /** @type {HTMLElement} */ (document.getElementById('explain-panel')).getBoundingClientRect();
      return [...document.querySelectorAll('#explain .explain-card')]
        .map((c) => Math.round(c.getBoundingClientRect().right - panel.right))
        .filter((d) => d > 0);
    });
    assert.deepEqual(over, [], 'no card sticks out of the panel');
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth),
      'nothing scrolls sideways',
    );
    await page.locator('#explain-panel').screenshot({ path: `${RESULTS}/explain-375-${scheme}.png` });
    assert.deepEqual(errors, []);
  });
