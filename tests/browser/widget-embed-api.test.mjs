// A page that drives a widget, on the built folder (dist/) served by a plain static server:
// - the scroll article (examples/scroll-article.html, built, and under the dev server): each section, scrolled to the middle of the
//   viewport, drives the figure (no positions and playing; RoPE and playing; paused with a head
//   framed); screenshots at 1280 and 375 px, light and dark (test-results/scroll-article-*.png);
// - the iframe route's messages: a host page on another origin (localhost vs 127.0.0.1) drives
//   the frame through embed-host.js when the frame's link declares its origin, hears its events,
//   and fits the frame to the height it reports; a bad message is answered with an error event
//   naming the field; with another origin declared, the same messages are ignored.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { RESULTS, shotFourWays, startHarness, until, frames, waitForValue } from './harness.mjs';
import { pauseAcknowledged, recordErrors, startWidgetServer } from './widget-fixtures.mjs';

const FAILS_ON = ['error', 'warning']; // the console messages that fail a test here
let server;
before(async () => {
  server = await startWidgetServer();
});
after(() => server?.close());

const open = (url, { width = 1280, height = 900 } = {}) => server.open(url, { width, height, console: FAILS_ON });

test('the scroll article drives its widget: no positions, then RoPE, then a head framed', async () => {
  const { page: p, errors } = await open(`${server.url}/examples/scroll-article.html`);
  const at = (step) =>
    p.evaluate((s) => document.querySelector(`section[data-step="${s}"]`).scrollIntoView({ block: 'center' }), step);
  const w = () =>
    p.evaluate(() => {
      const el = document.getElementById('figure');
      const r = el.shadowRoot;
      return {
        step: el.currentStep,
        position: el.app?.model?.info.config.position,
        subtitle: r.querySelector('.ap-title .muted')?.textContent,
        selected: [...r.querySelectorAll('.attn-head')].findIndex((h) => h.classList.contains('attn-selected')),
        playing: Boolean(el.app?.model?.playing),
      };
    });
  await at('order');
  await p.waitForFunction(() => document.body.dataset.done === 'order', null, { timeout: 60000 });
  await p.waitForFunction(() => document.getElementById('figure').currentStep >= 10, null, { timeout: 30000 });
  let s = await w();
  assert.equal(s.position, 'none');
  assert.match(s.subtitle, /No position encoding/);
  assert.ok(s.playing, 'section 1 plays');

  await at('rope');
  await p.waitForFunction(() => document.body.dataset.done === 'rope', null, { timeout: 60000 });
  await p.waitForFunction(() => document.getElementById('figure').currentStep >= 20, null, { timeout: 30000 });
  s = await w();
  assert.equal(s.position, 'rope', 'section 2 switched to RoPE');
  assert.doesNotMatch(s.subtitle, /No position/);
  assert.equal(await p.evaluate(() => document.querySelector('section.active').dataset.step), 'rope');

  await at('head');
  await p.waitForFunction(() => document.body.dataset.done === 'head', null, { timeout: 60000 });
  await p.waitForFunction(() => document.getElementById('figure').shadowRoot.querySelector('.attn-selected'), null, {
    timeout: 20000,
  });
  s = await w();
  assert.equal(s.selected, 0, 'section 3 framed head 1 of layer 1');
  const paused = await pauseAcknowledged(p, '#figure'); // and one more round trip to the worker later
  assert.equal((await w()).step, paused, 'section 3 paused training');

  // Back up: RoPE plays again, the frame goes.
  await at('rope');
  await p.waitForFunction((n) => document.getElementById('figure').currentStep > n + 5, paused, { timeout: 30000 });
  assert.equal((await w()).selected, -1);
  await at('head');
  await p.waitForFunction(
    () =>
      document.body.dataset.done === 'head' &&
      document.getElementById('figure').shadowRoot.querySelector('.attn-selected'),
    null,
    { timeout: 30000 },
  );
  await frames(p);
  await p.screenshot({ path: resolve(RESULTS, 'scroll-article-head-1280.png') }); // what the reader sees at section 3
  await p.setViewportSize({ width: 375, height: 800 });
  await frames(p);
  await p.screenshot({ path: resolve(RESULTS, 'scroll-article-head-375.png') });
  await p.setViewportSize({ width: 1280, height: 900 });
  const seen = await shotFourWays(p, 'scroll-article', 900);
  assert.equal(seen.length, 4);
  assert.deepEqual(errors, []);
  await p.close();
});

