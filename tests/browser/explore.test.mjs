// The Explore panel (issue 17 §3) in the real playground: every explorer view (rope, xpos, alibi,
// t5_bias, fire, shaw, urpe, sinusoidal, learned, kerple, dynamic_bias, scaled_sinusoidal, cope, forget,
// randomized with rope and learned wraps) draws at 1280 px and at 375 px after a few
// training steps — its chart has data, its formula is typeset by KaTeX, it names the engine file
// that computes it, nothing scrolls sideways; the RoPE slider turns the pair and the scaling adds
// its curves; an encoding without a view says so. One page; encodings switch through the URL hash.
// Screenshots (light and dark): test-results/explore-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, RESULTS, ready, until } from './harness.mjs';

const VIEWS = [
  ['rope', 'rotary', ''],
  ['xpos', 'rotary', '&xpos_gamma=32'],
  ['alibi', 'bias', '&causal=false&heads=4'],
  ['t5_bias', 'bias', ''],
  ['fire', 'bias', '&fire_length=8'],
  ['shaw', 'bias', ''],
  ['urpe', 'bias', ''],
  ['sinusoidal', 'absolute', ''],
  ['learned', 'absolute', ''],
  ['kerple', 'bias', '&kerple_kind=power'],
  ['dynamic_bias', 'bias', '&causal=false'],
  ['scaled_sinusoidal', 'absolute', ''],
  ['randomized', 'rotary', '&randomized_wrap=rope'],
  ['cope', 'bias', ''],
  ['forget', 'bias', ''],
  ['randomized', 'absolute', '&randomized_wrap=learned'], // not next to the rope wrap: show() waits for a new name
];

let h;
let page;
const errors = [];
before(async () => {
  h = await startHarness();
  page = await h.browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  await page.goto(`${h.url}#position=rope&seq_len=8&causal=true`);
  await ready(page);
});
after(async () => {
  await h?.close();
});

/**
 * Wait until the explorer shows what `fact` (run in the page) reads, with the panel kept in view
 * meanwhile: the panel works only while on screen, and a model rebuilt for a new hash can move it.
 */
function explorerShows(fact, what, arg) {
  const keepInView = () => {
    const panel = document.getElementById('explore-panel');
    const box = panel.getBoundingClientRect();
    // the panel's top in the upper half of the window, so that its observed body is on screen too
    if (box.top < 0 || box.top > innerHeight / 2) panel.scrollIntoView({ block: 'start' }); // as a reader would
  };
  return until(
    null,
    async () => {
      await page.evaluate(keepInView);
      return page.evaluate(fact, arg);
    },
    what,
    { timeout: 30000 },
  );
}

/** Switch the playground to `hash`, train 3 steps, and wait for the explorer to show them. */
async function show(name, extra) {
  await page.evaluate((hash) => {
    location.hash = hash;
  }, `#position=${name}&seq_len=8&causal=true${extra}`);
  await explorerShows(
    (n) => ({
      ok: window.playground.explore.data?.describe.name === n && document.body.dataset.run === 'ready',
      shown: window.playground.explore.data?.describe.name,
      run: document.body.dataset.run,
    }),
    `the explorer to show ${name}`,
    name,
  );
  // step(3), then the playground's refresh (resolves when the views show the latest state)
  await page.evaluate(async () => {
    await window.playground.train(3);
    await window.playground.refresh();
  });
  await explorerShows(
    () => ({
      ok: Number(window.playground.explore.data?.step) >= 3 && !window.playground.explore.busy,
      step: window.playground.explore.data?.step,
    }),
    `the explorer to show step 3 of ${name}`,
  );
}

/** The panel alone; the sticky toolbar, which would cover its top, kept in the flow meanwhile. */
const panelShot = (name) =>
  page
    .locator('#explore-panel')
    .screenshot({ path: `${RESULTS}/explore-${name}.png`, style: '.toolbar { position: static !important; }' });

