// The widget's API for a page that drives it (docs/widgets.md, "Driving a widget"), on the built
// folder (dist/) served by a plain static server: play advances the step and fires `step` events
// with metrics, pause stops, step(n) trains exactly n steps, reset goes back to step 0, setConfig
// changes the encoding shown (and refuses a bad field with an `error` event naming it and the
// allowed values, keeping the model), `trained` fires at the end of the steps, highlight frames a
// head in the attention panel. Screenshot: test-results/widget-api-highlight.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { RESULTS, until } from './harness.mjs';
import { page as fixture, pauseAcknowledged, startWidgetServer } from './widget-fixtures.mjs';

const PAGES = {
  '/fixtures/api.html': fixture(
    '<attention-playground id="w" preset="none" view="chart,positions,attention" controls="play,step,reset" steps="5000" height="80"></attention-playground>',
  ),
};

let server;
before(async () => {
  server = await startWidgetServer(PAGES);
});
after(() => server?.close());

/** An init script: the widget's events recorded in window.__events. */
const recordEvents = (p) =>
  p.addInitScript(() => {
    window.__events = [];
    document.addEventListener('DOMContentLoaded', () => {
      const w = document.getElementById('w');
      for (const t of ['ready', 'metrics', 'step', 'trained', 'error'])
        w.addEventListener(t, (e) => window.__events.push({ type: t, detail: e.detail }));
    });
  });

/** The fixture, its widget ready; events recorded in window.__events. */
async function open() {
  const { page: p, errors } = await server.open('/fixtures/api.html', { height: 1400, setup: recordEvents });
  await p.waitForFunction(() => document.getElementById('w').status === 'ready', null, { timeout: 60000 });
  return { page: p, errors };
}

const call = (p, method, ...args) => p.evaluate(([m, a]) => document.getElementById('w')[m](...a), [method, args]);
const stepOf = (p) => p.evaluate(() => document.getElementById('w').currentStep);
const shown = (p) =>
  p.evaluate(() => {
    const r = document.getElementById('w').shadowRoot;
    return { step: r.querySelector('.ap-step').textContent, subtitle: r.querySelector('.ap-title .muted').textContent };
  });
const events = (p, type) => p.evaluate((t) => window.__events.filter((e) => e.type === t), type);

test('play, pause, train(n) (and step(n), its old name), reset and setConfig change what the widget shows; metrics (and step) and trained events carry metrics', async () => {
  const { page: p, errors } = await open();
  assert.equal((await events(p, 'ready')).length, 1);
  // play: the step advances, step events carry metrics
  assert.equal(await call(p, 'play'), true);
  await p.waitForFunction(() => document.getElementById('w').currentStep >= 30, null, { timeout: 30000 });
  const steps = await events(p, 'metrics');
  assert.ok(steps.length >= 1, 'metrics events while playing');
  const old = await events(p, 'step');
  assert.deepEqual(
    old.map((e) => e.detail.step),
    steps.map((e) => e.detail.step),
    'each metrics event is fired again under its old name, step',
  );
  const last = steps.at(-1).detail;
  assert.ok(
    last.step > 0 && Number.isFinite(last.loss) && last.trainAccuracy >= 0 && last.trainAccuracy <= 1,
    JSON.stringify(last),
  );
  // pause: it stops
  await call(p, 'pause');
  const paused = await pauseAcknowledged(p, '#w'); // and one more round trip to the worker later
  assert.equal(await stepOf(p), paused, 'no training after pause()');
  // train(n): exactly n
  assert.equal(await call(p, 'train', 7), true);
  await p.waitForFunction((n) => document.getElementById('w').currentStep === n, paused + 7, { timeout: 10000 });
  // The counter follows on the next chart flush (late on a busy machine; asserted below).
  await until(
    p,
    (n) => document.getElementById('w').shadowRoot.querySelector('.ap-step').textContent === String(n),
    `the counter to show step ${paused + 7}`,
    { arg: paused + 7 },
  );
  assert.equal(await stepOf(p), paused + 7);
  assert.equal((await shown(p)).step, String(paused + 7), 'the counter shows it');
  // reset: step 0
  assert.equal(await call(p, 'reset'), true);
  assert.equal(await stepOf(p), 0);
  assert.equal((await shown(p)).step, '0');
  // setConfig: the encoding shown changes, through a new model
  assert.match((await shown(p)).subtitle, /copy back · No position encoding/);
  assert.equal(await call(p, 'setConfig', { position: 'rope' }), true);
  const after = (await shown(p)).subtitle;
  assert.match(after, /rope|rotary/i);
  assert.doesNotMatch(after, /No position/);
  assert.equal(
    await p.evaluate(() => document.getElementById('w').getAttribute('position')),
    'rope',
    'written back as an attribute',
  );
  assert.equal(await p.evaluate(() => document.getElementById('w').app.model.info.config.position), 'rope');
  // trained: fires at the end of the steps
  assert.equal(await call(p, 'setConfig', { steps: 25 }), true);
  await call(p, 'play');
  await p.waitForFunction(() => window.__events.some((e) => e.type === 'trained'), null, { timeout: 30000 });
  const trained = (await events(p, 'trained'))[0].detail;
  assert.equal(trained.step, 25);
  assert.ok(Number.isFinite(trained.loss));
  assert.deepEqual(errors, []);
  await p.close();
});

