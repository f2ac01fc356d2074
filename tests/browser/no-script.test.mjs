// Nothing from a URL becomes code or markup, asserted in Chromium on the real pages: embed.html
// and the playground opened with hostile hashes (every kind of on* handler, style with a foreign
// url(), srcdoc, href, src, formaction, HTML and javascript: in values), a demo page with hostile
// query parameters. No script of theirs runs (window.__pwned stays unset, even after focus and
// clicks), the ignored names are listed as text, no request goes anywhere but the site, and no
// Content-Security-Policy violation happens (the page logic closes the hole; the CSP is the second
// wall, and each page is shown to carry it: an injected inline script and a foreign fetch are
// refused). Both the Vite dev server (tests/browser/harness.mjs) and the built dist/ (served
// statically, with the example post) are checked. Screenshots go to test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, shot, until, frames } from './harness.mjs';
import { DIST, ensureDist } from './dist.mjs';
import { serveStatic } from './static-server.mjs';

const PWN = 'window.__pwned=1';
// The issue's attacks and their relatives, in one embed hash beside a valid widget config.
const HOSTILE = [
  ['onfocus', PWN],
  ['tabindex', '0'],
  ['autofocus', ''],
  ['onload', PWN],
  ['onclick', PWN],
  ['ONMOUSEOVER', PWN],
  ['on_pointerenter', PWN],
  ['style', 'background:url(https://evil.example/style.png)'],
  ['srcdoc', `<script>${PWN}</script>`],
  ['href', `javascript:${PWN}`],
  ['src', 'https://evil.example/x.js'],
  ['formaction', `javascript:${PWN}`],
  ['is', 'x-evil'],
  ['slot', 'x'],
  ['data-x', `<img src=x onerror="${PWN}">`],
  ['__proto__', '1'],
];
const hash = (pairs) => `#${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
const EMBED_HASH = hash([['preset', 'sinusoidal'], ['steps', '30'], ['d_model', '16'], ['heads', '2'], ...HOSTILE]);

let h;
let dist;
before(async () => {
  h = await startHarness();
  await ensureDist();
  dist = await serveStatic(DIST);
});
after(async () => {
  await h?.close();
  await dist?.close();
});

/** A page that records requests, errors and CSP violations (in every frame) from the start. */
async function guarded(browser, url, { width = 1280, height = 900 } = {}) {
  const page = await browser.newPage({ viewport: { width, height } });
  const requests = [];
  const errors = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  await page.addInitScript(() => {
    window.__csp = [];
    addEventListener(
      'securitypolicyviolation',
      (e) => window.__csp.push(`${e.effectiveDirective} ${e.blockedURI}`),
      true,
    );
  });
  await page.goto(url);
  return { page, requests, errors };
}

/** Nothing ran, nothing was refused, every request stayed on the site. */
async function assertClean({ page, requests }, origin) {
  for (const f of page.frames()) {
    assert.equal(await f.evaluate(() => window.__pwned), undefined, `no hostile script ran in ${f.url()}`);
    assert.deepEqual(await f.evaluate(() => window.__csp), [], `no CSP violation in ${f.url()}`);
  }
  const foreign = requests.filter((u) => !/^(data|blob):/.test(u) && new URL(u).origin !== origin);
  assert.deepEqual(foreign, [], 'every request goes to the site');
}

/** The page carries the CSP: an injected inline script and a fetch elsewhere are refused. */
async function assertCsp(page) {
  const refused = await page.evaluate(async () => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = 1';
    document.head.append(s);
    const fetched = await fetch('https://evil.example/').then(
      () => 'fetched',
      () => 'refused',
    );
    return { inline: window.__inline, fetched };
  });
  assert.equal(refused.inline, undefined, 'inline script refused');
  assert.equal(refused.fetched, 'refused');
  // The violation events are queued: wait for both reports.
  await until(
    page,
    () => ({
      ok: ['script-src', 'connect-src'].every((d) => window.__csp.some((v) => v.startsWith(d))),
      csp: window.__csp,
    }),
    'the CSP to report the refused inline script (script-src) and fetch (connect-src)',
  );
  await page.evaluate(() => window.__csp.splice(0));
}

/** The embedded widget: trained a little, and none of the hostile names on the element. */
async function checkEmbed(page) {
  await page.waitForFunction(
    () => {
      const w = document.querySelector('attention-playground');
      if (w?.status === 'error') throw new Error(w.error);
      return w?.status === 'ready' && w.currentStep >= 5;
    },
    null,
    { timeout: 60000, polling: 250 },
  );
  // Focus and pointer over everything, as a reader would (an onfocus/onmouseover would fire now).
  for (let i = 0; i < 6; i++) await page.keyboard.press('Tab');
  await page.mouse.move(200, 200);
  await page.locator('attention-playground').click({ position: { x: 10, y: 10 } });
  const w = await page.evaluate(() => {
    const el = document.querySelector('attention-playground');
    const notice = el.shadowRoot.querySelector('.ap-ignored');
    return {
      names: el.getAttributeNames(),
      notice: notice?.textContent ?? '',
      elements: notice?.querySelectorAll(':not(strong)').length,
    };
  });
  assert.deepEqual(w.names.sort(), ['autoplay', 'd-model', 'heads', 'preset', 'steps']);
  assert.match(
    w.notice,
    /^Ignored from the link \(not settings of this widget\): onfocus="window.__pwned=1", tabindex="0", autofocus="", onload=/,
  );
  for (const name of [
    'onmouseover',
    'on-pointerenter',
    'style="background:url(https://evil.example/style.png)"',
    'srcdoc="<script>',
    'href="javascript:',
    'src=',
    'formaction=',
    'data-x="<img src=x',
  ])
    assert.ok(w.notice.includes(name), `${name} listed`);
  assert.equal(w.elements, 0, 'the notice is text (after its bold lead)');
}

test('embed.html with a hostile hash (dev server): only declared settings, listed leftovers, no script, no foreign request', async () => {
  const g = await guarded(h.browser, `${h.url}embed.html${EMBED_HASH}`);
  await checkEmbed(g.page);
  await shot(g.page, 'no-script-embed-1280');
  await g.page.setViewportSize({ width: 375, height: 800 });
  await frames(g.page);
  await shot(g.page, 'no-script-embed-375');
  await assertClean(g, new URL(h.url).origin);
  assert.deepEqual(g.errors, []);
  // A hostile value of a declared setting is explained as text, never made into HTML.
  await g.page.goto(
    `${h.url}embed.html${hash([
      ['preset', 'sinusoidal'],
      ['lr', `<img src=x onerror="${PWN}">`],
      ['view', '<svg onload=alert(1)>'],
    ])}`,
  );
  await g.page.waitForFunction(() => document.querySelector('attention-playground')?.status === 'error', null, {
    timeout: 30000,
  });
  const alert = await g.page.evaluate(() => {
    const box = document.querySelector('attention-playground').shadowRoot.querySelector('[role="alert"]');
    return { text: box.textContent, html: box.querySelectorAll('img, svg').length };
  });
  assert.match(alert.text, /lr="<img src=x onerror="window.__pwned=1">": not a number/);
  assert.equal(alert.html, 0);
  await assertClean(g, new URL(h.url).origin);
  await assertCsp(g.page);
  await g.page.close();
});

test('the playground with a hostile hash (dev server): the notice lists it as text, no script, no foreign request', async () => {
  const g = await guarded(
    h.browser,
    `${h.url}index.html${hash([['task', 'copy'], ...HOSTILE, ['d_model', `<img src=x onerror="${PWN}">`], ['position', 'javascript:alert(1)']])}`,
  );
  await g.page.locator('#module-status[data-ready="true"]').waitFor({ timeout: 30000 });
  const notice = g.page.locator('#notice');
  await notice.waitFor({ timeout: 30000 });
  const text = await notice.textContent();
  assert.match(
    text,
    /^Ignored from the link: .*onfocus=window.__pwned=1 \(unknown setting\).*style=background:url\(https:\/\/evil.example\/style.png\) \(unknown setting\)/,
  );
  assert.match(text, /d_model=<img src=x onerror="window.__pwned=1"> \(not a number\)/);
  assert.match(text, /position=javascript:alert\(1\) \(not one of/);
  assert.equal(await notice.evaluate((n) => n.children.length), 0, 'the notice is text');
  // The page rewrote its hash from the state: only declared settings remain.
  assert.doesNotMatch(await g.page.evaluate(() => location.hash), /onfocus|style|srcdoc|pwned|evil/);
  for (let i = 0; i < 6; i++) await g.page.keyboard.press('Tab');
  await assertClean(g, new URL(h.url).origin);
  assert.deepEqual(g.errors, []);
  await assertCsp(g.page);
  await g.page.close();
});

test('a demo page with hostile query parameters (dev server): no script, no foreign request', async () => {
  const q = new URLSearchParams([
    ['autoplay', '0'],
    ['steps', '5'],
    ['encoding', `<img src=x onerror="${PWN}">`],
    ['check_position', `<svg onload="${PWN}">`],
    ['onload', PWN],
    ['style', 'background:url(https://evil.example/d.png)'],
  ]);
  const g = await guarded(h.browser, `${h.url}permutation.html?${q}`);
  await g.page.locator('#module-status[data-ready="true"]').waitFor({ timeout: 30000 });
  // The demo is built from its (hostile) parameters before anything is checked.
  await until(g.page, () => document.querySelector('.apd')?.dataset.ready === 'true', 'the demo to be built', {
    timeout: 30000,
  });
  assert.equal(await g.page.evaluate(() => document.querySelectorAll('#demo img, #demo svg[onload]').length), 0);
  await assertClean(g, new URL(h.url).origin);
  assert.deepEqual(g.errors, []);
  await assertCsp(g.page);
  await g.page.close();
});

test('built dist/: embed.html with the hostile hash, the pages and the example post run under their CSP', async () => {
  const g = await guarded(h.browser, `${dist.url}/embed.html${EMBED_HASH}`);
  await checkEmbed(g.page);
  await assertClean(g, dist.url);
  assert.deepEqual(g.errors, []);
  await assertCsp(g.page);
  await g.page.close();

  // The built pages: the playground (KaTeX, uPlot) and a demo page, with hostile hash and query.
  for (const path of [
    `/index.html${hash([['task', 'copy'], ...HOSTILE])}`,
    `/extrapolation.html?autoplay=0&steps=5&onload=${encodeURIComponent(PWN)}`,
  ]) {
    const pg = await guarded(h.browser, `${dist.url}${path}`);
    await pg.page.locator('#module-status[data-ready="true"]').waitFor({ timeout: 30000 });
    await pg.page.locator('.katex').first().waitFor({ timeout: 30000 });
    // The page is built from its (hostile) link before anything is checked: the playground's model, the demo.
    await until(
      pg.page,
      () => document.body.dataset.run === 'ready' || document.querySelector('.apd')?.dataset.ready === 'true',
      `${path}: the page to be built`,
      { timeout: 30000 },
    );
    await assertClean(pg, dist.url);
    assert.deepEqual(pg.errors, [], path);
    await assertCsp(pg.page);
    await pg.page.close();
  }

  const post = await guarded(h.browser, `${dist.url}/examples/blog-post.html`, { width: 1000, height: 700 });
  await post.page.waitForFunction(() => document.querySelector('attention-playground')?.status === 'ready', null, {
    timeout: 60000,
  });
  // Down to the iframe: its widget (embed.html, same site) starts too.
  await post.page.locator('#embed-frame').scrollIntoViewIfNeeded();
  const frame = await (await post.page.waitForSelector('#embed-frame')).contentFrame();
  await frame.waitForFunction(() => document.querySelector('attention-playground')?.status === 'ready', null, {
    timeout: 60000,
  });
  // The page's own script (a file now) still works: the theme switch reaches the widgets.
  await post.page.click('#theme-toggle');
  assert.equal(
    await post.page.evaluate(() => document.querySelector('attention-playground').getAttribute('theme')),
    'dark',
  );
  await assertClean(post, dist.url);
  assert.deepEqual(post.errors, []);
  await assertCsp(post.page);
  await post.page.close();
});
