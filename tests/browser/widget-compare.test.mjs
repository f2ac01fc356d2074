// The widget's comparison, compare="field=value,value": one model per run trained side by side on
// the pool with the same seed and batches. The runs' rows name what differs; the loss and accuracy
// charts hold one curve per run; each run's attention maps sit side by side. Curves differ where
// the setups differ (order without and with positions: one stays at chance, one learns) and are
// equal, step for step, when nothing differs. A bad spec is explained in the widget's box, as
// text. At 1280 px light and 375 px dark. Screenshots go to test-results/widget-compare-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { RESULTS } from './harness.mjs';
import { page as fixture, startWidgetServer } from './widget-fixtures.mjs';

const PAGES = {
  '/fixtures/compare.html': fixture('<attention-playground task="order" compare="position=none,rope" steps="600" view="chart,attention" autoplay></attention-playground>'),
  '/fixtures/compare-same.html': fixture('<attention-playground task="copy" compare="position=rope,rope" steps="40" view="chart" autoplay></attention-playground>'),
  '/fixtures/compare-bad.html': fixture('<attention-playground compare="position=none,&lt;img src=x onerror=alert(1)&gt;"></attention-playground>'),
};

let server;
before(async () => { server = await startWidgetServer(PAGES); });
after(() => server?.close());

const open = (path, { width = 1280, colorScheme = 'light' } = {}) => server.open(path, { width, colorScheme });

/** Wait until every run of the first widget has trained `steps` steps; its runs' data. */
async function runsAt(p, steps) {
  await p.waitForFunction((n) => {
    const w = document.querySelector('attention-playground');
    if (w.status === 'error') throw new Error(`widget: ${w.error}`);
    return w.status === 'ready' && w.app?.runs?.every((r) => r.last.step >= n);
  }, steps, { timeout: 120000, polling: 250 });
  await p.waitForTimeout(400); // the last flush and a snapshot
  return p.evaluate(() => {
    const app = document.querySelector('attention-playground').app;
    const [loss, acc] = app.charts.map(([c]) => c.run.cols);
    return app.runs.map((r, i) => ({ name: r.name, last: r.last, loss: loss[`r${i}`], acc: acc[`r${i}`].filter((v) => v != null) }));
  });
}

for (const [width, colorScheme] of [[1280, 'light'], [375, 'dark']])
  test(`order without and with positions, side by side (${width} px, ${colorScheme})`, async () => {
    const { page: p, errors } = await open('/fixtures/compare.html', { width, colorScheme });
    const runs = await runsAt(p, 600);
    const root = p.locator('attention-playground');
    assert.deepEqual(await root.locator('.ap-compare-runs tbody th').allTextContents(), ['position=none', 'position=rope']);
    assert.match(await root.locator('.ap-compare-title').textContent(), /Compare position: none vs rope · same seed, same batches/);
    const [none, rope] = runs;
    console.log(`${width} px: held-out accuracy after 600 steps, none ${none.last.acc}, rope ${rope.last.acc}`);
    assert.ok(none.loss.filter((v) => v != null).length >= 250 && rope.loss.filter((v) => v != null).length >= 250, 'a loss curve per run (a point every 2 steps)');
    assert.ok(none.last.acc <= 0.7, `none stays near chance: ${none.last.acc}`);
    assert.ok(rope.last.acc >= 0.9, `rope learns order: ${rope.last.acc}`);
    assert.notDeepEqual(none.loss.slice(0, 50), rope.loss.slice(0, 50), 'the curves part');
    // Each run's attention, side by side (one column on a phone), for the same example.
    const maps = await p.evaluate(() => [...document.querySelector('attention-playground').shadowRoot.querySelectorAll('.ap-compare-map')].map((f) => {
      const r = f.getBoundingClientRect();
      return { caption: f.querySelector('figcaption').textContent, canvases: f.querySelectorAll('canvas').length, left: Math.round(r.left), top: Math.round(r.top) };
    }));
    assert.deepEqual(maps.map((m) => m.caption), ['position=none', 'position=rope']);
    assert.ok(maps.every((m) => m.canvases > 0), JSON.stringify(maps));
    if (width === 1280) assert.equal(maps[0].top, maps[1].top, 'side by side');
    else assert.ok(maps[1].top > maps[0].top, 'stacked on a phone');
    assert.ok(await p.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'nothing scrolls sideways');
    await p.screenshot({ path: resolve(RESULTS, `widget-compare-${width}-${colorScheme}.png`), fullPage: true });
    assert.deepEqual(errors, []);
    await p.close();
  });

test('two identical runs (same settings, same seed) draw identical curves, step for step', async () => {
  const { page: p, errors } = await open('/fixtures/compare-same.html');
  const [a, b] = await runsAt(p, 40);
  assert.deepEqual([a.name, b.name], ['run 1', 'run 2']);
  assert.equal(a.loss.length, b.loss.length);
  assert.ok(a.loss.filter((v) => v != null).length >= 40);
  assert.deepEqual(a.loss, b.loss, 'the same losses at every step');
  assert.deepEqual(a.acc, b.acc);
  assert.deepEqual(errors, []);
  await p.close();
});

test('a bad compare attribute is explained in the box, as text', async () => {
  const { page: p } = await open('/fixtures/compare-bad.html');
  const box = p.locator('attention-playground');
  await p.waitForFunction(() => document.querySelector('attention-playground').status === 'error', null, { timeout: 30000 });
  const text = await box.evaluate((w) => w.shadowRoot.textContent);
  assert.match(text, /compare="position=none,<img src=x onerror=alert\(1\)>": .*position=<img src=x onerror=alert\(1\)> in run 2: not one of none,|compare: position=<img src=x onerror=alert\(1\)> in run 2: not one of/);
  assert.equal(await box.evaluate((w) => w.shadowRoot.querySelectorAll('img').length), 0, 'text, not markup');
  await p.close();
});