test('a bad call fires `error` naming the field (and the allowed values) and leaves the widget as it was', async () => {
  const { page: p, errors } = await open();
  await call(p, 'step', 3);
  await p.waitForFunction(() => document.getElementById('w').currentStep === 3, null, { timeout: 10000 });
  const before = await shown(p);
  const cases = [
    [['setConfig', { position: 'nonsense' }], 'position', /position="nonsense": not one of .*rope/],
    [['setConfig', { bogus: 1 }], 'bogus', /bogus="1": unknown attribute/],
    [['setConfig', { 'd-model': 'lots' }], 'd-model', /not a number/],
    [['setConfig', { heads: 3, d_model: 32 }], 'd-model', /cannot train/],
    [['setConfig', { preset: 'probe' }], 'preset', /widget setting/],
    [['setConfig', { position: '<img src=x onerror="window.__pwned=1">' }], 'position', /not one of/],
    [['step', 0], 'n', /from 1 to 10000/],
    [['step', 2.5], 'n', /whole number/],
    [['highlight', { layer: 9, head: 0 }], 'layer', /has \d layers/],
    [['highlight', { layer: 0, head: 0, colour: 'red' }], 'colour', /not a field of highlight/],
  ];
  for (const [[method, arg], field, message] of cases) {
    const n = (await events(p, 'error')).length;
    assert.equal(await call(p, method, arg), false, `${method}(${JSON.stringify(arg)}) is refused`);
    const e = (await events(p, 'error'))[n]?.detail;
    assert.equal(e?.field, field, `${method}(${JSON.stringify(arg)}): ${JSON.stringify(e)}`);
    assert.match(e.message, message);
  }
  const bad = (await events(p, 'error'))[0].detail;
  assert.ok(bad.allowed.includes('rope') && bad.allowed.includes('none'), `the allowed values: ${bad.allowed}`);
  assert.deepEqual(await shown(p), before, 'the widget kept its model, step and encoding');
  assert.equal(await stepOf(p), 3);
  assert.equal(await p.evaluate(() => window.__pwned), undefined);
  assert.equal(
    await p.evaluate(() => document.getElementById('w').getAttribute('position')),
    null,
    'no attribute written for a refused field',
  );
  assert.deepEqual(errors, []);
  await p.close();
});

