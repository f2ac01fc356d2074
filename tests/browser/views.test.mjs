// The playground's views read at a glance, asserted on what the page shows, at 1280 px and 375 px,
// light and dark: every heatmap has a colour scale that says its range (l2 rows that do not sum
// to 1, a diverging ALiBi bias centred on 0), heads numbered from 1, the causal help on full
// lines; the charts say why "eval @ length 32" is missing, stop when the default run is solved,
// export one CSV row per step in order, tell pinned runs apart; Generate forgets an example's
// answer; an invalid change shows its message beside the field and no stale counters; dark mode
// colours the page and the charts. Screenshots go to test-results/views-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, RESULTS, ready, until, frames, downloaded } from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

/** A page in a colour scheme and width, recording errors. */
async function open(hash, { width = 1280, scheme = 'light' } = {}) {
  const page = await h.browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  await page.goto(`${h.url}${hash}`);
  await ready(page);
  return { page, errors };
}

async function shot(page, name) {
  await page.evaluate(() => scrollTo(0, 0));
  await page.screenshot({ path: `${RESULTS}/views-${name}.png`, fullPage: true });
}

const LOOKS = [
  [1280, 'light'],
  [1280, 'dark'],
  [375, 'light'],
  [375, 'dark'],
];

for (const [width, scheme] of LOOKS) {
  test(`${width} px, ${scheme}: colour scales, heads from 1, the causal help, the theme`, async () => {
    const { page, errors } = await open('#position=alibi&normalization=l2&seq_len=16', { width, scheme });
    if (width < 800) await page.click('#controls-toggle');
    await page.evaluate(() => window.playground.train(20));
    await page.waitForFunction(() => document.querySelectorAll('#positions .heatmap-legend').length >= 2);

    // Every heatmap has a colour scale with its two ends and what the range is.
    const maps = await page.evaluate(() =>
      [...document.querySelectorAll('#attention .heatmap, #positions .heatmap')].map((m) => ({
        legend: m.querySelector('.heatmap-legend')?.textContent ?? null,
        lo: Number(m.querySelector('.heatmap-legend')?.dataset.lo),
        hi: Number(m.querySelector('.heatmap-legend')?.dataset.hi),
        diverging: m.querySelector('.heatmap-legend')?.dataset.diverging,
        inAttention: Boolean(m.closest('#attention')),
      })),
    );
    assert.equal(maps.filter((m) => m.inAttention).length, 4, '2 layers × 2 heads');
    for (const m of maps) assert.ok(m.legend, 'a colour scale under every map');
    for (const m of maps.filter((x) => x.inAttention)) {
      // l2: the rows do not sum to 1, and the scale says what its top is.
      assert.match(m.legend, /weight:.*0 to this map's largest weight; rows sum to \d\.\d\d–\d\.\d\d/);
      assert.doesNotMatch(m.legend, /rows sum to 1\.00–1\.00/);
    }
    const bias = maps.filter((m) => !m.inAttention);
    assert.equal(bias.length, 2, 'one ALiBi bias map per head');
    for (const b of bias) {
      assert.equal(b.diverging, 'true', 'a bias gets the diverging scale');
      assert.equal(b.lo, -b.hi, 'centred on 0');
      // 0 is white on a light page, dark grey on a dark one (colormap.js)
      assert.match(
        b.legend,
        new RegExp(`bias:.*${scheme === 'dark' ? 'dark grey' : 'white'} at 0.*the same scale for every head`),
      );
    }
    // Heads are numbered from 1 in the bias maps and in the slope bars alike.
    assert.deepEqual(await page.locator('#positions .pos-head > span').allTextContents(), ['head 1', 'head 2']);
    assert.match(await page.locator('#positions figure.bars canvas').getAttribute('title'), /^head 1: .* head 2: /);

    // The causal checkbox's help runs on full lines under the box, not in a sliver beside it.
    const help = await page.locator('#help-causal').boundingBox();
    const field = await page.locator('#help-causal').evaluate((e) => e.parentElement.getBoundingClientRect().width);
    assert.ok(help.width >= field * 0.9, `the help is ${help.width}px of the field's ${field}px`);
    assert.ok(help.height < 45, `the help takes ${help.height}px`);

    // The theme: the page, the cards and the chart series follow the system.
    const theme = await page.evaluate(() => ({
      bg: getComputedStyle(document.body).backgroundColor,
      card: getComputedStyle(document.getElementById('charts-panel')).backgroundColor,
      train: window.playground.charts.charts[0].series[0].color,
    }));
    if (scheme === 'dark')
      assert.deepEqual(theme, { bg: 'rgb(31, 32, 35)', card: 'rgb(38, 40, 44)', train: '#8ab4f8' });
    else assert.deepEqual(theme, { bg: 'rgb(248, 249, 250)', card: 'rgb(255, 255, 255)', train: '#1a73e8' });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `page wider than the screen by ${overflow}px`);
    await shot(page, `${width}-${scheme}`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

// Issue 44: the early stop's notice ("Solved … press Play to train on …") is about the model that
// solved; a new model (a setting changed) clears it.
test('the Solved notice goes when the model changes', async () => {
  const { page, errors } = await open('#task=copy&seed=3');
  await page.click('#play');
  await page.locator('#notice', { hasText: /^Solved: held-out token accuracy/ }).waitFor({ timeout: 60000 });
  await page.locator('#play:text("Play")').waitFor();
  await page.locator('select#ctl-position').selectOption('rope');
  await until(
    page,
    () => ({
      ok: window.playground.model?.info.config.position === 'rope' && document.body.dataset.run === 'ready',
      position: window.playground.model?.info.config.position,
      run: document.body.dataset.run,
    }),
    'the new model (rope)',
  );
  const notice = await until(
    page,
    () => {
      const n = document.getElementById('notice');
      return { ok: n.hidden || !/Solved/.test(n.textContent), hidden: n.hidden, text: n.textContent };
    },
    'the Solved notice to go with the model that solved',
  );
  assert.ok(notice.ok);
  assert.deepEqual(errors, []);
  await page.close();
});

test('charts: learned positions say why eval @ 32 is missing; the default run stops when solved; CSV in step order', async () => {
  const { page, errors } = await open('#position=learned&eval_len=32');
  assert.equal(await page.locator('#ctl-steps').inputValue(), '2000', 'the default step budget');
  await page.click('#play');
  await page
    .locator('#notice', { hasText: /Solved: held-out token accuracy \d\.\d\d at the evaluation of step \d+\./ })
    .waitFor({ timeout: 60000 });
  await page.locator('#play:text("Play")').waitFor();
  const step = Number(await page.locator('#step-counter').textContent());
  assert.ok(step < 400, `paused at step ${step}, not at 2000`);
  const note = page.locator('[data-chart="loss"] .chart-note');
  assert.ok(await note.isVisible());
  assert.match(
    await note.textContent(),
    /No “eval @ length 32” line: learned positions stop at length 16, so the model cannot address length 32/,
  );

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[data-chart="loss"] button:text("CSV")'),
  ]);
  const rows = (await downloaded(download))
    .toString('utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((r) => Number(r.split(',')[0]));
  assert.deepEqual(
    rows,
    Array.from({ length: step }, (_, i) => i + 1),
    'one row per step, in step order',
  );

  // The accuracy chart's x axis ends at the last step: no line drawn past it.
  const axis = await page.evaluate(() => {
    const u = window.playground.charts.charts[1].plot;
    const xs = u.data[0];
    return { max: u.scales.x.max, last: xs[xs.length - 1], sorted: xs.every((x, i) => i === 0 || xs[i - 1] < x) };
  });
  assert.ok(axis.sorted, 'the drawn steps ascend');
  assert.equal(axis.max, axis.last, 'the axis ends at the last step');

  // Dismiss the notice; Play trains on past the solved step (no second stop).
  await page.click('#notice-close');
  assert.ok(await page.locator('#notice').isHidden());
  await page.click('#play');
  await page.waitForFunction((s) => Number(document.getElementById('step-counter').textContent) > s + 60, step, {
    timeout: 60000,
  });
  await page.click('#play');
  assert.ok(await page.locator('#notice').isHidden(), 'no second stop');

  // Pinned: a legend says which run is which; the pinned lines are dotted.
  await page.click('#pin');
  await page.fill('#ctl-lr', '0.01');
  await page.press('#ctl-lr', 'Tab');
  await ready(page);
  await page.evaluate(() => window.playground.train(30));
  const legend = page.locator('.pin-legend');
  assert.ok(await legend.isVisible());
  assert.match(await legend.textContent(), /this run.*pinned: lr/);
  const dash = await page.evaluate(() =>
    window.playground.charts.charts[0]
      .lines()
      .filter((l) => l.pinned)
      .map((l) => l.dash.join(' ')),
  );
  assert.ok(dash.length >= 1 && dash.every((d) => d === '2 3'), `pinned dashes: ${dash}`);
  await frames(page); // the charts draw on the next frame
  await page.locator('#charts-panel').screenshot({ path: `${RESULTS}/views-charts-pinned.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link with unknown settings: the notice can be dismissed', async () => {
  const { page, errors } = await open('#nonsense=1');
  assert.match(await page.locator('#notice').textContent(), /Ignored from the link/);
  await page.click('#notice-close');
  assert.ok(await page.locator('#notice').isHidden());
  assert.ok(await page.locator('#notice-close').isHidden());
  assert.deepEqual(errors, []);
  await page.close();
});

test('generate: a typed prompt after a held-out example is not compared with its answer, and tokens come back', async () => {
  const { page, errors } = await open('#task=copy&steps=60');
  await page.evaluate(() => window.playground.train(60));
  await page.fill('#gen-tokens', '5'); // a count of one's own, before the example
  await page.click('#generate .gen-example');
  await page.locator('#generate .gen-line').nth(1).waitFor({ timeout: 20000 });
  assert.notEqual(await page.locator('#gen-tokens').inputValue(), '5', 'the example sets tokens to its answer length');
  await page.fill('#gen-prompt', '1 2 3');
  assert.equal(
    await page.locator('#gen-tokens').inputValue(),
    '5',
    "a prompt of one's own gives its tokens count back",
  );
  const before = await page.locator('#generate .gen-out').textContent();
  await page.click('#gen-run');
  await page.waitForFunction((b) => document.querySelector('#generate .gen-out').textContent !== b, before);
  assert.equal(
    await page.locator('#generate .gen-out p').count(),
    0,
    await page.locator('#generate .gen-out').textContent(),
  );
  assert.equal(
    await page.locator('#generate .gen-line').count(),
    1,
    'only the model\'s line: no "right" answer to compare with',
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('375 px: an invalid change shows its message beside the field, and the counters do not pretend', async () => {
  const { page, errors } = await open('#task=copy&steps=100000', { width: 375, scheme: 'dark' });
  await page.click('#play'); // training when the change comes
  await page.waitForFunction(() => Number(document.getElementById('step-counter').textContent) > 10, null, {
    timeout: 30000,
  });
  await page.click('#controls-toggle');
  await page.locator('#ctl-heads').scrollIntoViewIfNeeded();
  await page.fill('#ctl-heads', '3');
  await page.press('#ctl-heads', 'Tab');
  await page.waitForFunction(() => document.body.dataset.run === 'invalid');
  const err = page.locator('#err-heads');
  assert.match(await err.textContent(), /d_model: 32 is not divisible by heads = 3/);
  assert.ok(await err.isVisible());
  const box = await err.boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 900, `the message is on screen (y = ${box.y})`);
  await page.locator('#play:text("Play")').waitFor(); // the last run stopped
  // Its late events have arrived: the worker acknowledged the pause, and one more round trip to it is done.
  await until(
    page,
    () => ({
      ok: Boolean(window.playground.model) && !window.playground.model.playing,
      playing: window.playground.model?.playing,
    }),
    'the worker to acknowledge the pause of the last run',
  );
  await page.evaluate(() => window.playground.model.pause());
  for (const id of ['step-counter', 'last-loss', 'steps-per-s', 'elapsed'])
    assert.equal(await page.locator(`#${id}`).textContent(), '–', `#${id}`);
  await page.screenshot({ path: `${RESULTS}/views-invalid-375-dark.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('375 px: a link whose settings cannot train opens the settings at the field and its message', async () => {
  const page = await h.browser.newPage({ viewport: { width: 375, height: 800 } });
  await page.goto(`${h.url}#heads=3`);
  await page.waitForFunction(() => document.body.dataset.run === 'invalid', null, { timeout: 30000 });
  assert.ok(await page.locator('#controls').isVisible(), 'the collapsed settings open');
  const box = await page.locator('#err-heads').boundingBox();
  assert.ok(
    box && box.y >= 0 && box.y + box.height <= 800,
    `the field's message is on screen (${JSON.stringify(box)})`,
  );
  assert.match(await page.locator('#err-heads').textContent(), /not divisible by heads = 3/);
  assert.equal(await page.locator('#step-counter').textContent(), '–');
  await page.screenshot({ path: `${RESULTS}/views-invalid-link-375.png` });
  await page.close();
});

test("a worker that crashed with no model: restored(null) builds the current settings' model", async () => {
  const { page, errors } = await open('#task=copy');
  await page.evaluate(async () => {
    const pg = window.playground;
    pg.run.model = null; // as after a crash before any model was built
    await pg.restored(null);
  });
  await ready(page);
  assert.ok(await page.evaluate(() => Boolean(window.playground.model)));
  assert.deepEqual(errors, []);
  await page.close();
});
