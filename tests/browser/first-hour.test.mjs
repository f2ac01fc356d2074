// What a new user was told that was not true, or could not reach (issue 33, items 11 to 16 and the
// small things), in the playground and the demo pages: each test does what the person did and
// checks what they should have seen. Screenshots of what changed at 1280 and 375 px, light and
// dark, go to test-results/first-hour-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, openPlayground, shotFourWays, until, WAIT, frames, RESULTS } from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

/** The uPlot legend of the chart in `card` (a CSS selector): [label, value] per row, x first. */
const legend = (page, card) =>
  page
    .locator(`${card} .u-legend .u-series`)
    .evaluateAll((rows) =>
      rows.map((r) => [r.querySelector('.u-label')?.textContent ?? '', r.querySelector('.u-value')?.textContent ?? '']),
    );

/** Move the mouse over the playground's length-accuracy chart (uPlot) to x = `x` (data units). */
async function hoverAt(page, x) {
  const at = await page.evaluate((v) => {
    const u = window.playground.lengths.acc.plot;
    const r = u.over.getBoundingClientRect();
    return { x: r.left + Math.min(u.valToPos(v, 'x'), r.width - 2), y: r.top + r.height / 2 }; // inside the plot
  }, x);
  await page.mouse.move(at.x, at.y);
}

