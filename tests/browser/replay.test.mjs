// The replay over training in the playground (panels/replay-panel.js over the core's replay frames):
// after 300 steps the scrubber moves through at least 10 frames, each shown in the attention
// panel with its step and marked on the charts; the attention maps drawn at an early and a late
// frame differ; the right end follows training again; Play animates to the end; the GIF and
// WebM downloads hold one frame per replay frame. Screenshots at 1280 and 375 px, light and dark:
// test-results/replay-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startHarness, RESULTS, ready, until, frames } from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const HASH = '#task=copy&position=learned&seq_len=8&steps=300';

/** @returns {Promise<{page: import('playwright-core').Page, errors: string[]}>} */
async function open({ width = 1280, scheme = 'light' } = {}) {
  const page = await h.browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  await page.goto(`${h.url}${HASH}`);
  await ready(page);
  await page.evaluate(() => window.playground.train(300));
  await page.waitForFunction(() =>
    /live: step 300/.test(document.querySelector('#replay .replay-step')?.textContent ?? ''),
  );
  return { page, errors };
}

/** Move the scrubber to frame k as a person does (an input event) and wait for its step. */
async function scrub(page, k) {
  const want = await page.evaluate((k) => {
    const range = /** @type {HTMLInputElement} */ (document.querySelector('#replay input[type=range]'));
    range.value = String(k);
    range.dispatchEvent(new Event('input'));
    const label = document.querySelector('#replay .replay-step');
    return k >= Number(range.max) ? 'live' : label?.textContent?.match(/^step (\d+)/)?.[1];
  }, k);
  await until(
    page,
    (w) => ({
      ok: document.querySelector('#replay').dataset.shown === w,
      shown: document.querySelector('#replay').dataset.shown,
    }),
    `the replay to show frame ${k} (${want})`,
    { arg: want },
  );
  await frames(page, 1);
  return page.evaluate(() => ({
    label: document.querySelector('#replay .replay-step')?.textContent ?? '',
    max: Number(document.querySelector('#replay input[type=range]').max),
  }));
}

/** The attention maps' pixels as data URLs (what a person sees in the panel). */
const attentionPixels = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('#attention canvas')]
      .map((c) => /** @type {HTMLCanvasElement} */ (c).toDataURL())
      .join('|'),
  );

test('the replay scrubs through at least 10 frames; early and late attention differ; downloads', async () => {
  const { page, errors } = await open();
  const max = Number(await page.locator('#replay input[type=range]').getAttribute('max'));
  assert.ok(max + 1 >= 10, `${max + 1} frames`);
  const steps = [];
  for (let k = 0; k < max; k++) {
    const { label } = await scrub(page, k);
    const m = label.match(/^step (\d+) of 300 \(frame (\d+)\/(\d+)\)/);
    assert.ok(m, label);
    assert.equal(Number(m[2]), k + 1);
    steps.push(Number(m[1]));
    assert.equal(
      await page.evaluate(() => window.playground.charts.charts[0].mark),
      Number(m[1]),
      'the charts mark the step shown',
    );
  }
  assert.ok(new Set(steps).size >= 10 && steps[0] === 0, steps.join(' '));
  for (const p of [1, 2, 4, 8, 16, 32, 64, 128, 256]) assert.ok(steps.includes(p), `step ${p} in ${steps.join(' ')}`);

  await scrub(page, max - 3); // a late step: the charts' solid line stands clear of the axis
  await page.locator('#charts-panel').screenshot({ path: `${RESULTS}/replay-charts-mark.png` });
  await scrub(page, 1);
  const early = await attentionPixels(page);
  await scrub(page, max - 1);
  const late = await attentionPixels(page);
  assert.notEqual(early, late, 'the attention maps change between step 1 and a late frame');

  const { label } = await scrub(page, max); // the right end: live again, no mark
  assert.match(label, /^live: step 300/);
  assert.equal(await page.evaluate(() => window.playground.charts.charts[0].mark), null);

  // Play animates through every frame and ends live.
  await page.click('#replay button:text("Play")');
  await page.waitForFunction(() =>
    /^step \d+ of/.test(document.querySelector('#replay .replay-step')?.textContent ?? ''),
  );
  await page.waitForFunction(
    () => /^live/.test(document.querySelector('#replay .replay-step')?.textContent ?? ''),
    null,
    { timeout: 30000 },
  );

  const gif = await downloadVia(page, '#replay button:text("GIF")', 'replay.gif');
  assert.equal(gif.subarray(0, 6).toString('latin1'), 'GIF89a');
  assert.equal(countGifFrames(gif), max + 1, 'one GIF frame per replay frame');
  const webm = await downloadVia(page, '#replay button:text("WebM")', 'replay.webm');
  assert.deepEqual([...webm.subarray(0, 4)], [0x1a, 0x45, 0xdf, 0xa3], 'a WebM (EBML) file');
  assert.ok(webm.length > 1000, `${webm.length} bytes of WebM`);
  assert.deepEqual(errors, []);
  await page.close();
});

