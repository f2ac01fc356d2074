// The widget's comparison, compare="field=value,value": one model per run trained side by side on
// the pool with the same seed and batches. The runs' rows name what differs; the loss and accuracy
// charts hold one curve per run; each run's attention maps sit side by side. Curves differ where
// the setups differ (order without and with positions: one stays at chance, one learns) and are
// equal, step for step, when nothing differs; so are their heads. With view="heads", a table
// of each run's head labels: on copy, learned positions grow heads that read a fixed offset back,
// none does not. A bad spec is explained in the widget's box, as
// text. At 1280 px light and 375 px dark. Screenshots go to test-results/widget-compare-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { RESULTS, until } from './harness.mjs';
import { page as fixture, startWidgetServer } from './widget-fixtures.mjs';

const PAGES = {
  '/fixtures/compare.html': fixture(
    '<attention-playground task="order" compare="position=none,rope" steps="600" view="chart,attention" autoplay></attention-playground>',
  ),
  '/fixtures/compare-same.html': fixture(
    '<attention-playground task="copy" compare="position=rope,rope" steps="40" view="chart,heads" autoplay></attention-playground>',
  ),
  '/fixtures/compare-heads.html': fixture(
    '<attention-playground task="copy" seq-len="12" compare="position=none,learned" steps="300" view="chart,heads" autoplay></attention-playground>',
  ),
  '/fixtures/compare-bad.html': fixture(
    '<attention-playground compare="position=none,&lt;img src=x onerror=alert(1)&gt;"></attention-playground>',
  ),
  '/fixtures/compare-bad-zh.html': fixture(
    '<attention-playground lang="zh" compare="position=none,warp"></attention-playground><attention-playground lang="zh" compare="position=none"></attention-playground>',
  ),
};

let server;
before(async () => {
  server = await startWidgetServer(PAGES);
});
after(() => server?.close());

const open = (path, { width = 1280, colorScheme = 'light' } = {}) => server.open(path, { width, colorScheme });

/** Wait until every run of the first widget has trained `steps` steps; its runs' data. */
async function runsAt(p, steps, evaluated = true) {
  // Every run drew its last step (and its evaluation, when it has one by then), and stopped.
  await until(
    p,
    ([n, withEval]) => {
      const w = document.querySelector('attention-playground');
      const runs = w.app?.view.runs ?? []; // what the view drew (w.app: the runs, w.app.view: their view)
      const playing = w.app?.set.playing;
      return {
        ok:
          w.status === 'error' ||
          (w.status === 'ready' &&
            runs.length > 0 &&
            runs.every((r) => r.last.step >= n && (!withEval || r.last.acc !== null) && !playing)),
        status: w.status,
        error: w.error,
        last: runs.map((r) => r.last),
      };
    },
    `every run of the widget to train ${steps} steps${evaluated ? ', show its evaluation' : ''} and stop`,
    { arg: [steps, evaluated], timeout: 120000 },
  );
  const w = await p.evaluate(() => {
    const e = document.querySelector('attention-playground');
    return { status: e.status, error: e.error };
  });
  assert.equal(w.status, 'ready', `widget: ${w.error}`);
  return p.evaluate(() => {
    const view = document.querySelector('attention-playground').app.view;
    const [loss, acc] = view.charts.map(([c]) => c.run.cols);
    return view.runs.map((r, i) => ({
      name: r.name,
      last: r.last,
      loss: loss[`r${i}`],
      acc: acc[`r${i}`].filter((v) => v != null),
    }));
  });
}