test('highlight({layer, head, row}) frames that head in the attention panel, across refreshes', async () => {
  const { page: p, errors } = await open();
  await call(p, 'step', 5);
  await p.waitForFunction(
    () => document.getElementById('w').shadowRoot.querySelectorAll('.attn-head canvas').length >= 2,
    null,
    { timeout: 20000 },
  );
  assert.equal(await call(p, 'highlight', { layer: 0, head: 1, row: 2 }), true);
  const picked = () =>
    p.evaluate(() => {
      const r = document.getElementById('w').shadowRoot;
      return [...r.querySelectorAll('.attn-layer')]
        .flatMap((layer, l) =>
          [...layer.querySelectorAll('.attn-head')].map((h, i) => [
            l,
            i,
            h.classList.contains('attn-selected'),
            h.getAttribute('aria-current'),
          ]),
        )
        .filter((x) => x[2]);
    });
  assert.deepEqual(await picked(), [[0, 1, true, 'true']]);
  const outline = await p.evaluate(
    () => getComputedStyle(document.getElementById('w').shadowRoot.querySelector('.attn-selected')).outlineStyle,
  );
  assert.equal(outline, 'solid');
  const maps = await p.evaluateHandle(() => document.getElementById('w').app.attention.last);
  await call(p, 'step', 3); // a refresh redraws the maps: the pick stays
  await until(
    p,
    (old) => document.getElementById('w').app.attention.last !== old,
    'the attention maps redrawn after step(3)',
    { arg: maps },
  );
  assert.deepEqual(await picked(), [[0, 1, true, 'true']]);
  await p.locator('#w').screenshot({ path: resolve(RESULTS, 'widget-api-highlight.png') });
  assert.equal(await call(p, 'highlight', null), true);
  assert.deepEqual(await picked(), []);
  assert.deepEqual(errors, []);
  await p.close();
});

// Issue 44: calls made one after another without waiting run in the order they were made, each
// once the one before has taken effect (setConfig's new model is built before the step that follows
// it runs; a reset before a step resets first; a setConfig after a step waits for those steps).
test('calls made without waiting run in order: setConfig then step(n) steps the new model', async () => {
  const { page: p, errors } = await open();
  const results = await p.evaluate(() => {
    const w = document.getElementById('w');
    return Promise.all([w.setConfig({ position: 'rope' }), w.step(5)]);
  });
  assert.deepEqual(results, [true, true], 'setConfig and step(5) both resolve true');
  const seen = await until(
    p,
    () => {
      const w = document.getElementById('w');
      const position = w.app?.model?.info.config.position;
      return { ok: position === 'rope' && w.currentStep === 5, position, step: w.currentStep };
    },
    'the rope model at step 5',
  );
  assert.equal(seen.step, 5);
  // step, then setConfig (after those steps), then step and highlight on the new model
  const more = await p.evaluate(() => {
    const w = document.getElementById('w');
    return Promise.all([w.step(3), w.setConfig({ position: 'alibi' }), w.step(4), w.highlight({ layer: 0, head: 1 })]);
  });
  assert.deepEqual(more, [true, true, true, true]);
  await until(
    p,
    () => {
      const w = document.getElementById('w');
      const position = w.app?.model?.info.config.position;
      return { ok: position === 'alibi' && w.currentStep === 4, position, step: w.currentStep };
    },
    'the alibi model at step 4',
  );
  // reset, then step: the steps run on the reset model (a reset still drops the steps called before it)
  assert.deepEqual(
    await p.evaluate(() => {
      const w = document.getElementById('w');
      return Promise.all([w.reset(), w.step(2)]);
    }),
    [true, true],
  );
  const last = await until(
    p,
    () => {
      const w = document.getElementById('w');
      const position = w.app?.model?.info.config.position;
      return { ok: position === 'alibi' && w.currentStep === 2, position, step: w.currentStep };
    },
    'the alibi model, reset, then at step 2',
  );
  assert.equal(last.step, 2);
  assert.deepEqual(await events(p, 'error'), [], 'no call was refused');
  assert.deepEqual(errors, []);
  await p.close();
});
