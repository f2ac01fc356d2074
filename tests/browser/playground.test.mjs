// The playground page in Chromium, asserting on what a person sees: it trains the copy task and
// the loss falls; charts and heatmaps draw; pause stops the counter; the URL hash reproduces the
// setup; export then import gives the same predictions; a bad combination is explained inline;
// at 375 px the controls collapse and the page works by keyboard. Screenshots go to test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startHarness, openPage, shot as fullShot, RESULTS, ready, pausedPlayground, until } from './harness.mjs';

let h;
// Full-page screenshots from the top, so that the sticky toolbar sits where a person sees it.
async function shot(page, name) {
  await page.evaluate(() => scrollTo(0, 0));
  await fullShot(page, name);
}

before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

/** Wait until the page has a model for its current settings and has drawn it. */

/** Type a value into a settings field, as a person would, and wait for the rebuilt model. */
async function setField(page, key, value) {
  await page.fill(`#ctl-${key}`, String(value));
  await page.press(`#ctl-${key}`, 'Tab');
  await ready(page);
}

async function select(page, key, value) {
  await page.selectOption(`#ctl-${key}`, value);
  await ready(page);
}

const counter = async (page) => Number(await page.locator('#step-counter').textContent());

/** Play until the run stops by itself at `steps` (the Play button comes back). */
async function trainTo(page, steps) {
  await setField(page, 'steps', steps);
  await page.click('#play');
  await page.waitForFunction(
    (n) =>
      Number(document.getElementById('step-counter').textContent) >= n &&
      document.getElementById('play').textContent === 'Play',
    steps,
    { timeout: 60000 },
  );
  await page.waitForFunction(() => document.body.dataset.run === 'ready');
}

/** Pixel statistics of the canvases under a selector: how many are drawn, distinct colours. */
function canvasStats(page, selector) {
  return page.evaluate(
    (sel) =>
      [...document.querySelectorAll(sel)].map((c) => {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const colours = new Set();
        let inked = 0;
        let blue = 0;
        for (let i = 0; i < d.length; i += 4) {
          const [r, g, b, a] = [d[i], d[i + 1], d[i + 2], d[i + 3]];
          if (a > 0 && !(r > 245 && g > 245 && b > 245)) inked++;
          if (a > 200 && Math.abs(r - 26) < 30 && Math.abs(g - 115) < 30 && Math.abs(b - 232) < 30) blue++;
          colours.add((r << 16) | (g << 8) | b);
        }
        return { inked, colours: colours.size, blue, w: c.width, h: c.height };
      }),
    selector,
  );
}

/** Download through a button and return the file's text and path. */
async function downloadVia(page, selector, name) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const path = resolve(RESULTS, name);
  await dl.saveAs(path);
  return { path, text: readFileSync(path, 'utf8') };
}

