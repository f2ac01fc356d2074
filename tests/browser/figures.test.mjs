// Figures to publish (issue 19 §3) in the real pages: after a little training, each view's
// "Download ▾" gives the figure as SVG (well-formed, one cell per entry, axis titles, a colour
// bar), PNG (at least twice the on-screen size), JSON and CSV (the numbers the view draws: the
// heatmap's matrix, rows summing to 1 under softmax). Views: an attention head, a position bias
// map and the ALiBi slopes, an explorer chart (RoPE), the probe grid (demo page). The menu fits a
// 375 px phone in dark mode. Files and screenshots: test-results/figures-*.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { startHarness, openPlayground, openPage, RESULTS, until, downloaded } from './harness.mjs';
import { parseSvg, pngSize } from '../node/figure-files.mjs';
import { parseCsv } from '../../web/src/common/csv.js';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

/**
 * Open the menu of `menu` (a .fig-dl locator), click `format`, and return the download.
 * @returns {Promise<{name: string, bytes: Buffer, text: string}>}
 */
async function grab(page, menu, format) {
  if (!(await menu.evaluate((d) => d.open))) await menu.locator('summary').click();
  const [dl] = await Promise.all([
    page.waitForEvent('download'),
    menu.locator(`button[data-format="${format}"]`).click(),
  ]);
  const bytes = await downloaded(dl);
  writeFileSync(`${RESULTS}/figures-${dl.suggestedFilename()}`, bytes);
  return { name: dl.suggestedFilename(), bytes, text: bytes.toString('utf8') };
}

const rowSumsNear1 = (values) => values.every((r) => Math.abs(r.reduce((a, b) => a + (b ?? 0), 0) - 1) < 1e-4);