/** The host page (on localhost) with the frame (on 127.0.0.1) whose link declares `declared`. */
function host(declared) {
  const frameOrigin = server.url;
  const hostOrigin = server.url.replace('127.0.0.1', 'localhost');
  const hash = `preset=playground&task=copy_back&view=chart,attention&steps=5000&autoplay=false&height=80${declared ? `&origin=${encodeURIComponent(declared(hostOrigin))}` : ''}`;
  const path = `/fixtures/host-${Math.random().toString(36).slice(2)}.html`;
  server.extra.set(
    path,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body style="margin:0">
    <p>Host page</p>
    <iframe id="f" title="Attention Playground" src="${frameOrigin}/embed.html#${hash}" style="width:100%;height:50px;border:0"></iframe>
    <script type="module">
      import { connectFrame } from '${frameOrigin}/embed-host.js';
      const f = document.getElementById('f');
      window.__events = [];
      for (const t of ['ready', 'metrics', 'step', 'trained', 'error']) f.addEventListener(t, (e) => window.__events.push({ type: t, detail: e.detail }));
      window.widget = connectFrame(f);
      window.raw = (msg) => f.contentWindow.postMessage(msg, '${frameOrigin}');
    </script></body></html>`,
  );
  return `${hostOrigin}${path}`;
}

/**
 * The one console warning connectFrame gives on the host when the frame stays silent (a few
 * seconds: embed-host.js WARN_AFTER_MS), matching `re`; fails naming what the console said.
 */
async function hostWarning(errors, re) {
  const said = await waitForValue(
    async () => errors.filter((e) => e.startsWith('console: connectFrame:')),
    (w) => w.length > 0,
    `connectFrame's warning on the host (${re})`,
    20000,
  );
  assert.equal(said.length, 1, said.join('\n'));
  assert.match(said[0], re);
  errors.splice(errors.indexOf(said[0]), 1);
}

const inFrame = (p, f) =>
  p
    .frames()
    .find((x) => x.url().includes('/embed.html'))
    .evaluate(f);
const frameStep = (p) => inFrame(p, () => document.querySelector('attention-playground')?.currentStep ?? -1);
/** The frame has handled what the host sent so far (a message posted after it has arrived) and its worker is a round trip further. */
async function frameDrained(p) {
  const f = p.frames().find((x) => x.url().includes('/embed.html'));
  await f.evaluate(() => {
    window.__drained = false;
    addEventListener('message', (e) => {
      if (e.data === 'drained?') window.__drained = true;
    });
  });
  await p.evaluate(() => document.getElementById('f').contentWindow.postMessage('drained?', '*'));
  await until(f, () => window.__drained, 'the frame to receive the messages the host sent');
  await f.evaluate(async () => {
    const m = document.querySelector('attention-playground').app.model;
    await m.client.call('info', { sid: m.sid });
  });
}

