// Figures to publish from the embeddable widget (issue 19 §3), built (dist/) and served by a plain
// static server on a page whose Content-Security-Policy allows no blob: or data: images (the PNG is
// drawn straight on a canvas, so a host's strict img-src does not stop it): an attention head and
// a position map of a playground widget, and the probe grid of a probe widget, download as SVG
// (one cell per entry), PNG (3×) and JSON (the widget's numbers). Screenshot: test-results/figures-widget.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { RESULTS, until, downloaded } from './harness.mjs';
import { page as fixture, startWidgetServer, STRICT_CSP as CSP } from './widget-fixtures.mjs';
import { parseSvg, pngSize } from '../node/figure-files.mjs';

const FIXTURES = {
  '/fixtures/figures.html': fixture(
    `<attention-playground id="w" task="copy" position="alibi" causal="false" seq-len="8" steps="30" autoplay view="attention,positions"></attention-playground>
     <attention-playground id="p" preset="probe" positions="none,learned" normalizations="softmax" steps="30" autoplay compact></attention-playground>`,
    CSP,
  ),
};

let server;
before(async () => {
  server = await startWidgetServer(FIXTURES);
});
after(() => server?.close());

/** Open `menu` (a .fig-dl locator, inside the shadow root: locators pierce it) and download `format`. */
async function grab(page, menu, format) {
  if (!(await menu.evaluate((d) => d.open))) await menu.locator('summary').click();
  const [dl] = await Promise.all([
    page.waitForEvent('download'),
    menu.locator(`button[data-format="${format}"]`).click(),
  ]);
  return { name: dl.suggestedFilename(), bytes: await downloaded(dl) };
}

test('widget: attention, position map and probe grid download under a strict CSP', async () => {
  const { page, errors } = await server.open('/fixtures/figures.html');
  await page.waitForFunction(() => document.getElementById('w').currentStep >= 30, null, { timeout: 60000 });
  await page.waitForFunction(
    () => document.getElementById('w').shadowRoot.querySelectorAll('.attn-head').length > 0,
    null,
    { timeout: 30000 },
  );
  const w = page.locator('#w');
  const head = w.locator('.attn-head').first();
  await head.scrollIntoViewIfNeeded();
  // The widget draws its maps a few per frame: wait for the first one's matrix and canvas.
  await until(
    page,
    () => {
      const w = document.getElementById('w');
      const rows = w.app.attention.maps?.[0]?.[0]?.matrix?.length ?? 0;
      const canvas = w.shadowRoot.querySelector('.attn-head canvas');
      return {
        ok: rows > 0 && canvas?.getBoundingClientRect().width > 0,
        rows,
        width: canvas?.getBoundingClientRect().width ?? 0,
      };
    },
    'the first attention map drawn',
  );
  const T = await head
    .locator('canvas')
    .evaluate(() => document.getElementById('w').app.attention.maps[0][0].matrix.length);
  const onScreen = await head.locator('canvas').evaluate((c) => c.getBoundingClientRect().width);

  const svg = parseSvg((await grab(page, head.locator('.fig-dl'), 'svg')).bytes);
  assert.equal(svg.count['rect.cell'], T * T);
  assert.equal(svg.count['rect.colorbar'], 1);
  assert.ok(svg.texts.includes('key') && svg.texts.includes('query'));
  const png = pngSize((await grab(page, head.locator('.fig-dl'), 'png')).bytes);
  assert.ok(png.width >= 2 * onScreen, `PNG ${png.width} px, on screen ${onScreen} px`);
  const json = JSON.parse((await grab(page, head.locator('.fig-dl'), 'json')).bytes.toString());
  assert.equal(json.rows, T);
  for (const r of json.values) assert.ok(Math.abs(r.reduce((a, b) => a + b, 0) - 1) < 1e-4, 'softmax rows sum to 1');
  await head.locator('.fig-dl summary').click(); // open, for the screenshot
  const look = await head.locator('.fig-dl-menu').evaluate((m) => ({
    position: getComputedStyle(m).position,
    marker: getComputedStyle(m.previousElementSibling).listStyleType,
  }));
  assert.deepEqual(
    look,
    { position: 'absolute', marker: 'none' },
    "the menu's style reached the shadow root (build-widget.mjs keeps .fig-dl rules)",
  );
  await w.screenshot({ path: `${RESULTS}/figures-widget.png` });

  const bias = w.locator('.pos-head').first().locator('.fig-dl');
  await bias.scrollIntoViewIfNeeded();
  const biasJson = JSON.parse((await grab(page, bias, 'json')).bytes.toString());
  assert.equal(biasJson.diverging, true);
  assert.equal(parseSvg((await grab(page, bias, 'svg')).bytes).count['rect.cell'], biasJson.rows * biasJson.cols);

  const probe = page.locator('#p');
  await probe.scrollIntoViewIfNeeded();
  await page.waitForFunction(
    () => document.getElementById('p').shadowRoot?.querySelector('.apd[data-complete="true"]'),
    null,
    { timeout: 120000 },
  );
  const grid = probe.locator('.apd-tools .fig-dl');
  const g = parseSvg((await grab(page, grid, 'svg')).bytes);
  assert.equal(g.count['rect.cell'], 2, '2 encodings × 1 normalization');
  const gj = JSON.parse((await grab(page, grid, 'json')).bytes.toString());
  assert.equal(gj.cells.length, 2);
  assert.ok(
    gj.values.flat().every((v) => v >= 0 && v <= 1),
    'accuracies',
  );
  assert.deepEqual(errors, []);
  await page.close();
});