test('playground: an attention head and the position maps download as SVG, PNG, JSON and CSV', async () => {
  const { page, errors } = await openPlayground(h, '#position=alibi&seq_len=8&causal=false&heads=2&layers=2');
  await page.evaluate(() => window.playground.train(20));
  await page.waitForFunction(() => window.playground.attention.maps[1]?.[1]?.matrix.length > 0);
  const shown = await page.evaluate(() => {
    const m = window.playground.attention.maps[1][1];
    return { matrix: m.matrix, tokens: m.rowLabels, width: m.canvas.getBoundingClientRect().width };
  });
  const T = shown.matrix.length;
  const menu = page.locator('#attention .attn-head').nth(3).locator('.fig-dl'); // layer 2, head 2

  const svg = await grab(page, menu, 'svg');
  assert.equal(svg.name, 'attnplay-attention-weights-layer2-head2.svg');
  const s = parseSvg(svg.bytes);
  assert.equal(s.root, 'svg');
  assert.equal(s.count['rect.cell'], T * T, 'one cell per query × key');
  assert.equal(s.count['rect.colorbar'], 1, 'a colour bar');
  assert.ok(s.texts.includes('key') && s.texts.includes('query'), 'axis titles');
  assert.ok(s.texts.includes('Attention weights, layer 2, head 2'), 'the title');
  assert.ok(s.texts.includes('weight:') && s.texts.includes('Σ'), "the colour scale's name and the row-sum column");
  assert.ok(
    s.texts.some((t) => /rows sum to 1/.test(t)),
    'what the range is',
  );

  const png = await grab(page, menu, 'png');
  const size = pngSize(png.bytes);
  assert.ok(size.width >= 2 * shown.width, `PNG ${size.width} px wide, on screen ${shown.width} px`);
  assert.equal(size.width, Math.round(s.width * 3), "the SVG's layout at 3×");
  assert.equal(size.height, Math.round(s.height * 3));

  const json = JSON.parse((await grab(page, menu, 'json')).text);
  assert.equal(json.rows, T);
  assert.equal(json.cols, T);
  assert.deepEqual(json.values, shown.matrix, 'the numbers the map draws');
  assert.deepEqual(json.row_labels, shown.tokens);
  assert.ok(rowSumsNear1(json.values), 'softmax rows sum to 1');
  assert.deepEqual(
    json.side.values.map((v) => Math.round(v * 1e4) / 1e4),
    Array(T).fill(1),
  );

  const csv = (await grab(page, menu, 'csv')).text.trimEnd().split('\n');
  assert.equal(csv.length, T + 1, 'a header and one row per query');
  assert.equal(csv[0].split(',').length, T + 2, 'the row label, T keys, Σ');
  for (let i = 1; i <= T; i++) {
    const cells = csv[i]
      .split(',')
      .slice(1, T + 1)
      .map(Number);
    assert.ok(Math.abs(cells.reduce((a, b) => a + b, 0) - 1) < 1e-4, `row ${i} sums to 1`);
  }

  // The panel with a menu open, as docs/playground.md shows it (test-results/figures-panel-1280.png).
  await page.locator('#attention-panel').scrollIntoViewIfNeeded();
  const first = page.locator('#attention .attn-head').nth(1).locator('.fig-dl');
  await first.locator('summary').click();
  await page.locator('#attention-panel').screenshot({
    path: `${RESULTS}/figures-panel-1280.png`,
    style: '.toolbar, .replay-bar { position: static !important; }',
  });
  await first.locator('summary').click();

  // The logits view downloads logits (masked entries: null in JSON).
  await page.evaluate(() => window.playground.attention.setShow('logits'));
  const logits = JSON.parse((await grab(page, menu, 'json')).text);
  assert.equal(logits.quantity, 'logit');
  assert.match(logits.title, /Attention logits/);

  // ALiBi: one bias map per head (diverging, centred on 0) and the slopes as bars.
  const pos = page.locator('#positions');
  await pos.scrollIntoViewIfNeeded();
  const bias = parseSvg((await grab(page, pos.locator('.pos-head').first().locator('.fig-dl'), 'svg')).bytes);
  const biasJson = JSON.parse((await grab(page, pos.locator('.pos-head').first().locator('.fig-dl'), 'json')).text);
  assert.equal(bias.count['rect.cell'], biasJson.rows * biasJson.cols);
  assert.equal(biasJson.diverging, true);
  assert.equal(biasJson.range[0], -biasJson.range[1], 'centred on 0');
  assert.ok(bias.texts.includes('0'), 'the diverging bar marks 0');
  const slopesMenu = pos.locator('figure.bars', { hasText: 'slopes' }).locator('.fig-dl');
  const slopes = parseSvg((await grab(page, slopesMenu, 'svg')).bytes);
  assert.equal(slopes.count['rect.bar'], 2, 'one bar per head');
  assert.ok(slopes.texts.includes('head'), 'the x axis says head');

  // The open menu, seen: 1280 px light, then 375 px dark (it must not leave the screen).
  await menu.locator('summary').scrollIntoViewIfNeeded();
  if (!(await menu.evaluate((d) => d.open))) await menu.locator('summary').click();
  await page.locator('#attention').screenshot({ path: `${RESULTS}/figures-menu-1280-light.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 375, height: 800 });
  await until(
    page,
    () => ({ ok: document.documentElement.scrollWidth <= 375, wide: document.documentElement.scrollWidth }),
    'the page at 375 px, no wider (its maps follow a ResizeObserver)',
  );
  for (const i of [0, 1]) {
    const m = page.locator('#attention .attn-head').nth(i).locator('.fig-dl');
    await m.scrollIntoViewIfNeeded();
    if (!(await m.evaluate((d) => d.open))) await m.locator('summary').click();
    // The menu turns rightwards in its toggle event (a task after the click): wait for it on a busy machine.
    await until(
      page,
      (e) => {
        const r = e.getBoundingClientRect();
        return { ok: r.left >= 0 && r.right <= 375, left: r.left, right: r.right };
      },
      `menu ${i} inside the phone's width`,
      { arg: await m.locator('.fig-dl-menu').elementHandle() },
    );
    const box = await m.locator('.fig-dl-menu').boundingBox();
    assert.ok(
      box && box.x >= 0 && box.x + box.width <= 375,
      `menu ${i} inside the phone's width: ${JSON.stringify(box)}`,
    );
    if (i === 0) await page.screenshot({ path: `${RESULTS}/figures-menu-375-dark.png` });
  }
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 375, `the page is ${wide} px wide at 375 px`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('explorer: a RoPE chart downloads as SVG (one path per line), JSON and CSV of its lines', async () => {
  const { page, errors } = await openPlayground(h, '#position=rope&seq_len=8&causal=true');
  await page.locator('#explore-panel').scrollIntoViewIfNeeded();
  await page.evaluate(() => window.playground.train(3));
  await page.waitForFunction(
    () => Number(window.playground.explore.data?.step) >= 3 && !window.playground.explore.busy,
    null,
    { timeout: 30000 },
  );
  const chart = await page.evaluate(() => {
    const c = window.playground.explore.charts[0];
    return { title: c.title, xs: c.run.xs, lines: c.lines().map((l) => l.name) };
  });
  const menu = page.locator('#explore .explore-chart').first().locator('.fig-dl');
  const s = parseSvg((await grab(page, menu, 'svg')).bytes);
  assert.equal(s.count['path.series'], chart.lines.length, 'one path per line');
  assert.equal(s.count['text.legend'], chart.lines.length, 'a legend entry per line');
  assert.ok(s.texts.includes('distance d = query − key'), 'the x axis title');
  assert.ok(s.count['path.marker'] >= 1, 'the m marker');
  const json = JSON.parse((await grab(page, menu, 'json')).text);
  assert.equal(json.kind, 'lines');
  assert.equal(json.title, chart.title);
  assert.deepEqual(json.x, chart.xs);
  assert.deepEqual(
    json.series.map((q) => q.label),
    chart.lines,
  );
  for (const q of json.series) assert.equal(q.values.length, chart.xs.length);
  const csv = parseCsv((await grab(page, menu, 'csv')).text);
  assert.deepEqual(csv.header, ['distance d = query − key', ...chart.lines]);
  assert.equal(csv.rows.length, chart.xs.length);
  assert.deepEqual(
    csv.rows.map((r) => Number(r[0])),
    chart.xs,
  );
  const png = pngSize((await grab(page, menu, 'png')).bytes);
  const onScreen = await page
    .locator('#explore .explore-chart')
    .first()
    .evaluate((e) => e.getBoundingClientRect().width);
  assert.ok(png.width >= 2 * Math.min(onScreen, 640) && png.width === Math.round(s.width * 3), `PNG ${png.width} px`);
  assert.deepEqual(errors, []);
  await page.close();
});

test("probe grid: the accuracy heatmap (SVG, PNG) and every cell's numbers (JSON, CSV)", async () => {
  const { page, errors } = await openPage(
    h.browser,
    `${h.url}probe.html?steps=40&seeds=1&positions=none,learned&normalizations=softmax,l2`,
  );
  await page.locator('.apd[data-complete="true"]').waitFor({ timeout: 120000 });
  const results = await page.evaluate(() => window.demo.results());
  const menu = page.locator('.apd-tools .fig-dl');
  const s = parseSvg((await grab(page, menu, 'svg')).bytes);
  assert.equal(s.count['rect.cell'], 4, '2 encodings × 2 normalizations');
  for (const t of ['none', 'learned', 'softmax', 'l2', 'position encoding', 'attention normalization', 'accuracy:'])
    assert.ok(s.texts.includes(t), t);
  for (const r of results)
    assert.ok(s.texts.includes(`${Math.round(r.accuracy * 100)}%`), `${r.position}/${r.normalization} labelled`);
  const json = JSON.parse((await grab(page, menu, 'json')).text);
  assert.deepEqual(json.values, [
    [results[0].accuracy, results[1].accuracy],
    [results[2].accuracy, results[3].accuracy],
  ]);
  assert.deepEqual(json.range, [0, 1]);
  assert.equal(json.cells.length, 4);
  assert.equal(json.cells[0].spread, results[0].spread);
  const csv = (await grab(page, menu, 'csv')).text.trimEnd().split('\n');
  assert.equal(
    csv[0],
    'position,normalization,state,accuracy_mean,accuracy_min,accuracy_max,spread,mirror_gap,outcome,seeds',
  );
  assert.equal(csv.length, 5);
  assert.equal(Number(csv[1].split(',')[3]), results[0].accuracy);
  const png = pngSize((await grab(page, menu, 'png')).bytes);
  assert.ok(png.width >= 2 * s.width, `PNG ${png.width} px for a ${s.width} unit figure`);
  await page.locator('.apd-tools').screenshot({ path: `${RESULTS}/figures-probe-menu.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
