// The experiments page (experiments.html) in Chromium, on the fixture set of
// tests/browser/fixtures/experiments/ (injected as window.__experimentFiles, which the dev server's
// page reads instead of docs/experiments/): every experiment's table, its chart drawn, the claim
// as text, the verdict, an experiment without results said so; re-running a row lands a marker;
// the grid builder trains a 2 × 2 grid (1 seed, few steps) into 4 filled cells, its CSV has the
// spec's header, its link reproduces the form, a grid above the bound and a tampered link are
// refused in words, as text (the words of every refusal: tests/node/grid-links.test.mjs).
// Without the fixture the page shows what docs/experiments/ holds, or says that nothing is
// committed, and that every committed file reads. Screenshots: test-results/experiments-*.png, 1280 and 375 px, light and dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { startHarness, openPage, shot, shotFourWays, downloaded } from './harness.mjs';

const FIXTURE = resolve(import.meta.dirname, 'fixtures/experiments');
const files = Object.fromEntries(readdirSync(FIXTURE).map((f) => [f, readFileSync(resolve(FIXTURE, f), 'utf8')]));

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

/** The experiments page with the fixture set, once the engine is loaded. */
async function openExperiments(hash = '', opts = {}) {
  const page = await h.browser.newPage({
    viewport: { width: opts.width ?? 1280, height: 900 },
    colorScheme: 'light',
    acceptDownloads: true,
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  if (opts.fixture !== false)
    await page.addInitScript((f) => {
      window.__experimentFiles = f;
    }, files);
  await page.goto(`${h.url}experiments.html${hash}`);
  await page.locator('.xp[data-ready="true"]').waitFor({ timeout: 30000 });
  return { page, errors };
}

/** Non-blank pixels of a canvas (the chart drew something). */
const inked = (page, sel) =>
  page.evaluate((s) => {
    const c = document.querySelector(s);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  }, sel);

test('fixtures: each experiment shows its table, chart, claim as text and verdict; one without results says so', async () => {
  const { page, errors } = await openExperiments();
  assert.equal(await page.locator('.xp').getAttribute('data-experiments'), '2');
  const ex = page.locator('.xp-experiment[data-id="fixture-positions"]');
  assert.equal(await ex.locator('.xp-table tbody tr').count(), 3);
  assert.deepEqual(await ex.locator('.xp-table thead th').allTextContents(), [
    'position',
    'placement',
    'eval_accuracy',
    'eval_accuracy_x2',
    'eval_loss',
    'steps_per_s',
    'n',
    'yours',
    '',
  ]);
  const rope = ex.locator('.xp-table tbody tr', { hasText: 'rope' });
  assert.match(await rope.locator('.xp-headline').textContent(), /^\d+\.\d% ± \d+\.\d$/);
  assert.match(await ex.locator('.xp-table tbody tr', { hasText: 'learned' }).textContent(), /3 \(1 failed\)/);
  assert.match(await ex.locator('.xp-claim').textContent(), /<b>not markup<\/b> & "quotes"/);
  assert.equal(await ex.locator('.xp-claim b').count(), 0);
  assert.equal(await ex.locator('.xp-verdict').getAttribute('data-verdict'), 'agrees');
  assert.match(await ex.locator('.xp-verdict').textContent(), /\(10 runs, 0\.4 min natively\)/);
  assert.deepEqual(await ex.locator('.xp-claims li').allTextContents(), [
    'RoPE beats no position encoding — provenance not recorded',
  ]);
  assert.match(await ex.locator('.xp-setting').textContent(), /^Setting: ours: a causal character language model/);
  assert.equal(
    await ex.locator('.xp-registration').textContent(),
    'Registered: 2026-12-06, at commit abc123 (a fixture)',
  );
  // the claim's test as the verdict file gives it: difference [95% CI], test, p, q, verdict
  assert.deepEqual(await ex.locator('.xp-claims-table tbody tr').first().locator('th, td').allTextContents(), [
    'RoPE beats no position encoding',
    '0.731 [0.701, 0.761]',
    'Welch t, df 4.0',
    '< 0.0001',
    '< 0.0001',
    '–',
    'agrees; provisional; provisional: 3 seeds, fewer than the 5 the rule asks',
  ]);
  assert.match(await ex.locator('.xp-convergence').textContent(), /^Convergence: converged: /);
  assert.match(
    await ex.locator('.xp-table tbody tr', { hasText: 'learned' }).locator('td').nth(1).textContent(),
    /^–$/,
  ); // learned cannot address 2L
  assert.match(await ex.locator('.xp-browser').textContent(), /steps 40 instead of 60/);
  assert.equal(await ex.locator('.xp-chart:not(.xp-curves) canvas').getAttribute('data-drawn'), '3');
  assert.ok((await inked(page, '.xp-experiment[data-id="fixture-positions"] .xp-chart:not(.xp-curves) canvas')) > 500);
  // the held-out curves of <id>.curves.csv: one line per grid point, drawn, with its legend
  assert.equal(await ex.locator('.xp-curves canvas').getAttribute('data-drawn'), '3');
  assert.ok((await inked(page, '.xp-experiment[data-id="fixture-positions"] .xp-curves canvas')) > 300);
  assert.deepEqual(await ex.locator('.xp-curves-legend li').allTextContents(), [
    'none · embed',
    'rope · embed',
    'learned',
  ]);
  const pending = page.locator('.xp-experiment[data-id="fixture-pending"]');
  assert.match(await pending.textContent(), /No results committed yet/);
  assert.equal(await pending.locator('table').count(), 0);
  const seen = await shotFourWays(page, 'experiments', 900);
  assert.equal(seen.length, 4);
  assert.deepEqual(errors, []);
  await page.close();
});

test("re-run a row in this tab: the learner's result lands in the table and on the chart", async () => {
  const { page, errors } = await openExperiments();
  const ex = page.locator('.xp-experiment[data-id="fixture-positions"]');
  const before = await inked(page, '.xp-experiment[data-id="fixture-positions"] canvas');
  const rope = ex.locator('.xp-table tbody tr', { hasText: 'rope' });
  await rope.locator('.xp-rerun').click();
  await page.waitForFunction(
    () => document.querySelector('.xp-experiment[data-id="fixture-positions"] tr[data-mine]'),
    null,
    { timeout: 60000 },
  );
  const mine = Number(await rope.getAttribute('data-mine'));
  assert.ok(mine >= 0 && mine <= 1, String(mine));
  assert.match(await rope.locator('.xp-yours').textContent(), /^\d+\.\d%$/);
  assert.notEqual(await inked(page, '.xp-experiment[data-id="fixture-positions"] canvas'), before);
  await shot(page, 'experiments-rerun');
  assert.deepEqual(errors, []);
  await page.close();
});

test('your own grid: a 2 × 2 grid trains into 4 cells, downloads as CSV, and its link reproduces the form', async () => {
  const hash = '#task=copy&a=position&av=none,rope&b=seq_len&bv=6,8&metric=acc1&seeds=1&steps=30';
  const { page, errors } = await openExperiments(hash);
  assert.equal(await page.inputValue('.xg-av'), 'none, rope');
  await page.click('.xg-train');
  await page.waitForFunction(() => document.querySelector('.xg').dataset.complete === 'true', null, {
    timeout: 120000,
  });
  assert.equal(await page.locator('.xg').getAttribute('data-filled'), '4');
  const means = await page.locator('.xg-cell').evaluateAll((tds) => tds.map((td) => Number(td.dataset.mean)));
  assert.equal(means.length, 4);
  for (const m of means) assert.ok(m >= 0 && m <= 1, String(m));
  assert.match(
    await page.locator('.xg-command').textContent(),
    /^attnplay sweep --set task=copy --set steps=30 --grid "position=none,rope seq_len=6,8" --seeds 1 --out grid.csv --summary grid.summary.csv$/,
  );
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('.xg-csv')]);
  const csv = (await downloaded(download)).toString('utf8').split('\n');
  assert.equal(
    csv[0],
    'position,seq_len,seed,steps,train_loss,eval_loss,eval_bpc,eval_accuracy,eval_sequence_accuracy,steps_per_s,train_tokens_per_s,infer_tokens_per_s,peak_memory_bytes,eval_accuracy_x2,eval_loss_x2,eval_accuracy_x4,eval_loss_x4,weights_sha256,engine,config,error',
  );
  assert.equal(csv.filter(Boolean).length, 5);
  const [png] = await Promise.all([page.waitForEvent('download'), page.click('.xg-png')]);
  assert.equal(png.suggestedFilename(), 'grid.png');
  await page.locator('.xg').scrollIntoViewIfNeeded();
  await shotFourWays(page, 'experiments-grid', 900);
  // The link: change the form, then open the link in a new page.
  await page.fill('.xg-bv', '8, 12');
  await page.selectOption('.xg-metric', 'acc2');
  const link = await page.locator('.xg-share').getAttribute('href');
  assert.equal(link, '#task=copy&a=position&av=none%2Crope&b=seq_len&bv=8%2C12&metric=acc2&seeds=1&steps=30');
  const again = await openExperiments(link);
  assert.equal(await again.page.inputValue('.xg-bv'), '8, 12');
  assert.equal(await again.page.inputValue('.xg-metric'), 'acc2');
  assert.equal(await again.page.inputValue('.xg-a'), 'position');
  assert.match(await again.page.locator('.xg-command').textContent(), /--eval-at 2,4/);
  await again.page.close();
  assert.deepEqual(errors, []);
  await page.close();
});