/** What a person sees of the panel. */
function look() {
  return page.evaluate(() => {
    const panel = /** @type {HTMLElement} */ (document.getElementById('explore'));
    const ex = window.playground.explore;
    return {
      kind: panel.dataset.kind,
      points: ex.charts.map((c) =>
        c.plot.data.slice(1).reduce((n, col) => n + col.filter((v) => v != null && Number.isFinite(v)).length, 0),
      ),
      katex: panel.querySelectorAll('.explore-formula .katex').length,
      source: panel.querySelector('.explore-source code')?.textContent ?? '',
      overflow: document.documentElement.scrollWidth - innerWidth,
      panelOverflow: panel.scrollWidth - panel.clientWidth,
      canvasWidth: Math.max(...ex.charts.map((c) => c.plot.width)),
      panelWidth: panel.clientWidth,
    };
  });
}

for (const width of [1280, 375]) {
  test(`every explorer view draws at ${width} px`, async () => {
    await page.setViewportSize({ width, height: 900 });
    for (const [name, kind, extra] of VIEWS) {
      await show(name, extra);
      const v = await look();
      assert.equal(v.kind, kind, name);
      assert.ok(v.points.length >= 1 && v.points.every((n) => n > 8), `${name}: every chart has data (${v.points})`);
      assert.ok(v.katex >= 1, `${name}: the formula is typeset`);
      assert.match(v.source, new RegExp(`core/position/${name}\\.cpp`), name);
      assert.ok(v.overflow <= 0, `${name} at ${width}px: the page scrolls sideways by ${v.overflow}px`);
      assert.ok(v.panelOverflow <= 0 && v.canvasWidth <= v.panelWidth, `${name} at ${width}px: the panel overflows`);
      await panelShot(`${name}-${width}-light`);
    }
    assert.deepEqual(errors, []);
  });
}

test('RoPE: the slider turns the pair, a scaling adds dashed curves; dark screenshots', async () => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await show('rope', '');
  const data = () => page.evaluate(() => window.playground.explore.data);
  await page.selectOption('#explore-pair', '1');
  await page.locator('#explore-position').fill('7');
  await explorerShows(
    () =>
      window.playground.explore.data?.now.pair?.position === 7 &&
      window.playground.explore.data?.now.pair?.index === 1 &&
      !window.playground.explore.busy,
    'the explorer to show pair 1 at m = 7',
  );
  const d = await data();
  assert.ok(Math.abs(d.now.pair.angle - 7 * d.now.pair.theta) < 1e-9, 'the angle is m·θ_i');
  assert.match(await page.locator('#explore .explore-summary').textContent(), /^Pair 1: θ = .* At m = 7/);
  await page.selectOption('#explore-scaling', 'yarn');
  await explorerShows(
    () => window.playground.explore.data?.now.scaled?.scaling === 'yarn' && !window.playground.explore.busy,
    'the explorer to show the yarn scaling',
  );
  const labels = await page.evaluate(() => window.playground.explore.charts[0].series.map((s) => s.label));
  assert.ok(
    labels.some((l) => /yarn ×4/.test(l)),
    labels.join('; '),
  );
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: 'dark' });
    for (const [name, , extra] of [VIEWS[0], VIEWS[3], VIEWS[8]]) {
      if (name !== 'rope') await show(name, extra);
      assert.ok((await look()).overflow <= 0);
      await panelShot(`${name}-${width}-dark`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await show('rope', '');
  }
  assert.deepEqual(errors, []);
});

test('an encoding without an explorer view says so', async () => {
  await page.evaluate(() => {
    location.hash = '#position=none&seq_len=8';
  });
  await explorerShows(
    () => window.playground.explore.data?.describe.name === 'none',
    'the explorer to take up position none',
  );
  assert.equal(await page.locator('#explore').getAttribute('data-kind'), 'none');
  assert.match(await page.locator('#explore .explore-status').textContent(), /has no explorer view/);
  assert.deepEqual(errors, []);
});
