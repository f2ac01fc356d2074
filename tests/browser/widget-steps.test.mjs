// step(n) calls on the element (docs/widgets.md, "Driving a widget"), on the built folder (dist/):
// what a page that calls step(10000) three times gets. The third is refused (`error` naming n: at
// most 10000 steps wait behind the running ones); then pause(), the widget's own Pause button,
// reset() and the widget scrolling off screen each stop the training: the step shown stays, and
// the worker reports the same step before and after two of its heartbeats (widget-stops.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { page as fixture, startWidgetServer } from './widget-fixtures.mjs';
import { assertStopped, stepsDrained } from './widget-stops.mjs';

const PAGES = {
  '/fixtures/steps.html':
    fixture(`<attention-playground id="w" preset="none" controls="play,step,reset" steps="50000" height="80"></attention-playground>
    <div id="below" style="height:4000px"></div>`),
};

let server;
before(async () => {
  server = await startWidgetServer(PAGES);
});
after(() => server?.close());

/** The fixture, its widget ready; its `error` events in window.__errors. */
async function open() {
  const { page: p, errors } = await server.open('/fixtures/steps.html', {
    height: 900,
    setup: (pg) =>
      pg.addInitScript(() => {
        window.__errors = [];
        document.addEventListener('DOMContentLoaded', () =>
          document.getElementById('w').addEventListener('error', (e) => window.__errors.push(e.detail)),
        );
      }),
  });
  await p.waitForFunction(() => document.getElementById('w').status === 'ready', null, { timeout: 60000 });
  return { page: p, errors };
}

/**
 * Three step(10000) calls, as the page in the issue made: returns when training is under way,
 * the third refused and 10000 steps waiting. The calls' promises are kept in window.__steps.
 */
async function threeSteps(p) {
  await p.evaluate(() => {
    const w = document.getElementById('w');
    window.__steps = [w.step(10000), w.step(10000), w.step(10000)];
  });
  await p
    .waitForFunction(() => window.__errors.some((e) => e.field === 'n'), null, { timeout: 20000 })
    .catch(() => assert.fail('the third step(10000) was not refused'));
  const refused = await p.evaluate(() => window.__errors.find((e) => e.field === 'n'));
  assert.match(refused.message, /10000 steps already wait .* at most 10000 may wait/);
  assert.equal(await p.evaluate(() => window.__steps[2]), false, 'the third call resolves false');
  await p
    .waitForFunction(() => document.getElementById('w').currentStep > 0, null, { timeout: 30000 })
    .catch(() => assert.fail('step(10000) did not start training'));
  assert.equal(
    await p.evaluate(() => document.getElementById('w').app.steps.waiting?.n),
    10000,
    'one step(10000) waits',
  );
}

const buttonText = (p) =>
  p.evaluate(() => document.getElementById('w').shadowRoot.querySelector('.ap-transport button.primary').textContent);

test('three step(10000), then pause(): training stops when pause resolves', async () => {
  const { page: p, errors } = await open();
  await threeSteps(p);
  assert.equal(await buttonText(p), 'Pause', 'the widget says it is training');
  assert.equal(await p.evaluate(() => document.getElementById('w').pause()), true);
  const stopped = await assertStopped(p, '#w', 'after pause()');
  assert.ok(stopped < 20000, `stopped at ${stopped}`);
  await stepsDrained(p, '#w', 'after pause()');
  assert.deepEqual(
    await p.evaluate(() => Promise.all(window.__steps)),
    [false, false, false],
    'the cancelled calls resolve false',
  );
  assert.equal(await buttonText(p), 'Play');
  assert.equal(await p.evaluate(() => window.__errors.length), 1, 'a pause is no error');
  // The widget steps again afterwards, exactly.
  assert.equal(await p.evaluate(() => document.getElementById('w').step(3)), true);
  assert.equal(await p.evaluate(() => document.getElementById('w').currentStep), stopped + 3);
  assert.deepEqual(errors, []);
  await p.close();
});

test("three step(10000), then the widget's own Pause button: training stops", async () => {
  const { page: p, errors } = await open();
  await threeSteps(p);
  await p.locator('#w .ap-transport button.primary').click();
  await stepsDrained(p, '#w', 'after the Pause button');
  await assertStopped(p, '#w', 'after the Pause button');
  assert.equal(await buttonText(p), 'Play');
  assert.deepEqual(errors, []);
  await p.close();
});

test('three step(10000), then reset(): back to step 0, and it stays there', async () => {
  const { page: p, errors } = await open();
  await threeSteps(p);
  assert.equal(await p.evaluate(() => document.getElementById('w').reset()), true);
  await stepsDrained(p, '#w', 'after reset()');
  assert.equal(await assertStopped(p, '#w', 'after reset()'), 0);
  assert.equal(
    await p.evaluate(() => document.getElementById('w').shadowRoot.querySelector('.ap-step').textContent),
    '0',
  );
  assert.deepEqual(errors, []);
  await p.close();
});

test('three step(10000), then the widget scrolls off screen: training stops and does not come back', async () => {
  const { page: p, errors } = await open();
  await threeSteps(p);
  await p.evaluate(() => document.getElementById('below').scrollIntoView({ block: 'end' }));
  await p
    .waitForFunction(() => !document.getElementById('w').intersecting, null, { timeout: 10000 })
    .catch(() => assert.fail('the widget did not leave the screen'));
  await stepsDrained(p, '#w', 'off screen');
  const off = await assertStopped(p, '#w', 'off screen');
  await p.evaluate(() => scrollTo(0, 0));
  await p
    .waitForFunction(() => document.getElementById('w').intersecting, null, { timeout: 10000 })
    .catch(() => assert.fail('the widget did not come back on screen'));
  assert.equal(await assertStopped(p, '#w', 'back on screen'), off, 'the dropped steps are not resumed');
  assert.deepEqual(errors, []);
  await p.close();
});

test('the queue is bounded: calls add up to 10000 waiting steps; one past it is refused whole', async () => {
  const { page: p, errors } = await open();
  // Calls resolve in the order they were made (the same awaits each): once a later one has
  // answered, the earlier ones are in the queue.
  const r = await p.evaluate(async () => {
    const w = document.getElementById('w');
    const running = w.step(10000);
    const a = w.step(6000);
    const over = await w.step(5000); // 6000 + 5000 > 10000
    const overError = window.__errors.at(-1);
    const b = w.step(4000); // 6000 + 4000 = 10000: fits
    const full = await w.step(1);
    const fullError = window.__errors.at(-1);
    const waiting = w.app.steps.waiting?.n;
    const paused = await w.pause();
    return { over, overError, full, fullError, waiting, paused, results: await Promise.all([running, a, b]) };
  });
  assert.equal(r.over, false);
  assert.equal(r.overError.field, 'n');
  assert.deepEqual(r.overError.allowed, ['1…4000'], 'the room left');
  assert.equal(r.full, false);
  assert.equal(r.fullError.field, 'n');
  assert.equal(r.fullError.allowed, undefined, 'no room left');
  assert.equal(r.waiting, 10000, 'the waiting calls add up to the cap');
  assert.equal(r.paused, true);
  assert.deepEqual(r.results, [false, false, false], 'pause cancels the running and the waiting calls');
  await assertStopped(p, '#w', 'after pause()');
  assert.deepEqual(errors, []);
  await p.close();
});