// Each refusal's words are checked in tests/node/grid-links.test.mjs; here, that the page shows
// them, as text: after Train, and for a tampered link as it opens.
test('your own grid: a grid above the bound and a tampered link are refused in words, as text', async () => {
  const { page } = await openExperiments(
    '#task=copy&a=position&av=none,rope,learned,sinusoidal,alibi,t5_bias&b=seq_len&bv=4,6,8,10,12,16&metric=acc1&seeds=2&steps=30',
  );
  await page.click('.xg-train');
  assert.match(
    await page.locator('.xg-error').textContent(),
    /6 × 6 cells × 2 seeds = 72 runs; a grid in the browser trains at most 36/,
  );
  assert.equal(await page.locator('.xg-cell').count(), 0);
  await page.close();
  const hash = '#task=copy&a=position&av=none&b=seq_len&bv=8&metric=acc1&seeds=1&steps=30&%3Cimg%3E=1';
  const { page: p, errors } = await openExperiments(hash);
  assert.match(await p.locator('.xg-error').textContent(), /"<img>", which is not part of a grid/);
  assert.equal(await p.locator('img').count(), 0);
  assert.deepEqual(errors, []);
  await p.close();
});

test('without the fixture: the committed experiments, or in words that none is committed', async () => {
  const { page, errors } = await openExperiments('', { fixture: false });
  const n = Number(await page.locator('.xp').getAttribute('data-experiments'));
  if (n === 0) assert.match(await page.locator('.xp-none').textContent(), /No experiments committed yet/);
  else assert.equal(await page.locator('.xp-experiment').count(), n);
  assert.deepEqual(await page.locator('.xp-experiment .apd-error').allTextContents(), []); // every committed file reads
  await shot(page, 'experiments-committed');
  assert.deepEqual(errors, []);
  await page.close();
});
