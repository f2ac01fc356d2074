// The playground's "Compare runs": the current setup and a copy with one setting changed train side
// by side on a worker pool (same seed, same batches). Order without and with positions: one stays
// near chance, one learns; a table gives each run's head labels. The link holds the comparison and reproduces it; a settings change
// rebuilds every run; each run's model file can be exported; Stop brings the single run back. A bad
// spec in a link is explained and dropped. At 1280 px light and 375 px dark. Screenshots go to
// test-results/compare-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, RESULTS, ready, openPlayground, until } from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const open = (hash, opts) => openPlayground(h, hash, opts);

/**
 * The comparison's runs once every run has trained `steps` steps; `done`: its last ones, so each run
 * has also stopped and shows its last evaluation.
 */
async function trained(page, steps, done = true) {
  await until(
    page,
    ([n, end]) => {
      const runs = window.playground?.compare.view?.runs ?? [];
      const playing = window.playground?.compare.runs?.set.playing;
      return {
        ok: runs.length > 0 && runs.every((r) => r.last.step >= n && (!end || (r.last.acc !== null && !playing))),
        last: runs.map((r) => r.last),
      };
    },
    `every compared run to train ${steps} steps${done ? ', show its evaluation and stop' : ''}`,
    { arg: [steps, done], timeout: 120000 },
  );
  return page.evaluate(() =>
    window.playground.compare.view.runs.map((r) => ({ name: r.name, last: r.last, lr: r.state.lr })),
  );
}

const rows = (page) => page.locator('#compare-view .ap-compare-runs tbody th').allTextContents();