test('trains copy for 200 steps: the loss falls and charts and heatmaps draw', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}#task=copy`);
  await ready(page);
  await select(page, 'task', 'reverse');
  await select(page, 'task', 'copy');
  assert.match(await page.locator('#help-task').textContent(), /Repeat a random digit string/);
  await trainTo(page, 200);
  assert.equal(await counter(page), 200);

  // The loss chart's CSV, as a person downloads it: train loss at step 1 vs the last 10 steps.
  const { text } = await downloadVia(page, '[data-chart="loss"] button:text("CSV")', 'playground-loss.csv');
  const rows = text
    .trim()
    .split('\n')
    .slice(1)
    .map((r) => r.split(','));
  const train = rows.filter((r) => r[1] !== '').map((r) => Number(r[1]));
  assert.equal(train.length, 200, 'one train loss per step');
  const late = train.slice(-10).reduce((a, b) => a + b) / 10;
  assert.ok(late < 0.5 * train[0], `loss ${train[0]} -> ${late}: should at least halve`);
  assert.ok(
    rows.some((r) => r[2] !== ''),
    'held-out evaluations are charted',
  );
  assert.ok(Number(await page.locator('#last-loss').textContent()) < train[0]);

  for (const s of await canvasStats(page, '#charts canvas'))
    assert.ok(s.blue > 50 && s.colours > 3, `a chart draws its train curve (${JSON.stringify(s)})`);
  const maps = await canvasStats(page, '#attention canvas');
  assert.equal(maps.length, 4, 'two layers × two heads');
  for (const s of maps) assert.ok(s.colours > 5 && s.inked > 1000, `a heatmap has content (${JSON.stringify(s)})`);
  const pos = await canvasStats(page, '#positions canvas');
  assert.ok(pos.length >= 2 && pos.every((s) => s.colours > 5), 'position encoding matrix and similarity drawn');
  assert.match(await page.locator('#predictions .summary').textContent(), /of 4 held-out examples/);
  assert.ok((await page.locator('#explain .katex').count()) >= 2, 'formulas typeset by KaTeX');

  // Hovering a heatmap cell names the query and key tokens and the weight.
  const map = page.locator('#attention canvas').first();
  const box = await map.boundingBox();
  await map.hover({ position: { x: box.width * 0.5, y: box.height * 0.6 } });
  assert.match(
    await page.locator('#attention .heatmap-tip:visible').textContent(),
    /query \d+ “.+” → key \d+ “.+”: weight [\d.e-]+ \(row sum/,
  );

  // Free input: the copy task's tokens are characters; the trained model copies what we type.
  await page.fill('#free-input', '52814736________'); // the training format: 8 digits, 8 blanks
  await page.click('#free-run');
  const model = page.locator('.free-out .tok-row').nth(1);
  await model.waitFor();
  assert.match(await model.textContent(), /^model.{8}52814736$/);
  await page.fill('#free-input', 'x');
  await page.click('#free-run');
  await page.locator('.free-out .error:text("Not in the vocabulary: “x”")').waitFor();
  await shot(page, 'playground-trained');
  assert.deepEqual(errors, []);
});

test('the form and the formulas show before the engine has loaded (the registry is data)', async () => {
  const page = await h.browser.newPage({ viewport: { width: 1280, height: 900 } });
  /** @type {(() => void)[]} */
  const held = [];
  await page.route(/\.wasm(\?|$)/, (route) => held.push(() => route.continue())); // the module waits
  await page.goto(`${h.url}#task=sort&position=alibi&normalization=softmax`);
  const seen = await until(
    page,
    () => {
      const pos = /** @type {HTMLSelectElement|null} */ (document.getElementById('ctl-position'));
      const card = document.querySelector('#explain [data-kind="position"]');
      return {
        ok: pos?.value === 'alibi' && /ALiBi/.test(card?.textContent ?? '') && !!card?.querySelector('.katex, math'),
        position: pos?.value,
        card: card?.textContent?.slice(0, 60),
        ready: document.getElementById('module-status')?.dataset.ready ?? null,
      };
    },
    'the settings and the ALiBi card drawn while the wasm request is held',
  );
  assert.equal(seen.ready, null, 'the engine had not loaded');
  assert.ok(held.length > 0, 'the page asked for the module');
  for (const go of held.splice(0)) go();
  await page.unroute(/\.wasm(\?|$)/);
  await ready(page);
  assert.equal(await page.inputValue('#ctl-task'), 'sort');
  await page.close();
});

test('pause stops the step counter', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}#task=copy`);
  await ready(page);
  // Only the click pauses here: "stop when solved" could pause on its own just before the click,
  // which would then (rightly) mean Play.
  await page.uncheck('#stop-solved');
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('step-counter').textContent) > 30, null, {
    timeout: 30000,
  });
  assert.equal(await page.locator('#play').textContent(), 'Pause');
  await page.click('#play');
  await page.locator('#play:text("Play")').waitFor();
  // The worker acknowledges the pause with its last step; steps it trained before it saw the
  // pause still reach the counter (metrics are buffered for a quarter second), then nothing more.
  // One more round trip to the worker finds it at the same step (pausedPlayground, until.mjs).
  const stopped = await pausedPlayground(page);
  assert.equal(await counter(page), stopped, 'no steps after the pause was acknowledged');
  assert.ok(Number.parseFloat(await page.locator('#elapsed').textContent()) > 0);
  await page.click('#step');
  await page.waitForFunction((n) => Number(document.getElementById('step-counter').textContent) === n + 1, stopped);
  await shot(page, 'playground-paused');
  assert.deepEqual(errors, []);
});

