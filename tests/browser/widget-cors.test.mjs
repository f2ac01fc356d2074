// A blog post whose widget script comes from another origin (a CDN, the author's asset host):
// served without Access-Control-Allow-Origin, the module script is blocked, the element is never
// defined, and each <attention-playground> shows the fallback content the author put inside it
// (docs/widgets.md, "Headers" and "Fallback content"): visible, saying what is missing, not a
// 0 px box. With the header, the same page trains and the fallback is hidden by the widget.
// The host page is on 127.0.0.1, the script on localhost (another origin), both from dist/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { resolve } from 'node:path';
import { RESULTS, until, WAIT } from './harness.mjs';
import { DIST, ensureDist } from './dist.mjs';
import { serveStatic } from './static-server.mjs';

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];
// The fallback of docs/widgets.md's example, as an author writes it.
const FALLBACK = (what) =>
  `<p>Interactive figure: ${what}. It needs JavaScript and the script attention-playground.js; if this text stays, the script did not load (from another origin, its host must send Access-Control-Allow-Origin).</p>`;
const post = (script) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="${script}"></script></head><body>
<h1>ALiBi in one figure</h1>
<attention-playground preset="alibi" steps="40" autoplay>${FALLBACK('ALiBi learning copy_back')}</attention-playground>
<p>Some prose between the figures.</p>
<attention-playground preset="rope" steps="40" view="chart,positions">${FALLBACK('RoPE learning copy_back')}</attention-playground>
</body></html>`;

let browser;
/** @type {Awaited<ReturnType<typeof serveStatic>>[]} */
const servers = [];
before(async () => {
  await ensureDist();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
});
after(async () => {
  await browser?.close();
  await Promise.all(servers.map((s) => s.close()));
});

/** dist/ and the post on one server (cors: with or without the header); the post loads the script from localhost. */
async function openPost(cors) {
  const server = await serveStatic(DIST, {}, { cors });
  servers.push(server);
  server.extra.set('/post.html', post(`${server.url.replace('127.0.0.1', 'localhost')}/attention-playground.js`));
  const p = await browser.newPage({ viewport: { width: 900, height: 1000 } });
  await p.addInitScript(() => {
    window.__scriptFailed = false;
    window.addEventListener(
      'error',
      (e) => e.target instanceof HTMLScriptElement && (window.__scriptFailed = true),
      true,
    );
  });
  await p.goto(`${server.url}/post.html`);
  return p;
}

/** Per widget: its height, whether it is defined, and whether its fallback paragraph is rendered, with its text. */
const boxes = (p) =>
  p.evaluate(() =>
    [...document.querySelectorAll('attention-playground')].map((w) => {
      const fallback = w.querySelector('p');
      return {
        height: w.getBoundingClientRect().height,
        defined: w.matches(':defined'),
        fallbackShown: Boolean(fallback && fallback.getClientRects().length && fallback.checkVisibility()),
        text: w.innerText,
      };
    }),
  );

test('no Access-Control-Allow-Origin: each widget shows its fallback, saying what is missing', async () => {
  const p = await openPost(false);
  await until(p, () => window.__scriptFailed, 'the blocked script fails to load (CORS)');
  const seen = await boxes(p);
  assert.equal(seen.length, 2);
  for (const [i, b] of seen.entries()) {
    assert.equal(b.defined, false, `widget ${i} is not defined (its script was blocked)`);
    assert.ok(b.height >= 20, `widget ${i} is visible, not 0 px tall (${b.height} px)`);
    assert.ok(b.fallbackShown, `widget ${i} shows its fallback`);
    assert.match(b.text, /needs JavaScript and the script attention-playground\.js/);
    assert.match(b.text, /Access-Control-Allow-Origin/);
  }
  await p.screenshot({ path: resolve(RESULTS, 'widget-cors-fallback.png') });
  await p.close();
});

test('with Access-Control-Allow-Origin: the same post trains, and the fallback is hidden', async () => {
  const p = await openPost(true);
  await until(
    p,
    () => {
      const w = document.querySelector('attention-playground');
      if (w.status === 'error') throw new Error(w.error);
      return { ok: w.status === 'ready' && w.currentStep >= 20, status: w.status, step: w.currentStep };
    },
    'the first widget trains 20 steps',
    { timeout: WAIT.training },
  );
  const seen = await boxes(p);
  for (const [i, b] of seen.entries()) {
    assert.equal(b.defined, true, `widget ${i} is defined`);
    assert.equal(b.fallbackShown, false, `widget ${i} hides its fallback`);
    assert.ok(b.height > 100, `widget ${i} has its own height (${b.height} px)`);
  }
  assert.equal(await p.evaluate(() => window.__scriptFailed), false);
  await p.close();
});