test('the iframe route: a declared origin drives the frame and hears its events; the frame is fitted to its height', async () => {
  const { page: p, errors } = await open(
    host((o) => o),
    { height: 1400 },
  );
  await p.waitForFunction(() => window.__events.some((e) => e.type === 'ready'), null, { timeout: 60000 });
  // Auto-height: the frame takes the height the widget's page reports.
  await p.waitForFunction(() => parseFloat(document.getElementById('f').style.height) > 300, null, { timeout: 20000 });
  // The frame's page reports its height after a ResizeObserver: on a busy machine late (asserted below).
  const { inner, outer } = await until(
    null,
    async () => {
      const fit = {
        inner: await inFrame(p, () => Math.ceil(document.documentElement.getBoundingClientRect().height)),
        outer: await p.evaluate(() => document.getElementById('f').getBoundingClientRect().height),
      };
      return { ok: Math.abs(fit.inner - fit.outer) <= 1, ...fit };
    },
    'the frame fitted to the height of its page',
  );
  assert.ok(Math.abs(inner - outer) <= 1, `the frame is ${outer} px for a page of ${inner} px`);
  assert.equal(
    await inFrame(p, () => document.documentElement.scrollHeight <= innerHeight),
    true,
    'nothing scrolls inside the frame',
  );

  // train(n) (the message attention-playground:train); the frame's metrics event comes again as step
  await p.evaluate(() => window.widget.train(6));
  await p.waitForFunction(() => window.__events.some((e) => e.type === 'metrics' && e.detail.step === 6), null, {
    timeout: 20000,
  });
  assert.equal(await frameStep(p), 6);
  const ev = (await p.evaluate(() => window.__events)).find((e) => e.type === 'metrics');
  assert.ok(Number.isFinite(ev.detail.loss), JSON.stringify(ev.detail));
  await p.waitForFunction(() => window.__events.some((e) => e.type === 'step' && e.detail.step === 6), null, {
    timeout: 20000,
  });
  await p.evaluate(() => window.widget.setConfig({ position: 'alibi' }));
  await p.waitForFunction(() => true);
  await p
    .frames()
    .find((x) => x.url().includes('/embed.html'))
    .waitForFunction(
      () => document.querySelector('attention-playground').app?.model?.info.config.position === 'alibi',
      null,
      { timeout: 20000 },
    );
  // Bad messages: an error event naming the field, and nothing else happens.
  for (const [msg, field] of [
    [{ type: 'attention-playground:step', n: 3, evil: 1 }, 'evil'],
    [{ type: 'attention-playground:launch' }, 'type'],
    [{ type: 'attention-playground:setConfig', fields: { position: 'warp' } }, 'position'],
    [[1, 2], 'message'],
  ]) {
    const n = await p.evaluate(() => window.__events.filter((e) => e.type === 'error').length);
    await p.evaluate((m) => window.raw(m), msg);
    await p.waitForFunction((k) => window.__events.filter((e) => e.type === 'error').length > k, n, { timeout: 10000 });
    const e = (await p.evaluate(() => window.__events.filter((x) => x.type === 'error'))).at(-1).detail;
    assert.equal(e.field, field, JSON.stringify(e));
  }
  assert.equal(await frameStep(p), 0, 'the new model (alibi) was not stepped by the refused message');
  assert.deepEqual(errors, []);
  await p.close();
});

// Issue 44: the host cannot wait for a command to take effect; the frame runs them in the order
// sent, each once the one before has (setConfig's new model is built before the step that follows).
test('the iframe route: setConfig then step(n), sent at once, steps the new model', async () => {
  const { page: p, errors } = await open(
    host((o) => o),
    { height: 1400 },
  );
  await p.evaluate(() => {
    window.widget.setConfig({ position: 'alibi' });
    window.widget.step(6);
  });
  await p.waitForFunction(() => window.__events.some((e) => e.type === 'ready'), null, { timeout: 60000 });
  const f = p.frames().find((x) => x.url().includes('/embed.html'));
  const seen = await until(
    f,
    () => {
      const w = document.querySelector('attention-playground');
      const position = w.app?.model?.info.config.position;
      return { ok: position === 'alibi' && w.currentStep === 6, position, step: w.currentStep };
    },
    'the alibi model at step 6 in the frame',
    { timeout: 30000 },
  );
  assert.equal(seen.step, 6);
  // And once ready, sent at once again: setConfig, step, reset, step.
  await p.evaluate(() => {
    window.widget.setConfig({ position: 'rope' });
    window.widget.step(3);
    window.widget.reset();
    window.widget.step(4);
  });
  await until(
    f,
    () => {
      const w = document.querySelector('attention-playground');
      const position = w.app?.model?.info.config.position;
      return { ok: position === 'rope' && w.currentStep === 4, position, step: w.currentStep };
    },
    'the rope model, reset, then at step 4 in the frame',
    { timeout: 30000 },
  );
  assert.deepEqual(
    await p.evaluate(() => window.__events.filter((e) => e.type === 'error')),
    [],
    'no command was refused',
  );
  assert.deepEqual(errors, []);
  await p.close();
});