test('the URL hash reproduces the same settings; a malformed hash says what it ignored', async () => {
  const hash = '#task=reverse&d_model=48&heads=3&seed=7&position=sinusoidal&sinusoidal_base=500&lr=0.002&speed=5';
  const a = await openPage(h.browser, `${h.url}${hash}`);
  await ready(a.page);
  const formOf = (page) =>
    page.evaluate(() =>
      Object.fromEntries(
        [...document.querySelectorAll('#controls [id^="ctl-"]')].map((e) => [
          e.id,
          e.type === 'checkbox' ? e.checked : e.value,
        ]),
      ),
    );
  const formA = await formOf(a.page);
  assert.equal(formA['ctl-task'], 'reverse');
  assert.equal(formA['ctl-d_model'], '48');
  assert.equal(formA['ctl-heads'], '3');
  assert.equal(formA['ctl-sinusoidal_base'], '500');
  assert.equal(await a.page.locator('#speed').inputValue(), '5');
  assert.ok(await a.page.locator('#notice').isHidden());
  const full = await a.page.evaluate(() => location.hash);
  assert.match(full, /seed=7/);

  const b = await openPage(h.browser, `${h.url}${full}`);
  await ready(b.page);
  assert.deepEqual(await formOf(b.page), formA);
  assert.equal(await b.page.evaluate(() => location.hash), full);
  // Same seed, same config: the same untrained predictions.
  assert.equal(await b.page.locator('#predictions').textContent(), await a.page.locator('#predictions').textContent());

  const c = await openPage(h.browser, `${h.url}#task=copy&d_model=abc&bogus=1&heads=2`);
  await ready(c.page);
  const notice = await c.page.locator('#notice').textContent();
  assert.match(notice, /d_model=abc \(not a number\)/);
  assert.match(notice, /bogus=1 \(unknown setting\)/);
  assert.equal(await c.page.locator('#ctl-d_model').inputValue(), '32');
  await shot(c.page, 'playground-hash-notice');
  for (const p of [a, b, c]) assert.deepEqual(p.errors, []);
});

test('export then import gives the same model and predictions', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}#task=copy`);
  await ready(page);
  await trainTo(page, 60);
  const before = await page.locator('#predictions').textContent();
  const { path } = await downloadVia(page, '#export-model', 'playground-model.safetensors');
  const config = JSON.parse((await downloadVia(page, '#export-config', 'playground-config.json')).text);
  assert.equal(config.steps, 60);

  await setField(page, 'seed', 2); // a different model
  assert.equal(await counter(page), 0);
  assert.notEqual(await page.locator('#predictions').textContent(), before);

  await page.setInputFiles('#import-model', path);
  await page.locator('#notice:text("Loaded")').waitFor();
  await ready(page);
  assert.equal(await counter(page), 60);
  assert.equal(await page.locator('#ctl-seed').inputValue(), '1', "the file's config replaces the settings");
  assert.equal(await page.locator('#predictions').textContent(), before);
  await shot(page, 'playground-imported');
  assert.deepEqual(errors, []);
});

test('an invalid combination is explained inline before training, with no exception', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}#task=copy`);
  await ready(page);
  await page.fill('#ctl-heads', '3');
  await page.press('#ctl-heads', 'Tab');
  await page.waitForFunction(() => document.body.dataset.run === 'invalid');
  // Said once: beside the field just changed (announced), the other field it names marked and
  // described by the same message, nothing above the settings.
  const msg = page.locator('#err-heads');
  assert.ok(await msg.isVisible());
  assert.match(await msg.textContent(), /d_model: 32 is not divisible by heads = 3/);
  assert.equal(await msg.getAttribute('role'), 'alert');
  assert.ok(await page.locator('#config-error').isHidden());
  assert.ok(await page.locator('#err-d_model').isHidden());
  assert.equal(await page.locator('#ctl-heads').getAttribute('aria-invalid'), '');
  assert.equal(await page.locator('#ctl-d_model').getAttribute('aria-invalid'), '');
  assert.match((await page.locator('#ctl-d_model').getAttribute('aria-describedby')) ?? '', /\berr-heads\b/);
  assert.equal(await page.locator('#ctl-heads').inputValue(), '3', "the person's input stays");
  assert.ok(await page.locator('#play').isDisabled());
  await shot(page, 'playground-invalid');

  await page.fill('#ctl-d_model', '-4');
  await page.press('#ctl-d_model', 'Tab');
  assert.match(await page.locator('#err-d_model').textContent(), /below the minimum 1/);

  await setField(page, 'heads', 2);
  await page.fill('#ctl-d_model', '32');
  await page.press('#ctl-d_model', 'Tab');
  await ready(page);
  assert.ok(await msg.isHidden());
  assert.ok(await page.locator('#play').isEnabled());
  assert.deepEqual(errors, []);
});

