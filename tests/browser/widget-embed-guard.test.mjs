// What a host page (on another origin, declared by the frame's link) can do to embed.html through
// its scripting API, on the built folder (dist/):
// - setConfig with HTML's own names (onmouseover, style, tabindex, id, autofocus, popover, inert)
//   is refused with an `error` event naming the field, in every state of the widget (a config
//   preset, a demo preset, a comparison, a widget that could not start): the element keeps its
//   attributes (no style, no handler), is not rebuilt, and the style's URL is never fetched;
// - three step(10000) and then pause, or reset: training stops (the third step is refused), as
//   the frame's widget and its worker report it (widget-stops.mjs), never after a fixed sleep.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startWidgetServer } from './widget-fixtures.mjs';
import { assertStopped, stepsDrained } from './widget-stops.mjs';

const FAILS_ON = ['error', 'warning'];
let server;
before(async () => {
  server = await startWidgetServer();
});
after(() => server?.close());

/** A host page (localhost) with a frame (127.0.0.1) whose link is `hash` and declares the host. */
function host(hash) {
  const frameOrigin = server.url;
  const hostOrigin = server.url.replace('127.0.0.1', 'localhost');
  const path = `/fixtures/guard-${Math.random().toString(36).slice(2)}.html`;
  server.extra.set(
    path,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body style="margin:0">
    <iframe id="f" title="Attention Playground" src="${frameOrigin}/embed.html#${hash}&height=80&autoplay=false&origin=${encodeURIComponent(hostOrigin)}" style="width:100%;height:50px;border:0"></iframe>
    <script type="module">
      import { connectFrame } from '${frameOrigin}/embed-host.js';
      const f = document.getElementById('f');
      window.__events = [];
      for (const t of ['ready', 'step', 'trained', 'error']) f.addEventListener(t, (e) => window.__events.push({ type: t, detail: e.detail }));
      window.widget = connectFrame(f);
    </script></body></html>`,
  );
  return `${hostOrigin}${path}`;
}

const frameOf = (p) => p.frames().find((x) => x.url().includes('/embed.html'));
const W = 'attention-playground';

/** The host page, its frame's widget settled in `status` (ready or error). */
async function open(hash, status = 'ready') {
  const { page: p, errors } = await server.open(host(hash), { width: 1100, height: 1400, console: FAILS_ON });
  await p.waitForFunction(() => document.getElementById('f').contentWindow, null, { timeout: 10000 });
  await p
    .waitForFunction(() => window.__events.some((e) => e.type === 'ready' || e.type === 'error'), null, {
      timeout: 60000,
    })
    .catch(() => assert.fail(`${hash}: the frame sent neither ready nor error`));
  const frame = frameOf(p);
  await frame
    .waitForFunction((s) => document.querySelector('attention-playground')?.status === s, status, { timeout: 60000 })
    .catch(() => assert.fail(`${hash}: the widget is not ${status}`));
  return { page: p, frame, errors };
}

const HOSTILE = {
  onmouseover: 'window.__pwned = 1',
  style: 'background: url(/evil-style.png); outline: 9px solid red',
  tabindex: '1',
  id: 'evil',
  autofocus: '',
  popover: 'auto',
  inert: '',
};

const STATES = [
  ['a config preset', 'preset=playground&task=copy_back', 'ready'],
  ['a demo preset', 'preset=probe', 'ready'],
  ['a comparison', `preset=playground&task=copy_back&compare=${encodeURIComponent('position=none,learned')}`, 'ready'],
  ['a widget that could not start', 'preset=playground&d-model=lots', 'error'],
];

for (const [state, hash, status] of STATES) {
  test(`setConfig through the frame refuses HTML's own names on ${state}, naming each`, async () => {
    const { page: p, frame, errors } = await open(hash, status);
    const look = () =>
      frame.evaluate(() => {
        const el = document.querySelector('attention-playground');
        return {
          attrs: el.getAttributeNames().map((n) => [n, el.getAttribute(n)]),
          status: el.status,
          started: el.startToken,
        };
      });
    const before = await look();
    const tried = Object.entries(HOSTILE).map(([k, v]) => [{ [k]: v }, k]);
    tried.push([{ position: 'rope', style: HOSTILE.style }, 'style']); // one bad name refuses the whole call
    for (const [fields, field] of tried) {
      const n = await p.evaluate(() => window.__events.filter((e) => e.type === 'error').length);
      await p.evaluate((f) => window.widget.setConfig(f), fields);
      await p
        .waitForFunction((k) => window.__events.filter((e) => e.type === 'error').length > k, n, { timeout: 20000 })
        .catch(() => assert.fail(`${state}: no error event for setConfig(${JSON.stringify(fields)})`));
      const e = (await p.evaluate(() => window.__events.filter((x) => x.type === 'error'))).at(-1).detail;
      assert.equal(e.field, field, `${state}, setConfig(${JSON.stringify(fields)}): ${JSON.stringify(e)}`);
      assert.match(e.message, new RegExp(`^${field}=".*": unknown attribute, not set`));
    }
    // A later command's round trip: the refused calls are behind it.
    const m = await p.evaluate(() => window.__events.filter((e) => e.type === 'error').length);
    await p.evaluate(() => window.widget.setConfig({ tabindex: '2' }));
    await p.waitForFunction((k) => window.__events.filter((e) => e.type === 'error').length > k, m, { timeout: 20000 });
    assert.deepEqual(await look(), before, `${state}: the element kept its attributes and was not rebuilt`);
    assert.equal(
      await frame.evaluate(() => document.querySelector('attention-playground').hasAttribute('style')),
      false,
    );
    assert.equal(await frame.evaluate(() => window.__pwned), undefined);
    assert.equal(server.hits.get('/evil-style.png'), undefined, 'the style URL was never fetched');
    assert.deepEqual(errors, []);
    await p.close();
  });
}