test('the iframe route: messages from an origin the link does not declare are ignored', async () => {
  const { page: p, errors } = await open(
    host(() => 'https://blog.example'),
    { height: 1400 },
  );
  await p
    .frames()
    .find((x) => x.url().includes('/embed.html'))
    .waitForFunction(() => document.querySelector('attention-playground')?.status === 'ready', null, {
      timeout: 60000,
    });
  await p.evaluate(() => {
    window.widget.step(5);
    window.raw({ type: 'attention-playground:play' });
    window.raw({ type: 'nonsense' });
  });
  await frameDrained(p);
  assert.equal(await frameStep(p), 0, 'no step from an undeclared origin');
  assert.deepEqual(await p.evaluate(() => window.__events), [], 'no event reaches an undeclared origin');
  // With origins declared, even the height goes to them only: the frame keeps the host's height.
  assert.equal(await p.evaluate(() => document.getElementById('f').style.height), '50px');
  // The host is told why: the link declares another origin than its own.
  await hostWarning(
    errors,
    /declares origin=https:\/\/blog\.example, and this page's origin is http:\/\/localhost:\d+/,
  );
  assert.deepEqual(errors, []);
  await p.close();
});

test('the iframe route: without a declared origin the frame takes no commands', async () => {
  const { page: p, errors } = await open(host(null), { height: 1400 });
  await p
    .frames()
    .find((x) => x.url().includes('/embed.html'))
    .waitForFunction(() => document.querySelector('attention-playground')?.status === 'ready', null, {
      timeout: 60000,
    });
  await p.evaluate(() => window.widget.step(5));
  await frameDrained(p);
  assert.equal(await frameStep(p), 0);
  // The height goes to any parent (it is no secret): the frame is fitted.
  assert.ok(await p.evaluate(() => parseFloat(document.getElementById('f').style.height) > 300));
  await hostWarning(
    errors,
    /declares no origin, so it takes no commands and sends no events: add origin=http:\/\/localhost:\d+/,
  );
  assert.deepEqual(errors, []);
  await p.close();
});

test('the iframe route: an origin with a trailing slash is named malformed, in the frame and on the host', async () => {
  const { page: p, errors } = await open(
    host((o) => `${o}/`),
    { height: 1400 },
  );
  const frame = p.frames().find((x) => x.url().includes('/embed.html'));
  const notice = await until(
    frame,
    () => {
      const n = document.querySelector('attention-playground')?.shadowRoot?.querySelector('.ap-bad-origin');
      return n && { text: n.textContent, elements: n.querySelectorAll(':not(strong)').length };
    },
    "the frame's notice of the malformed origin",
    { timeout: 60000 },
  );
  assert.match(
    notice.text,
    /^Malformed origin: origin="http:\/\/localhost:\d+\/" is not an origin\. Write scheme:\/\/host\[:port\], http or https, with no path and no trailing slash/,
  );
  assert.doesNotMatch(notice.text, /unknown setting|not settings of this widget/);
  assert.equal(notice.elements, 0, 'the notice is text (after its bold lead)');
  const ignored = await frame.evaluate(
    () =>
      document.querySelector('attention-playground').shadowRoot.querySelector('.ap-ignored:not(.ap-bad-origin)')
        ?.textContent ?? '',
  );
  assert.doesNotMatch(ignored, /origin=/, 'the origin is not also listed as an unknown setting');
  await hostWarning(
    errors,
    /declares origin=http:\/\/localhost:\d+\/, which is not an origin: write scheme:\/\/host\[:port\] with no path and no trailing slash/,
  );
  assert.deepEqual(errors, []);
  await p.close();
});

test('the dev server (npm start) serves the scroll article, whose first section drives the widget', async () => {
  const h = await startHarness();
  try {
    const p = await h.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = recordErrors(p, FAILS_ON);
    await p.goto(`${h.url}examples/scroll-article.html`);
    await p.waitForFunction(
      () => document.body.dataset.done === 'order' && document.getElementById('figure').currentStep >= 5,
      null,
      { timeout: 90000 },
    );
    assert.deepEqual(errors, []);
  } finally {
    await h.close();
  }
});
