// The playground's Interventions panel: after a few hundred steps of copy, zeroing both heads of
// the first layer shows the held-out loss rising and says so in words ("loss a → b, accuracy x% → y%"),
// the examples mark the changed predictions, the main predictions panel (the plain model) does
// not move; Clear gives back the unmodified numbers exactly; a bad value shows the engine's
// message; a reset empties the list. Screenshots: test-results/interventions-{1280,375}-{light,dark}.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, RESULTS, openPlayground, until } from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const status = (page) => page.locator('.iv-status').textContent();
/** Choose layer, head and kind, press Apply, and wait for the list to hold `count` entries. */
async function apply(page, { layer, head, kind }, count) {
  await page.selectOption('select[name=iv-layer]', { value: String(layer) }); // by value: the labels count from 1
  await page.selectOption('select[name=iv-head]', { value: String(head) });
  await page.selectOption('select[name=iv-kind]', kind);
  await page.click('.iv-apply');
  await page.waitForFunction((n) => document.querySelectorAll('.iv-list li').length === n, count, { timeout: 30000 });
}

test('ablating the heads of the first layer shows the loss change in words; Clear restores it; reset empties it', async () => {
  const { page, errors } = await openPlayground(
    h,
    process.env.IV_HASH ?? '#task=copy&seq_len=8&layers=2&heads=2&d_model=32',
  );
  await page.evaluate(() => window.playground.train(300));
  await page.locator('#interventions-panel').scrollIntoViewIfNeeded();
  const plainPredictions = await page.locator('#predictions .summary').textContent();
  // Clear on an empty list: the unmodified numbers, to compare with later.
  await page.evaluate(() => window.playground.interventions.clear());
  const plain = await status(page);
  const m0 = plain.match(
    /^No interventions: the model as trained \(step 300, held out: loss (\d+\.\d+), accuracy (\d+\.\d)%\)\.$/,
  );
  assert.ok(m0, plain);
  // Layers and heads read from 1, as in the attention view; the options carry the engine's indices.
  assert.deepEqual(
    await page.locator('select[name=iv-head] option').evaluateAll((o) => o.map((x) => `${x.value}:${x.textContent}`)),
    ['0:1', '1:2'],
  );
  await apply(page, { layer: 0, head: 0, kind: 'zero' }, 1);
  await apply(page, { layer: 0, head: 1, kind: 'zero' }, 2);
  const text = await status(page);
  const m = text.match(/^At step 300, held out: loss (\d+\.\d+) → (\d+\.\d+), accuracy (\d+\.\d)% → (\d+\.\d)%/);
  assert.ok(m, text);
  assert.equal(m[1], m0[1], 'the "before" is the unmodified loss');
  assert.equal(m[3], m0[2]);
  assert.ok(Number(m[2]) > Number(m[1]) + 0.1, `loss ${m[1]} → ${m[2]}`);
  assert.ok(Number(m[4]) < Number(m[3]), `accuracy ${m[3]} → ${m[4]}`);
  assert.match(text, /\d+ scored positions? of the 4 examples below changed prediction\./);
  assert.deepEqual(await page.locator('.iv-list li span').allTextContents(), [
    'layer 1 head 1: zero',
    'layer 1 head 2: zero',
  ]);
  assert.ok((await page.locator('.iv-examples .tok.changed').count()) > 0, 'changed predictions are marked');
  assert.equal(
    await page.locator('#predictions .summary').textContent(),
    plainPredictions,
    "the plain model's panel stays",
  );
  for (const [width, scheme] of [
    [1280, 'light'],
    [1280, 'dark'],
    [375, 'light'],
    [375, 'dark'],
  ]) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: 900 });
    // The panel fits the viewport and nothing in it but the examples (which scroll) is wider
    // (its charts follow a ResizeObserver, late on a busy machine).
    await until(
      page,
      () => {
        const p = /** @type {HTMLElement} */ (document.getElementById('interventions-panel'));
        return {
          ok: p.getBoundingClientRect().right <= innerWidth && p.scrollWidth <= p.clientWidth,
          right: p.getBoundingClientRect().right,
          scrollWidth: p.scrollWidth,
          clientWidth: p.clientWidth,
        };
      },
      `${width} ${scheme}: the panel not scrolling sideways`,
    );
    await page.locator('#interventions-panel').screenshot({ path: `${RESULTS}/interventions-${width}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
  // A position out of range: the engine's message, and the list in effect stays.
  await page.selectOption('select[name=iv-kind]', 'position');
  await page.fill('input[name=iv-position]', '99');
  await page.click('.iv-apply');
  await page.locator('.iv-error:not([hidden])').waitFor({ timeout: 10000 });
  assert.match(
    await page.locator('.iv-error').textContent(),
    /^Not applied: interventions\[\d\]\.position: 99 is out of range; positions are 0 to \d+/,
  );
  assert.equal(await page.locator('.iv-list li').count(), 2);
  // Clear: the unmodified numbers, exactly as before.
  await page.click('.iv-clear');
  await page.waitForFunction(() => document.querySelectorAll('.iv-list li').length === 0);
  await page.locator('.iv-status', { hasText: 'No interventions' }).waitFor();
  assert.equal(await status(page), plain);
  // Ablate again; Clear all, and a refresh (training moved on) that starts before the clear's
  // answer: the cleared list stays cleared (the refresh used to re-apply the old list).
  await apply(page, { layer: 1, head: 0, kind: 'uniform' }, 1);
  const left = await page.evaluate(async () => {
    const iv = window.playground.interventions;
    await Promise.all([iv.clear(), iv.refresh()]);
    return document.querySelectorAll('.iv-list li').length;
  });
  assert.equal(left, 0, 'a refresh racing Clear all brought the cleared list back');
  // Ablate again, then reset: the new run starts with none.
  await apply(page, { layer: 1, head: 0, kind: 'uniform' }, 1);
  await page.evaluate(() => window.playground.reset());
  await page
    .locator('.iv-status', { hasText: /^No interventions: the model as trained\.$/ })
    .waitFor({ timeout: 10000 });
  assert.equal(await page.locator('.iv-list li').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