test('three step(10000) through the frame, then pause: training stops', async () => {
  const { page: p, frame, errors } = await open('preset=playground&task=copy_back&steps=50000');
  await p.evaluate(() => {
    for (let i = 0; i < 3; i++) window.widget.step(10000);
  });
  await p
    .waitForFunction(() => window.__events.some((e) => e.type === 'error' && e.detail.field === 'n'), null, {
      timeout: 20000,
    })
    .catch(() => assert.fail('the third step(10000) was not refused'));
  await frame
    .waitForFunction(() => document.querySelector('attention-playground').currentStep > 0, null, { timeout: 30000 })
    .catch(() => assert.fail('step(10000) did not start training'));
  await p.evaluate(() => window.widget.pause());
  await stepsDrained(frame, W, 'after the pause message');
  const stopped = await assertStopped(frame, W, 'after the pause message');
  assert.ok(stopped > 0 && stopped < 20000, `stopped at ${stopped}`);
  assert.deepEqual(errors, []);
  await p.close();
});

test('three step(10000) through the frame, then reset: step 0, and it stays there', async () => {
  const { page: p, frame, errors } = await open('preset=playground&task=copy_back&steps=50000');
  await p.evaluate(() => {
    for (let i = 0; i < 3; i++) window.widget.step(10000);
  });
  await frame
    .waitForFunction(() => document.querySelector('attention-playground').currentStep > 0, null, { timeout: 30000 })
    .catch(() => assert.fail('step(10000) did not start training'));
  await p.evaluate(() => window.widget.reset());
  await frame
    .waitForFunction(() => document.querySelector('attention-playground').currentStep === 0, null, { timeout: 15000 })
    .catch(() => assert.fail('reset did not bring the step back to 0'));
  await stepsDrained(frame, W, 'after the reset message');
  assert.equal(await assertStopped(frame, W, 'after the reset message'), 0);
  assert.deepEqual(errors, []);
  await p.close();
});