test('11: accuracy against length: the legend shows the length measured, not a refused one', async () => {
  const { page, errors } = await openPlayground(h, '#task=copy&position=learned&seq_len=12');
  await page.evaluate(() => window.playground.train(40));
  await page.click('.lengths-run');
  await page.locator('.lengths-status', { hasText: /^At step/ }).waitFor({ timeout: WAIT.training });
  const card = '[data-chart="length-accuracy"]';
  const acc = await page.evaluate(() => window.playground.lengths.points[0].accuracy);
  // Off the chart: the last length with a value (12), and that value; 48 was not evaluable.
  const off = await until(
    page,
    () => {
      const rows = [...document.querySelectorAll('[data-chart="length-accuracy"] .u-legend .u-series')];
      const v = rows.map((r) => r.querySelector('.u-value')?.textContent ?? '');
      return { ok: v[0] === '12', v };
    },
    'the legend off the chart: length 12',
  );
  assert.equal(off.v[1], String(Number(acc.toPrecision(3))), 'the accuracy measured at 12');
  // On the chart at 48 (refused): the length, and no accuracy (uPlot would show 12's).
  await page.locator(card).scrollIntoViewIfNeeded();
  await hoverAt(page, 48);
  const on = await until(
    page,
    () => {
      const v = [...document.querySelectorAll('[data-chart="length-accuracy"] .u-legend .u-series .u-value')].map(
        (e) => e.textContent,
      );
      return { ok: v[0] === '48', v };
    },
    'the legend at the cursor: length 48',
  );
  assert.equal(
    on.v[1],
    '',
    `no accuracy at 48, where nothing was measured: ${JSON.stringify(await legend(page, card))}`,
  );
  await page.locator('#lengths-panel').screenshot({ path: `${RESULTS}/first-hour-lengths-legend.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('11: extrapolation: the legend names an evaluated length, an integer, not the drawn offset', async () => {
  const { page, errors } = await openPage(
    h.browser,
    `${h.url}extrapolation.html?steps=20&seeds=1&encodings=rope,alibi,fire`,
  );
  await page.locator('.apd[data-complete="true"]').waitFor({ timeout: WAIT.training * 2 });
  const lengths = await page.evaluate(
    () => window.demo.results && Object.keys(Object.values(window.demo.results())[0].rope).map(Number),
  );
  const card = '.apd-task-block[data-block="0"] .apd-chart-acc';
  await page.locator(card).scrollIntoViewIfNeeded();
  const xs = [];
  for (const target of [63, 65, 47.5, 16.4]) {
    // the first block's accuracy chart: the uPlot instance behind the canvas the legend belongs to
    const at = await page.evaluate(
      ([sel, v]) => {
        const over = document.querySelector(`${sel} .u-over`);
        const r = over.getBoundingClientRect();
        const [lo, hi] = [16, 64];
        return { x: r.left + ((v - lo) / (hi - lo)) * r.width, y: r.top + r.height / 2 };
      },
      [card, target],
    );
    await page.mouse.move(at.x, at.y);
    const x = await until(
      page,
      (sel) => {
        const v = document.querySelector(`${sel} .u-legend .u-series .u-value`)?.textContent ?? '';
        return { ok: v !== '', v };
      },
      `the legend's length with the cursor near ℓ = ${target}`,
      { arg: card },
    );
    xs.push(x.v);
  }
  for (const x of xs)
    assert.ok(/^\d+$/.test(x) && lengths.includes(Number(x)), `"${x}" is one of the lengths ${lengths}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('12: the Heads panel and a comparison state what the induction label requires', async () => {
  const { page, errors } = await openPlayground(h, '#task=copy&layers=1&seq_len=12');
  await page.evaluate(() => window.playground.train(5));
  const rule = page.locator('#heads .heads-rules li[data-label="induction"]');
  await rule.waitFor({ timeout: WAIT.training });
  assert.match(await rule.textContent(), /previous-token head in an earlier layer.*a one-layer model has none/);
  const labels = await page.locator('#heads .head-card').evaluateAll((cards) => cards.map((c) => c.dataset.labels));
  assert.ok(labels.length >= 1 && labels.every((l) => !l.split(',').includes('induction')), `one layer: ${labels}`);
  await page.close();
  // The first visit's comparison (one layer each, bidirectional): its heads table says it too.
  const first = await openPlayground(h, '');
  const caption = first.page.locator('.ap-compare-heads caption');
  await caption.waitFor({ timeout: WAIT.training });
  assert.match(await caption.textContent(), /An induction head also needs a previous-token head in an earlier layer/);
  const cells = await first.page
    .locator('.ap-compare-heads tr[data-layer="0"] td[data-labels]')
    .evaluateAll((tds) => tds.map((t) => t.dataset.labels));
  assert.ok(
    cells.every((l) => !l.split(',').includes('induction')),
    `layer 1 never induction: ${cells}`,
  );
  assert.deepEqual([...errors, ...first.errors], []);
  await first.page.close();
});

test('15: with "stop when solved" the ETA is an upper bound ("up to …"); without, it is not', async () => {
  const { page, errors } = await openPlayground(h, '#task=sort&seq_len=24&lr=0.0002');
  assert.ok(await page.isChecked('#stop-solved'), 'on by default');
  await page.click('#play');
  const eta = await until(
    page,
    () => ({
      ok: /^up to \d/.test(document.getElementById('eta').textContent),
      eta: document.getElementById('eta').textContent,
    }),
    'the ETA "up to …" while training with stop when solved',
    { timeout: WAIT.training },
  );
  assert.match(eta.eta, /^up to (\d+ s|\d+ min \d\d s|\d+ h \d\d min)$/);
  await page.locator('.toolbar').screenshot({ path: `${RESULTS}/first-hour-eta.png` });
  await page.uncheck('#stop-solved');
  await until(
    page,
    () => ({
      ok: /^\d/.test(document.getElementById('eta').textContent),
      eta: document.getElementById('eta').textContent,
    }),
    'the ETA without "up to" once stop when solved is off',
    { timeout: WAIT.training },
  );
  await page.click('#play'); // pause
  assert.deepEqual(errors, []);
  await page.close();
});

test('14: the probe page says how many models it trains, from its grid; a column it cannot build is hidden', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}probe.html?steps=10&autoplay=0`);
  await page.locator('.apd[data-ready="true"]').waitFor({ timeout: WAIT.training });
  const seen = await page.evaluate(() => ({
    description: document.querySelector('meta[name="description"]').content,
    models: document.querySelector('.apd').dataset.models,
    hidden: [...document.querySelectorAll('.apd-grid th[data-norm]')]
      .filter((t) => t.hidden)
      .map((t) => t.dataset.norm),
    shown: [...document.querySelectorAll('.apd-grid th[data-norm]')].filter((t) => !t.hidden).length,
    note: document.querySelector('.apd-hidden-cols')?.textContent,
    invalid: document.querySelectorAll('.apd-cell[data-state="invalid"]:not([hidden])').length,
  }));
  assert.equal(seen.models, '144', '8 encodings × 6 normalizations × 3 seeds');
  assert.match(
    seen.description,
    new RegExp(`^${seen.models} tiny models \\(8 encodings × 6 normalizations × 3 seeds\\)`),
  );
  assert.doesNotMatch(seen.description, /Forty/);
  assert.deepEqual(seen.hidden, ['stick_breaking']);
  assert.equal(seen.shown, 6);
  assert.match(
    seen.note,
    /Not shown: stick_breaking, which needs the causal mask \(tick “causal mask” to add its column\)/,
  );
  assert.equal(seen.invalid, 0, 'no column of n/a cells');
  await shotFourWays(page, 'first-hour-probe');
  // With the causal mask the column is there (and its cells build).
  await page.check('.apd-causal');
  await until(
    page,
    () => {
      const th = document.querySelector('.apd-grid th[data-norm="stick_breaking"]');
      const box = document.querySelector('.apd');
      return {
        ok: th && !th.hidden && box.dataset.models === '168' && box.dataset.ready === 'true',
        models: box.dataset.models,
      };
    },
    'the stick_breaking column with the causal mask (168 models)',
    { timeout: WAIT.training },
  );
  assert.equal(await page.locator('.apd-hidden-cols').isVisible(), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('first visit: the comparison layout from the first frame; Import model offered during it; buttons of one height', async () => {
  const page = await h.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Every frame until the comparison's view is built: was a single-run panel on screen? (Once the
  // page's styles apply: the dev server injects them from a module, so the first frames are bare.)
  await page.addInitScript(() => {
    window.framesSeen = [];
    const look = () => {
      const charts = document.getElementById('charts-panel');
      const styled =
        document.querySelector('.toolbar') && getComputedStyle(document.querySelector('.toolbar')).zIndex === '5';
      if (charts && styled) window.framesSeen.push(getComputedStyle(charts).display !== 'none');
      if (!document.querySelector('#compare-view .ap-compare')) requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  await page.goto(h.url);
  await page.locator('#compare-view .ap-compare').first().waitFor({ timeout: WAIT.training });
  const framesSeen = await page.evaluate(() => window.framesSeen);
  assert.ok(framesSeen.length > 0, 'styled frames were watched');
  assert.ok(
    !framesSeen.includes(true),
    `the single run's charts showed in ${framesSeen.filter(Boolean).length} of ${framesSeen.length} frames`,
  );
  // Import model is offered during the comparison; the single run's exports are not.
  assert.ok(await page.locator('label[for="import-model"]').isVisible(), 'Import model during a comparison');
  assert.ok(!(await page.locator('#export-model').isVisible()));
  await frames(page);
  await shotFourWays(page, 'first-hour-landing');
  // A model file imported now ends the comparison and becomes the page's run.
  const bytes = await page.evaluate(async () => [...(await window.playground.model.exportModel())]);
  await page.setInputFiles('#import-model', {
    name: 'mine.safetensors',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(bytes),
  });
  await until(
    page,
    () => ({
      ok:
        document.body.dataset.compare === 'off' &&
        /Loaded mine\.safetensors/.test(document.getElementById('notice').textContent),
      compare: document.body.dataset.compare,
    }),
    'the imported model as the page run, the comparison ended',
  );
  // Import and Export: one height.
  const heights = await page.evaluate(() =>
    ['#export-model', 'label[for="import-model"]', '#export-config', 'label[for="import-config"]'].map(
      (s) => document.querySelector(s).getBoundingClientRect().height,
    ),
  );
  assert.ok(
    heights.every((x) => Math.abs(x - heights[0]) < 0.5),
    `heights ${heights}`,
  );
  await page.locator('.toolbar .files').screenshot({ path: `${RESULTS}/first-hour-files.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link without a comparison shows the single run; a link whose comparison is refused too', async () => {
  for (const hash of ['#task=copy', '#task=copy&compare=nonsense%3D1%2C2']) {
    const { page } = await openPlayground(h, hash);
    await until(page, () => document.body.dataset.compare !== 'on', `${hash}: the single-run layout`);
    assert.ok(await page.locator('#charts-panel').isVisible(), `${hash}: the charts`);
    await page.close();
  }
});

test('causal ALiBi: the bias map shows the masked future as masked, not as a bias', async () => {
  const { page, errors } = await openPlayground(h, '#task=copy&position=alibi&causal=true&seq_len=8');
  const legend = page.locator('#positions .heatmap-legend-note', { hasText: 'masked' }).first();
  await legend.waitFor({ timeout: WAIT.training });
  const map = await page.evaluate(() => {
    const c = document.querySelector('#positions canvas');
    return Boolean(c);
  });
  assert.ok(map);
  await page.locator('#positions').screenshot({ path: `${RESULTS}/first-hour-alibi-causal.png` });
  // Bidirectional: no key is masked, the whole map is the bias.
  const bi = await openPlayground(h, '#task=copy&position=alibi&causal=false&seq_len=8');
  await bi.page.locator('#positions canvas').first().waitFor();
  await until(bi.page, () => document.querySelectorAll('#positions .heatmap-legend').length > 0, 'the bias legends');
  assert.equal(await bi.page.locator('#positions .heatmap-legend-note', { hasText: 'masked' }).count(), 0);
  assert.deepEqual([...errors, ...bi.errors], []);
  await page.close();
  await bi.page.close();
});

test('dark mode: the permutation demo draws near-zero differences dark, not as a white block', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}permutation.html?steps=20&autoplay=0`, {
    scheme: 'dark',
  });
  const fig = page.locator('.apd-map').nth(2); // f(πX), πf(X), then their difference
  await fig.locator('canvas').waitFor({ timeout: WAIT.training });
  const mean = await until(
    page,
    async () => {
      const c = document.querySelectorAll('.apd-map')[2]?.querySelector('canvas');
      if (!c || !c.width || !c.height) return { ok: false };
      // the pixels as drawn, whatever context the canvas has
      const bmp = await createImageBitmap(c);
      const copy = new OffscreenCanvas(bmp.width, bmp.height);
      const g = copy.getContext('2d');
      g.drawImage(bmp, 0, 0);
      const d = g.getImageData(0, 0, bmp.width, bmp.height).data;
      let sum = 0;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i + 3]) ((sum += (d[i] + d[i + 1] + d[i + 2]) / 3), n++);
      return { ok: n > 100, mean: sum / n, n };
    },
    'the difference map drawn',
    { timeout: WAIT.training },
  );
  assert.ok(mean.mean < 128, `the difference map's mean lightness ${mean.mean.toFixed(0)} (a white block is ~247)`);
  await fig.screenshot({ path: `${RESULTS}/first-hour-permutation-dark.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