test('order without and with positions, compared in the playground; the link reproduces it', async () => {
  const { page, errors } = await open('#task=order&position=none&steps=600');
  await page.selectOption('#compare-field', 'position');
  assert.match(await page.locator('#compare-current').textContent(), /Run 1: position = none/);
  await page.fill('#compare-values', 'rope');
  await page.click('#compare-start');
  await page.locator('#compare-view .ap-compare-runs').waitFor();
  assert.deepEqual(await rows(page), ['position=none', 'position=rope']);
  assert.match(await page.evaluate(() => location.hash), /&compare=position%3Dnone%2Crope$/);
  assert.ok(
    (await page.locator('#charts-panel').isHidden()) && (await page.locator('.toolbar .transport').isHidden()),
    'the single run steps aside',
  );
  assert.ok(await page.locator('label[for="import-model"]').isVisible(), 'but Import model stays offered');
  // Pressing Compare trains every run at once; once all are done, the button offers Play again.
  assert.equal(await page.locator('#compare-view .ap-compare-play').textContent(), 'Pause');
  const [none, rope] = await trained(page, 600);
  await page.locator('#compare-view .ap-compare-play', { hasText: /^Play$/ }).waitFor({ timeout: 10000 });
  console.log(`compare: held-out accuracy after 600 steps, none ${none.last.acc}, rope ${rope.last.acc}`);
  assert.ok(none.last.acc <= 0.7, `none stays near chance: ${none.last.acc}`);
  assert.ok(rope.last.acc >= 0.9, `rope learns: ${rope.last.acc}`);
  // Attention and predictions of both runs, side by side (an inspection, late on a busy machine).
  await until(
    page,
    () =>
      [...document.querySelectorAll('#compare-view .ap-compare-side > *')].every(
        (f) => f.querySelectorAll('canvas, .example').length > 0,
      ),
    "every run's attention and predictions drawn",
  );
  const sides = await page.evaluate(() =>
    [...document.querySelectorAll('#compare-view .ap-compare-side')].map((s) =>
      [...s.children].map((f) => ({
        caption: f.querySelector('figcaption').textContent,
        top: Math.round(f.getBoundingClientRect().top),
        filled: f.querySelectorAll('canvas, .example').length,
      })),
    ),
  );
  assert.equal(sides.length, 2, 'attention and predictions');
  for (const side of sides) {
    assert.deepEqual(
      side.map((f) => f.caption),
      ['position=none', 'position=rope'],
    );
    assert.equal(side[0].top, side[1].top, 'side by side');
    assert.ok(
      side.every((f) => f.filled > 0),
      JSON.stringify(side),
    );
  }
  // What each run's heads do, one table: a row per layer × head, a cell per run, measured at step 600.
  await page.waitForFunction(
    () =>
      /position=none at step 600, position=rope at step 600/.test(
        document.querySelector('#compare-view .ap-compare-heads caption')?.textContent ?? '',
      ),
    null,
    { timeout: 30000 },
  );
  const heads = await page.evaluate(() =>
    [...document.querySelectorAll('#compare-view .ap-compare-heads tbody tr')].map((tr) => ({
      head: tr.querySelector('th')?.textContent,
      cells: [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
    })),
  );
  assert.deepEqual(
    heads.map((r) => r.head),
    ['layer 1 · head 1', 'layer 1 · head 2'],
    "order's model: 1 layer × 2 heads",
  );
  assert.ok(
    heads.every(
      (r) =>
        r.cells.length === 2 &&
        r.cells.every((c) => /^(no label \(entropy \d\.\d\d\)|[a-z /-]+ [a-z ]+ \d\.\d\d ≥ 0\.\d0)/.test(c)),
    ),
    JSON.stringify(heads),
  );
  await page.locator('#compare-panel').screenshot({ path: `${RESULTS}/compare-1280-light.png` });
  // Accuracy against length: one curve per run, named as the run.
  await page.click('#compare-view .lengths-run');
  await page
    .locator('#compare-view .lengths-status', { hasText: /^position=none, step \d+: evaluated/ })
    .waitFor({ timeout: 60000 });
  const lengths = await page.evaluate(() => {
    const l = window.playground.compare.view.lengths;
    return { n: l.results.length, first: l.results.map((p) => p[0]), labels: l.acc.lines().map((x) => x.name) };
  });
  assert.equal(lengths.n, 2);
  assert.ok(
    lengths.first.every((p) => p.length === 8 && p.accuracy != null),
    JSON.stringify(lengths.first),
  );
  assert.deepEqual(lengths.labels, ['position=none', 'position=rope']);
  // Each run's model file.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('#compare-view tr[data-run="1"] button:text("Export")'),
  ]);
  assert.match(download.suggestedFilename(), /^attnplay-run2-order-step\d+\.safetensors$/);
  // A settings change rebuilds every run with it.
  await page.fill('#ctl-lr', '0.002');
  await page.press('#ctl-lr', 'Tab');
  await page.waitForFunction(
    () =>
      window.playground.compare.view?.runs.every((r) => r.state.lr === 0.002) &&
      window.playground.compare.runs?.runs.every((r) => r.ctl.model),
  );
  // The link reproduces the comparison.
  const hash = await page.evaluate(() => location.hash);
  const again = await open(hash);
  await again.page.locator('#compare-view .ap-compare-runs').waitFor({ timeout: 30000 });
  assert.deepEqual(await rows(again.page), ['position=none', 'position=rope']);
  await again.page.close();
  // Stop: the single run is back, the link forgets the comparison.
  await page.click('#compare-stop');
  await page.locator('#charts-panel').waitFor();
  assert.doesNotMatch(await page.evaluate(() => location.hash), /compare=/);
  assert.equal(await page.locator('#compare-view').innerHTML(), '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('375 px, dark: a link with a comparison of three runs fits the phone; a bad spec is explained and dropped', async () => {
  const { page, errors } = await open('#task=copy&position=rope&compare=position%3Drope%2Calibi%2Clearned', {
    width: 375,
    scheme: 'dark',
  });
  await page.locator('#compare-view .ap-compare-runs').waitFor({ timeout: 30000 });
  assert.deepEqual(await rows(page), ['position=rope', 'position=alibi', 'position=learned']);
  assert.match(await page.locator('#compare-current').textContent(), /Run 1: position = rope/);
  await page.click('#compare-view .ap-compare-play');
  await trained(page, 40, false);
  await page.click('#compare-view .ap-compare-play'); // pause
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'nothing scrolls sideways');
  await page.locator('#compare-panel').screenshot({ path: `${RESULTS}/compare-375-dark.png` });
  await page.locator('#compare-view .ap-compare-runs').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${RESULTS}/compare-375-dark-table.png` }); // the viewport: the table and charts as a phone shows them
  await page.close();
  const bad = await open('#task=copy&compare=position%3Dnone', { width: 375, scheme: 'dark' });
  await bad.page.locator('#compare-error:not([hidden])').waitFor();
  assert.match(await bad.page.locator('#compare-error').textContent(), /needs at least two runs/);
  assert.doesNotMatch(await bad.page.evaluate(() => location.hash), /compare=/);
  assert.ok(await bad.page.locator('#charts-panel').isVisible(), 'the single run stays');
  assert.deepEqual([...errors, ...bad.errors], []);
  await bad.page.close();
});

test('a first visit (no link) opens on order with and without positions, training at once, and says why', async () => {
  const page = await h.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  const t0 = Date.now();
  await page.goto(h.url);
  await page.locator('#compare-landing:not([hidden])').waitFor({ timeout: 30000 });
  assert.match(
    await page.locator('#compare-landing').textContent(),
    /without a position encoding attention cannot see order/,
  );
  assert.match(
    await page.evaluate(() => location.hash),
    /^#task=order&position=rope&.*&compare=position%3Drope%2Cnone$/,
  );
  await page.locator('#compare-view .ap-compare-runs').waitFor({ timeout: 30000 });
  assert.deepEqual(await rows(page), ['position=rope', 'position=none']);
  const [rope, none] = await trained(page, 400); // no Play pressed
  const seconds = (Date.now() - t0) / 1000;
  console.log(
    `landing: rope ${rope.last.acc}, none ${none.last.acc}, 400 steps in ${seconds.toFixed(1)} s (2 cores, a test machine)`,
  );
  assert.ok(rope.last.acc >= 0.9 && none.last.acc <= 0.7, `rope ${rope.last.acc}, none ${none.last.acc}`);
  // Under the comparison, none of the single run's panels (an untrained model at step 0) shows.
  const shown = await page.evaluate(() =>
    ['attention-panel', 'positions-panel', 'heads-panel', 'replay', 'predictions-panel', 'charts-panel'].filter(
      (id) => document.getElementById(id)?.getClientRects().length,
    ),
  );
  assert.deepEqual(shown, [], 'the single run steps aside');
  await page.locator('#compare-view .ap-compare-play', { hasText: /^Play$/ }).waitFor({ timeout: 10000 }); // done: Play again
  await page.screenshot({ path: `${RESULTS}/compare-landing-1280.png` });
  // Any change of the comparison takes the sentence away (it is about this one).
  await page.fill('#compare-values', 'alibi');
  await page.click('#compare-start');
  await page.locator('#compare-landing').waitFor({ state: 'hidden' });
  assert.deepEqual(errors, []);
  await page.close();
});
