// The playground's "Accuracy against length" panel: on demand it evaluates the current model at
// L … 4L; a length the encoding cannot address is marked on the charts and listed with the
// engine's reason (learned positions past their table), never silently missing; an encoding that
// addresses every length gets a point at each; a new model clears the old curves. At 1280 px
// light and 375 px dark. Screenshots go to test-results/lengths-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, RESULTS, ready, openPlayground, frames } from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const open = (hash, opts) => openPlayground(h, hash, opts);

/** Click "Evaluate at lengths" and wait for its summary; the panel's points and list. */
async function evaluate(page) {
  await page.click('.lengths-run');
  await page.locator('.lengths-status', { hasText: /^At step/ }).waitFor({ timeout: 60000 });
  return page.evaluate(() => ({
    points: window.playground.lengths.points,
    refused: [...document.querySelectorAll('.lengths-refused li')].map((li) => ({
      from: li.dataset.from,
      text: li.textContent,
    })),
    drawn: window.playground.lengths.acc.plot.data[1].filter((v) => v != null).length,
    markers: window.playground.lengths.acc.markers.map((m) => m.label),
  }));
}

test("learned positions: lengths past the table are marked with the engine's reason; a new model clears the curves", async () => {
  const { page, errors } = await open('#task=copy&position=learned&seq_len=16');
  await page.evaluate(() => window.playground.train(120));
  const r = await evaluate(page);
  assert.equal(r.points.length, 13, 'L = 16 to 64 in steps of 4');
  assert.deepEqual(
    r.points.map((p) => p.length),
    [16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64],
  );
  assert.ok(r.points[0].accuracy > 0 && r.points[0].accuracy <= 1, `accuracy at 16: ${r.points[0].accuracy}`);
  assert.ok(
    r.points
      .slice(1)
      .every((p) => p.accuracy === null && /learned positions exist only for lengths up to 16/.test(p.reason)),
  );
  assert.equal(r.refused.length, 1, 'one reason, listed once');
  assert.equal(r.refused[0].from, '20');
  assert.match(
    r.refused[0].text,
    /^Not evaluable at 20, 24, .*64: position: learned positions exist only for lengths up to 16, and this sequence has 20 tokens/,
  );
  assert.equal(r.drawn, 1, 'one drawn point: length 16');
  assert.match(await page.locator('.lengths-status').textContent(), /^At step 120: evaluated at 1 of 13 lengths/);
  assert.deepEqual(r.markers, ['trained at 16', '✕ 20+: not evaluable']);
  await page.locator('#lengths-panel').scrollIntoViewIfNeeded();
  await frames(page);
  await page.locator('#lengths-panel').screenshot({ path: `${RESULTS}/lengths-learned-1280-light.png` });
  // A new model: the old model's curves and reasons go.
  await page.fill('#ctl-lr', '0.002');
  await page.press('#ctl-lr', 'Tab');
  await ready(page);
  await page.locator('.lengths-status', { hasText: 'Not evaluated yet.' }).waitFor({ timeout: 10000 });
  assert.equal(await page.locator('.lengths-refused li').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('rope at 375 px, dark: every length from L to 4L gets a point', async () => {
  const { page, errors } = await open('#task=copy&position=rope&seq_len=8', { width: 375, scheme: 'dark' });
  await page.evaluate(() => window.playground.train(150));
  const r = await evaluate(page);
  assert.deepEqual(
    r.points.map((p) => p.length),
    [8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32],
  );
  assert.ok(
    r.points.every((p) => p.accuracy >= 0 && p.accuracy <= 1 && p.loss > 0),
    JSON.stringify(r.points),
  );
  assert.equal(r.refused.length, 0);
  assert.equal(r.drawn, 13);
  console.log(
    'rope, copy, L = 8, 150 steps: accuracy by length',
    r.points.map((p) => `${p.length}:${p.accuracy.toFixed(2)}`).join(' '),
  );
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'nothing scrolls sideways');
  await page.locator('#lengths-panel').scrollIntoViewIfNeeded();
  await frames(page);
  await page.locator('#lengths-panel').screenshot({ path: `${RESULTS}/lengths-rope-375-dark.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