// Issue 44: while the model trains the core thins its frames between two requests. The replay's
// Play, started again and again while training goes on, shows kept frames in step order and never
// stalls on a thinned one; each GIF made meanwhile holds a consistent set of frames; nothing is
// thrown.
test('while the model trains: the replay plays and the GIF downloads, again and again', async () => {
  const page = await h.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  await page.goto(`${h.url}#task=copy&position=learned&seq_len=8&steps=50000`);
  await ready(page);
  await page.evaluate(() => {
    window.__shown = [];
    new MutationObserver(() => window.__shown.push(document.querySelector('#replay').dataset.shown)).observe(
      document.querySelector('#replay'),
      { attributes: true, attributeFilter: ['data-shown'] },
    );
    window.playground.play();
  });
  const label = () => page.evaluate(() => document.querySelector('#replay .replay-step')?.textContent ?? '');
  const status = () => page.evaluate(() => document.querySelector('#replay .replay-status')?.textContent ?? '');
  for (let round = 0; round < 4; round++) {
    await until(page, () => !document.querySelector('#replay button')?.disabled, 'the replay to have frames');
    await page.evaluate(() => (window.__shown = []));
    await page.click('#replay button:text("Play")');
    // Six frames shown (or the right end reached), in step order, while training goes on.
    const seen = await until(
      page,
      () => {
        const shown = window.__shown.filter((s) => s !== 'live').map(Number);
        const label = document.querySelector('#replay .replay-step')?.textContent;
        return { ok: shown.length >= 6 || window.__shown.includes('live'), shown, label };
      },
      `round ${round}: the replay's Play to show six frames while the model trains`,
      { timeout: 30000 },
    );
    for (let k = 1; k < seen.shown.length; k++)
      assert.ok(seen.shown[k] > seen.shown[k - 1], `round ${round}: frames in step order: ${seen.shown.join(' ')}`);
    assert.ok(await page.evaluate(() => window.playground.model?.playing), 'the model still trains');
    // stop the animation (when it has not reached the right end)
    await page.evaluate(() => {
      const play = document.querySelector('#replay button');
      if (play.textContent === 'Pause') play.click();
    });
    assert.doesNotMatch(await status(), /Could not/);
    // The GIF, made while training goes on. The status still reads the last round's export
    // ("40 frames, 12 KB") until this one's starts: clear it, so that the wait below reads this one.
    await page.evaluate(() => {
      const status = document.querySelector('#replay .replay-status');
      if (status) status.textContent = '';
    });
    const download = page.waitForEvent('download', { timeout: 60000 });
    await page.click('#replay button:text("GIF")');
    const said = await until(
      page,
      () => {
        const text = document.querySelector('#replay .replay-status')?.textContent ?? '';
        return { ok: /KB$|Could not/.test(text), text };
      },
      `round ${round}: the GIF made or refused`,
      { timeout: 60000 },
    );
    assert.doesNotMatch(said.text, /Could not/, `round ${round}: ${said.text}`);
    const path = resolve(RESULTS, `replay-training-${round}.gif`);
    await (await download).saveAs(path);
    const gif = readFileSync(path);
    assert.equal(gif.subarray(0, 6).toString('latin1'), 'GIF89a');
    const n = Number(/^(\d+) frames/.exec(said.text)?.[1]);
    assert.ok(n >= 2, said.text);
    assert.equal(countGifFrames(gif), n, `round ${round}: one GIF frame per frame read`);
    assert.match(await label(), /live|step \d+ of/);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

// The four looks share one trained page (they only scrub and look): its width and scheme change as a
// reader's window and system do. It closes with the browser.
/** @type {ReturnType<typeof open> | undefined} */
let looks;

for (const [width, scheme] of [
  [1280, 'light'],
  [1280, 'dark'],
  [375, 'light'],
  [375, 'dark'],
]) {
  test(`${width} px, ${scheme}: the replay bar at an early frame`, async () => {
    looks ??= open({ width, scheme });
    const { page, errors } = await looks;
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    await scrub(page, 3);
    await frames(page); // the maps follow a ResizeObserver and the theme
    const bar = await page.locator('#replay').boundingBox();
    assert.ok(bar && bar.width <= width, 'the bar fits the width');
    await page.locator('#attention-panel').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${RESULTS}/replay-${width}-${scheme}.png` });
    await page.locator('.replay-scope').screenshot({ path: `${RESULTS}/replay-${width}-${scheme}-panels.png` });
    assert.deepEqual(errors, []);
  });
}

/** Download through a button; the file's bytes. */
async function downloadVia(page, selector, name) {
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), page.click(selector)]);
  const path = resolve(RESULTS, name);
  await dl.saveAs(path);
  return readFileSync(path);
}

/** Frames of a GIF: graphic control extensions (21 F9 04 ... 00) followed by an image descriptor (2C). */
function countGifFrames(buf) {
  let n = 0;
  for (let i = 0; i + 8 < buf.length; i++)
    if (buf[i] === 0x21 && buf[i + 1] === 0xf9 && buf[i + 2] === 0x04 && buf[i + 7] === 0 && buf[i + 8] === 0x2c) n++;
  return n;
}