test('pinning keeps a run on the charts, labelled by what differs', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}#task=copy`);
  await ready(page);
  await trainTo(page, 80);
  await page.click('#pin');
  await select(page, 'position', 'sinusoidal');
  await trainTo(page, 80);
  const legend = await page.locator('[data-chart="loss"] .u-legend').textContent();
  assert.match(legend, /pinned: position=learned/);
  const { text } = await downloadVia(page, '[data-chart="loss"] button:text("CSV")', 'playground-compare.csv');
  const header = text.split('\n')[0];
  assert.match(header, /train · pinned: position=learned/);
  await shot(page, 'playground-compare');
  assert.deepEqual(errors, []);
});

test('a pinned RoPE run is labelled by the one setting that differs, not by every RoPE option (375 px)', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}#task=copy&position=rope`);
  await ready(page);
  await trainTo(page, 20);
  await page.click('#pin');
  await select(page, 'position', 'none');
  await page.setViewportSize({ width: 375, height: 800 });
  const label = await until(
    page,
    () => {
      const l = document.querySelector('.pin-legend:not([hidden]) .pin-label')?.textContent ?? '';
      return { ok: /position=none|position=rope/.test(l) || l.includes('rope_'), l };
    },
    'the pinned-run legend after the position changed',
  );
  assert.equal(label.l, 'pinned: position=rope', 'only what differs from the current run (docs/playground.md)');
  const lines = await page.evaluate(() => {
    const p = document.querySelector('.pin-legend');
    return Math.round(p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight || '20'));
  });
  assert.ok(lines <= 3, `the legend takes ${lines} lines at 375 px`);
  assert.deepEqual(errors, []);
});

test('at 375 px the controls collapse, nothing overflows, and the keyboard alone trains', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}#task=copy`, { width: 375, height: 800 });
  await ready(page);
  assert.ok(await page.locator('#controls').isHidden(), 'settings start collapsed');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok(overflow <= 0, `page wider than the screen by ${overflow}px`);

  // Every form control has a name for screen readers.
  const unlabelled = await page.evaluate(() =>
    [...document.querySelectorAll('input, select, textarea, button')]
      .filter(
        (e) => !(e.labels?.length || e.getAttribute('aria-label') || (e.tagName === 'BUTTON' && e.textContent.trim())),
      )
      .map((e) => e.id || e.outerHTML.slice(0, 60)),
  );
  assert.deepEqual(unlabelled, []);

  await shot(page, 'playground-375');
  await page.focus('#controls-toggle');
  await page.keyboard.press('Enter');
  assert.ok(await page.locator('#controls').isVisible());
  await page.focus('#play');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => Number(document.getElementById('step-counter').textContent) > 10, null, {
    timeout: 30000,
  });
  await page.keyboard.press('Enter');
  await page.locator('#play:text("Play")').waitFor();
  await page.focus('#attention canvas');
  await page.keyboard.press('ArrowRight');
  assert.match(await page.locator('#attention .heatmap-tip:visible').textContent(), /query 0 .* key 1/);
  await shot(page, 'playground-375-open');
  assert.deepEqual(errors, []);
});

test("needs no network: every request stays on the page's own server", async () => {
  const page = await h.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const origin = new URL(h.url).origin;
  const outside = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  await page.goto(`${h.url}#task=copy`);
  await ready(page);
  await page.click('#step');
  await page.waitForFunction(() => document.getElementById('step-counter').textContent === '1');
  assert.deepEqual(outside, []);
  await page.close();
});