for (const [width, colorScheme] of [
  [1280, 'light'],
  [375, 'dark'],
])
  test(`order without and with positions, side by side (${width} px, ${colorScheme})`, async () => {
    const { page: p, errors } = await open('/fixtures/compare.html', { width, colorScheme });
    const runs = await runsAt(p, 600);
    const root = p.locator('attention-playground');
    assert.deepEqual(await root.locator('.ap-compare-runs tbody th').allTextContents(), [
      'position=none',
      'position=rope',
    ]);
    assert.match(
      await root.locator('.ap-compare-title').textContent(),
      /Compare position: none vs rope · same seed, same batches/,
    );
    const [none, rope] = runs;
    console.log(`${width} px: held-out accuracy after 600 steps, none ${none.last.acc}, rope ${rope.last.acc}`);
    assert.ok(
      none.loss.filter((v) => v != null).length >= 250 && rope.loss.filter((v) => v != null).length >= 250,
      'a loss curve per run (a point every 2 steps)',
    );
    assert.ok(none.last.acc <= 0.7, `none stays near chance: ${none.last.acc}`);
    assert.ok(rope.last.acc >= 0.9, `rope learns order: ${rope.last.acc}`);
    assert.notDeepEqual(none.loss.slice(0, 50), rope.loss.slice(0, 50), 'the curves part');
    // Each run's attention, side by side (one column on a phone), for the same example (an inspection: late on a busy machine).
    await until(
      p,
      () =>
        [...document.querySelector('attention-playground').shadowRoot.querySelectorAll('.ap-compare-map')].every(
          (f) => f.querySelectorAll('canvas').length > 0,
        ),
      "each run's attention map drawn",
    );
    const maps = await p.evaluate(() =>
      [...document.querySelector('attention-playground').shadowRoot.querySelectorAll('.ap-compare-map')].map((f) => {
        const r = f.getBoundingClientRect();
        return {
          caption: f.querySelector('figcaption').textContent,
          canvases: f.querySelectorAll('canvas').length,
          left: Math.round(r.left),
          top: Math.round(r.top),
        };
      }),
    );
    assert.deepEqual(
      maps.map((m) => m.caption),
      ['position=none', 'position=rope'],
    );
    assert.ok(
      maps.every((m) => m.canvases > 0),
      JSON.stringify(maps),
    );
    if (width === 1280) assert.equal(maps[0].top, maps[1].top, 'side by side');
    else assert.ok(maps[1].top > maps[0].top, 'stacked on a phone');
    assert.ok(await p.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'nothing scrolls sideways');
    await p.screenshot({ path: resolve(RESULTS, `widget-compare-${width}-${colorScheme}.png`), fullPage: true });
    assert.deepEqual(errors, []);
    await p.close();
  });

test('two identical runs (same settings, same seed) draw identical curves, step for step', async () => {
  const { page: p, errors } = await open('/fixtures/compare-same.html');
  const [a, b] = await runsAt(p, 40, false); // 40 steps: no held-out evaluation yet
  assert.deepEqual([a.name, b.name], ['run 1', 'run 2']);
  assert.equal(a.loss.length, b.loss.length);
  assert.ok(a.loss.filter((v) => v != null).length >= 40);
  assert.deepEqual(a.loss, b.loss, 'the same losses at every step');
  assert.deepEqual(a.acc, b.acc);
  const cells = await headCells(p);
  assert.equal(cells.length, 4, '2 layers × 2 heads');
  assert.ok(
    cells.every(([x, y]) => x.text === y.text && x.text.length > 0),
    `the same heads: ${JSON.stringify(cells)}`,
  );
  assert.deepEqual(errors, []);
  await p.close();
});

/** The heads table once both runs are measured: per row, each run's cell (labels and text). */
async function headCells(p) {
  await p.waitForFunction(
    () =>
      document
        .querySelector('attention-playground')
        .shadowRoot.querySelectorAll('.ap-compare-heads tbody td[data-labels]').length >= 8,
    null,
    { timeout: 30000 },
  );
  return p.evaluate(() =>
    [...document.querySelector('attention-playground').shadowRoot.querySelectorAll('.ap-compare-heads tbody tr')].map(
      (tr) =>
        [...tr.querySelectorAll('td')].map((td) => ({ labels: td.dataset.labels ?? '', text: td.textContent ?? '' })),
    ),
  );
}

for (const [width, colorScheme] of [
  [1280, 'light'],
  [375, 'dark'],
])
  test(`view="chart,heads": the runs' heads side by side, learned positions grow positional heads, none does not (${width} px, ${colorScheme})`, async () => {
    const { page: p, errors } = await open('/fixtures/compare-heads.html', { width, colorScheme });
    await runsAt(p, 300);
    // the table follows the inspection: wait for both runs measured at step 300
    await p.waitForFunction(
      () =>
        /none at step 300, learned at step 300|position=none at step 300, position=learned at step 300/.test(
          document.querySelector('attention-playground').shadowRoot.querySelector('.ap-compare-heads caption')
            ?.textContent ?? '',
        ),
      null,
      { timeout: 30000 },
    );
    const root = p.locator('attention-playground');
    assert.deepEqual(await root.locator('.ap-compare-heads thead th').allTextContents(), [
      'head',
      'position=none',
      'position=learned',
    ]);
    assert.deepEqual(await root.locator('.ap-compare-heads tbody th').allTextContents(), [
      'layer 1 · head 1',
      'layer 1 · head 2',
      'layer 2 · head 1',
      'layer 2 · head 2',
    ]);
    const cells = await headCells(p);
    const none = cells.map((r) => r[0]),
      learned = cells.map((r) => r[1]);
    assert.ok(!none.some((c) => c.labels.includes('positional')), `none: no positional head: ${JSON.stringify(none)}`);
    const pos = learned.slice(0, 2).filter((c) => c.labels.includes('positional'));
    assert.ok(pos.length >= 1, `learned: a first-layer head reads a fixed offset: ${JSON.stringify(learned)}`);
    assert.match(pos[0].text, /positional offset share (0\.[5-9]\d|1\.00) ≥ 0\.50 at offset \+6/);
    assert.ok(await p.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'nothing scrolls sideways');
    const fit = await p.evaluate(() => {
      const t = /** @type {HTMLElement} */ (
        document.querySelector('attention-playground').shadowRoot.querySelector('.ap-compare-heads')
      );
      return { table: t.getBoundingClientRect().width, box: /** @type {HTMLElement} */ (t.parentElement).clientWidth };
    });
    assert.ok(fit.table <= fit.box + 1, `the heads table fits its panel: ${JSON.stringify(fit)}`);
    await root
      .locator('[data-view="heads"]')
      .screenshot({ path: resolve(RESULTS, `widget-compare-heads-${width}-${colorScheme}.png`) });
    assert.deepEqual(errors, []);
    await p.close();
  });

test('a bad compare attribute is explained in the box, as text', async () => {
  const { page: p } = await open('/fixtures/compare-bad.html');
  const box = p.locator('attention-playground');
  await p.waitForFunction(() => document.querySelector('attention-playground').status === 'error', null, {
    timeout: 30000,
  });
  const text = await box.evaluate((w) => w.shadowRoot.textContent);
  assert.match(
    text,
    /compare="position=none,<img src=x onerror=alert\(1\)>": .*position=<img src=x onerror=alert\(1\)> in run 2: not one of none,|compare: position=<img src=x onerror=alert\(1\)> in run 2: not one of/,
  );
  assert.equal(await box.evaluate((w) => w.shadowRoot.querySelectorAll('img').length), 0, 'text, not markup');
  await p.close();
});

test('a Chinese widget explains a bad compare attribute in Chinese, under its Chinese heading', async () => {
  const { page: p } = await open('/fixtures/compare-bad-zh.html');
  await p.waitForFunction(
    () => [...document.querySelectorAll('attention-playground')].every((w) => w.status === 'error'),
    null,
    { timeout: 30000 },
  );
  const [warp, one] = await p.evaluate(() =>
    [...document.querySelectorAll('attention-playground')].map(
      (w) => w.shadowRoot.querySelector('.ap-error').textContent,
    ),
  );
  assert.match(warp, /^这个组件无法启动。compare：第 2 次训练的 position=warp：不是允许的值之一：none, /);
  assert.match(one, /compare="position=none"：至少需要两次训练/);
  for (const text of [warp, one]) assert.doesNotMatch(text, /\b(run|runs|needs|not one of)\b/, `no English: ${text}`);
  await p.close();
});
