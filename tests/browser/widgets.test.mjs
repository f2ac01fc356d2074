// The embeddable widget, from the built folder (dist/, `npm run build`) served by a plain static
// server on 127.0.0.1, as any static host would: the example post loads; each widget starts only
// when scrolled into view, trains and shows its chart; six widgets train together with one
// download of the module (their long tasks: the long_tasks row of `npm run bench`); a bad attribute is explained
// inside its own box while the others train; attributes never become HTML; the iframe route
// works; dark theme; what one widget downloads stays within the budget. Screenshots go to test-results/.
// dist/ is built once per suite run (dist.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSize } from '../../web/build-widget.mjs';
import { RESULTS, until, frames } from './harness.mjs';
import { DIST } from './dist.mjs';
import { FIXTURES, SCRIPT, page, pauseAcknowledged, startWidgetServer } from './widget-fixtures.mjs';

let server;
before(async () => {
  server = await startWidgetServer(FIXTURES);
});
after(() => server?.close());

/** A page that records errors (and, when asked, every long main-thread task from the start). */
function open(path, { width = 1100, height = 800, longTasks = false, colorScheme } = {}) {
  return server.open(path, { width, height, colorScheme, setup: (p) => watch(p, longTasks) });
}

/** Init scripts: window.__ready lists the presets of the widgets ready; window.__longTasks, the long tasks. */
async function watch(p, longTasks) {
  await p.addInitScript(() => {
    window.__ready = [];
    document.addEventListener('ready', (e) => window.__ready.push(e.detail.preset));
  });
  if (longTasks)
    await p.addInitScript(() => {
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries())
          window.__longTasks.push({ start: Math.round(e.startTime), ms: Math.round(e.duration) });
      }).observe({ type: 'longtask', buffered: true });
    });
}

const statuses = (p) => p.evaluate(() => [...document.querySelectorAll('attention-playground')].map((w) => w.status));
const widget = (p, i) => p.locator('attention-playground').nth(i);

/** Wait until widget i is ready and has trained past `steps`. */
async function trained(p, i, steps, timeout = 60000) {
  await p.waitForFunction(
    ([k, n]) => {
      const w = document.querySelectorAll('attention-playground')[k];
      if (w.status === 'error') throw new Error(`widget ${k}: ${w.error}`);
      return w.status === 'ready' && w.currentStep >= n;
    },
    [i, steps],
    { timeout, polling: 250 },
  );
}

/** Coloured (non-grey) pixels drawn on the chart canvases of widget i: curves, not axes. */
function chartInk(p, i) {
  return p.evaluate((k) => {
    const w = document.querySelectorAll('attention-playground')[k];
    let coloured = 0;
    for (const c of w.shadowRoot.querySelectorAll('.uplot canvas, canvas')) {
      if (!c.width || !c.height) continue;
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let j = 0; j < d.length; j += 4)
        if (d[j + 3] > 200 && Math.max(d[j], d[j + 1], d[j + 2]) - Math.min(d[j], d[j + 1], d[j + 2]) > 60) coloured++;
    }
    return coloured;
  }, i);
}

/** chartInk once it passes 40 coloured pixels (a chart flush and a frame: later on a busy machine); throws after 10 s, naming the last count. */
const chartInkSoon = (p, i) =>
  until(
    null,
    () => chartInk(p, i).then((ink) => ({ ok: ink > 40, ink })),
    `widget ${i} to draw its curves (over 40 coloured pixels)`,
  ).then((r) => r.ink);

const wasmHits = () => [...server.hits].filter(([path]) => path.endsWith('.wasm')).reduce((s, [, n]) => s + n, 0);

test('the example post loads; each widget starts only when scrolled into view, trains and shows its chart', async () => {
  server.hits.clear();
  const { page: p, errors } = await open('/examples/blog-post.html', { width: 1000, height: 500 });
  await p.waitForLoadState('load');
  await p.waitForFunction(() => customElements.get('attention-playground'));
  const n = await p.locator('attention-playground').count();
  assert.ok(n >= 3, `the post has ${n} widgets`);
  const presets = await p.evaluate(() =>
    [...document.querySelectorAll('attention-playground')].map((w) => w.getAttribute('preset')),
  );
  for (const kind of ['permutation', 'probe', 'playground'])
    assert.ok(presets.includes(kind), `a ${kind} widget is in the post`);
  // The page has been laid out with its widgets (each holds its room: a ResizeObserver) and two more
  // frames have passed, so their IntersectionObservers have said where they are.
  await until(
    p,
    () =>
      [...document.querySelectorAll('attention-playground')].every(
        (w) => w.shadowRoot?.querySelector('.ap')?.style.minHeight,
      ),
    'every widget to hold its room',
  );
  await frames(p);
  // Above the fold: the title and prose only. Nothing has loaded the engine yet.
  assert.deepEqual(
    await statuses(p),
    presets.map(() => 'idle'),
    'no widget starts before it is on screen',
  );
  assert.equal(wasmHits(), 0, 'no wasm is downloaded before a widget is on screen');
  await p.screenshot({ path: resolve(RESULTS, 'widgets-post-top.png') });

  for (let i = 0; i < n; i++) {
    await widget(p, i).scrollIntoViewIfNeeded();
    await trained(p, i, 20);
    const later = await statuses(p);
    for (let j = i + 2; j < n; j++) assert.equal(later[j], 'idle', `widget ${j} waits while widget ${i} is on screen`);
    await p.waitForFunction(
      (k) => {
        const w = document.querySelectorAll('attention-playground')[k];
        return w.currentStep >= 40 || w.shadowRoot.querySelector('.uplot');
      },
      i,
      { timeout: 30000 },
    );
    const ink = await chartInkSoon(p, i);
    assert.ok(ink > 40, `widget ${i} (${presets[i]}) draws its curves (${ink} coloured pixels)`);
    await widget(p, i).screenshot({ path: resolve(RESULTS, `widgets-post-${i}-${presets[i]}.png`) });
  }
  // One module download for all the widgets of the page (the iframe below is a page of its own).
  const loads = await p.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => /\/attention-playground\.js$|\.wasm$|\/worker-[^/]+\.js$/.test(e.name))
      .map((e) => e.name.replace(/^.*\//, '')),
  );
  assert.equal(loads.filter((n) => n === 'attention-playground.js').length, 1, loads.join(', '));
  assert.equal(loads.filter((n) => n.endsWith('.wasm')).length, 0, 'the wasm is fetched by the worker, once');
  await p.evaluate(() => scrollTo(0, 0));
  await p.screenshot({ path: resolve(RESULTS, 'widgets-post-full.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await p.close();
});

/** The example post's playground widget, scrolled into view and trained 10 steps: its page, errors, index. */
async function playgroundTraining() {
  const { page: p, errors } = await open('/examples/blog-post.html', { width: 1000, height: 500 });
  const i = await p.evaluate(() =>
    [...document.querySelectorAll('attention-playground')].findIndex((w) => w.getAttribute('preset') === 'playground'),
  );
  await widget(p, i).scrollIntoViewIfNeeded();
  await trained(p, i, 10);
  return { page: p, errors, i };
}

test('a widget pauses when scrolled off screen or when the tab is hidden, and resumes', async () => {
  const { page: p, errors, i } = await playgroundTraining();
  // A budget it cannot reach here: a pause lands up to a few hundred steps after it is asked for
  // (the worker finishes its chunk), and the preset's 500 steps could end the run before the test
  // sees it resume.
  await p.evaluate((k) => document.querySelectorAll('attention-playground')[k].setConfig({ steps: 100000 }), i);
  await trained(p, i, 10);
  await p.evaluate(() => scrollTo(0, 0));
  // Paused as its worker acknowledged, and still at that step one more round trip to the worker later.
  const a = await pauseAcknowledged(p, `attention-playground >> nth=${i}`);
  const b = await p.evaluate((k) => document.querySelectorAll('attention-playground')[k].currentStep, i);
  assert.equal(b, a, 'no training off screen');
  await widget(p, i).scrollIntoViewIfNeeded();
  await trained(p, i, a + 5);
  // Tab hidden.
  await p.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  const c = await pauseAcknowledged(p, `attention-playground >> nth=${i}`);
  assert.equal(
    await p.evaluate((k) => document.querySelectorAll('attention-playground')[k].currentStep, i),
    c,
    'no training while the tab is hidden',
  );
  await p.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await trained(p, i, c + 5);
  assert.deepEqual(errors, []);
  await p.close();
});

test('a widget that leaves the screen and comes back before its pause lands trains on', async () => {
  const { page: p, errors, i } = await playgroundTraining();
  // Off and on screen in one task: the pause is still on its way to the worker when the widget is
  // visible again (a lesson's check stopped at step 45 for good this way in CI).
  const budget = await p.evaluate((k) => {
    const w = /** @type {any} */ (document.querySelectorAll('attention-playground')[k]);
    w._onIntersect(false);
    w._onIntersect(true);
    return Number(w.config.steps);
  }, i);
  // The pause lands some tens of steps later (the worker trains on until it reads it); the widget
  // then plays on to its budget (it stayed paused there, wanting to play and on screen).
  await trained(p, i, budget);
  assert.deepEqual(errors, []);
  await p.close();
});

test('six widgets train together: one module download, page CSS kept out', async () => {
  server.hits.clear();
  const { page: p, errors } = await open('/fixtures/six.html', { width: 1400, height: 1400, longTasks: true });
  for (let i = 0; i < 6; i++) await trained(p, i, 100, 90000);
  for (let i = 0; i < 6; i++) assert.ok((await chartInkSoon(p, i)) > 40, `widget ${i} draws its curves`);
  const long = await p.evaluate(() => window.__longTasks);
  console.log(
    `main-thread tasks over 50 ms while six widgets loaded and trained: ${long.map((t) => `${t.ms} ms`).join(', ') || 'none'}`,
  );
  await p.screenshot({ path: resolve(RESULTS, 'widgets-six.png'), fullPage: true });
  // How long main-thread tasks take is a figure of `npm run bench` (its long_tasks row,
  // build-scripts/bench-long-tasks.mjs), never a pass/fail test.
  assert.equal(wasmHits(), 1, 'the wasm is downloaded once for six widgets');
  assert.equal(server.hits.get('/attention-playground.js'), 1);
  // The page's `button { display: none }` and fonts do not reach inside.
  const look = await p.evaluate(() => {
    const w = document.querySelector('attention-playground');
    const b = w.shadowRoot.querySelector('button');
    return {
      button: getComputedStyle(b).display,
      font: getComputedStyle(b).fontFamily,
      card: getComputedStyle(w.shadowRoot.querySelector('.ap')).display,
    };
  });
  assert.notEqual(look.button, 'none');
  assert.doesNotMatch(look.font, /Comic/);
  assert.notEqual(look.card, 'none');
  assert.deepEqual(errors, []);
  await p.close();
});

test('a bad attribute is explained inside its own box, never run as HTML, and the other widgets train', async () => {
  const { page: p, errors } = await open('/fixtures/bad.html', { width: 900, height: 2400 });
  await trained(p, 4, 30);
  const boxes = await p.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('attention-playground')].map((w) => [
        w.id,
        {
          status: w.status,
          alert: w.shadowRoot.querySelector('[role="alert"]')?.textContent ?? '',
          html: w.shadowRoot.querySelectorAll('img, b').length,
        },
      ]),
    ),
  );
  assert.equal(boxes['bad-value'].status, 'error');
  assert.match(boxes['bad-value'].alert, /could not start.*d-model="lots": not a number/s);
  assert.match(
    boxes['bad-preset'].alert,
    /preset="nonsense": no such preset\. Presets: playground, permutation, probe, extrapolation, none, learned, sinusoidal/,
  );
  assert.match(boxes['bad-combo'].alert, /cannot train: .*heads/);
  assert.match(boxes['bad-html'].alert, /position="<img src=x onerror="window.__pwned=1">": not one of/);
  assert.match(boxes['bad-html'].alert, /unknown panel <b>bold<\/b>/);
  assert.equal(boxes['bad-html'].html, 0, 'attribute text never becomes elements');
  assert.equal(await p.evaluate(() => window.__pwned), undefined);
  assert.equal(boxes.good.status, 'ready');
  assert.ok((await chartInk(p, 4)) > 40, 'the good widget draws its curves');
  await p.screenshot({ path: resolve(RESULTS, 'widgets-bad-attributes.png'), fullPage: true });
  // Attributes are live: mending the bad one rebuilds that widget, which then trains.
  await p.evaluate(() => document.getElementById('bad-value').setAttribute('d-model', '16'));
  await trained(p, 0, 10);
  assert.match(
    await p.evaluate(() => document.getElementById('bad-value').shadowRoot.querySelector('.ap-foot').textContent),
    /parameters/,
  );
  assert.deepEqual(errors, []);
  await p.close();
});

test('the iframe route: embed.html#<state> builds the widget from the hash, in dark theme too', async () => {
  const { page: p, errors } = await open(
    '/embed.html#preset=sinusoidal&steps=60&theme=dark&view=chart,positions&d_model=16&heads=2',
    { width: 700, height: 900 },
  );
  await trained(p, 0, 40);
  const w = await p.evaluate(() => {
    const el = document.querySelector('attention-playground');
    return {
      theme: el.getAttribute('theme'),
      dModel: el.getAttribute('d-model'),
      bg: getComputedStyle(el.shadowRoot.querySelector('.ap')).backgroundColor,
    };
  });
  assert.equal(w.theme, 'dark');
  assert.equal(w.dModel, '16');
  const [r, g, b] = w.bg.match(/\d+/g).map(Number);
  assert.ok(r + g + b < 150, `dark background (${w.bg})`);
  await frames(p);
  await p.screenshot({ path: resolve(RESULTS, 'widgets-embed-dark.png'), fullPage: true });
  // A bad value in the hash is explained in the frame, as text.
  await p.goto(`${server.url}/embed.html#preset=sinusoidal&lr=%3Cscript%3Ealert(1)%3C%2Fscript%3E`);
  await p.waitForFunction(() => document.querySelector('attention-playground')?.status === 'error', null, {
    timeout: 30000,
  });
  assert.match(
    await p.evaluate(() => document.querySelector('attention-playground').error),
    /lr="<script>alert\(1\)<\/script>": not a number/,
  );
  assert.deepEqual(errors, []);
  await p.close();
});

test('the script can come from another origin (a CDN): the worker and the wasm still load', async () => {
  // Same server, another host name: http://localhost:<port> is another origin than 127.0.0.1.
  const cdn = server.url.replace('127.0.0.1', 'localhost');
  server.extra.set(
    '/fixtures/cross.html',
    page('<attention-playground preset="learned" steps="40" autoplay></attention-playground>').replace(
      SCRIPT,
      `<script type="module" src="${cdn}/attention-playground.js"></script>`,
    ),
  );
  const { page: p, errors } = await open('/fixtures/cross.html');
  await trained(p, 0, 20);
  assert.deepEqual(errors, []);
  await p.close();
});

test('dark theme from prefers-color-scheme, on a narrow screen', async () => {
  const { page: p, errors } = await open('/fixtures/one.html', { width: 380, height: 900, colorScheme: 'dark' });
  await trained(p, 0, 50);
  // The theme and the layout (a ResizeObserver) reach the widget: wait for what is asserted below.
  const seen = await until(
    p,
    () => {
      const bg = getComputedStyle(
        document.querySelector('attention-playground').shadowRoot.querySelector('.ap'),
      ).backgroundColor;
      const fits = document.documentElement.scrollWidth <= innerWidth;
      return {
        ok:
          bg
            .match(/\d+/g)
            .slice(0, 3)
            .map(Number)
            .reduce((a, b) => a + b, 0) < 150 && fits,
        bg,
        fits,
      };
    },
    'a dark widget, no horizontal scrolling at 380 px',
  );
  const [r, g, b] = seen.bg.match(/\d+/g).map(Number);
  assert.ok(r + g + b < 150, `dark background (${seen.bg})`);
  assert.ok(seen.fits, 'no horizontal scrolling at 380 px');
  await p.screenshot({ path: resolve(RESULTS, 'widgets-dark-narrow.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await p.close();
});

test('everything one widget downloads is within the gzipped budget (BUDGET in web/build-widget.mjs)', async () => {
  const size = JSON.parse(readFileSync(resolve(DIST, 'size.json'), 'utf8'));
  assert.ok(size.worst <= size.budget, `the build measured ${size.worst} bytes`);
  // Measured in the browser too: every file the server sent for a page with one widget.
  server.hits.clear();
  const { page: p } = await open('/fixtures/one.html');
  await trained(p, 0, 30);
  assert.deepEqual(await p.evaluate(() => window.__ready), ['sinusoidal'], 'the widget fired `ready` once');
  let total = 0;
  const sent = [];
  for (const [path] of server.hits) {
    if (path.startsWith('/fixtures/')) continue;
    const bytes = gzipSize(readFileSync(resolve(DIST, `.${path}`)));
    sent.push(`${path} ${bytes}`);
    total += bytes;
  }
  console.log(`one widget downloaded ${total} bytes gzipped: ${sent.join(', ')}`);
  assert.ok(
    ![...server.hits.keys()].some((path) => path.startsWith('/corpus/')),
    'a widget without the text task never fetches the corpus',
  );
  assert.ok(
    ![...server.hits.keys()].some((path) => path.includes('.deferred')),
    `a first view runs on the module's first part only (build-scripts/wasm-split.mjs): ${sent.join(', ')}`,
  );
  assert.ok(
    ![...server.hits.keys()].some((path) => /refusals\.en-/.test(path)),
    `the refusals' English comes on the first refusal only (worker.js englishOf): ${sent.join(', ')}`,
  );
  assert.ok(total <= size.budget, `one widget downloaded ${total} bytes gzipped: ${sent.join(', ')}`);
  await p.close();
});

test('view="generate": a text widget trains on the bundled corpus; a prompt typed into it gets a continuation', async () => {
  server.hits.clear();
  const { page: p, errors } = await open('/fixtures/generate.html');
  await trained(p, 0, 60);
  assert.ok(
    server.hits.has('/corpus/jargon.txt'),
    `the text widget fetched the corpus beside the widget: ${[...server.hits.keys()].join(', ')}`,
  );
  const root = widget(p, 0);
  await root.locator('#gen-prompt').fill('The ');
  await root.locator('#gen-tokens').fill('12');
  await root.locator('#gen-run').click();
  await root.locator('.gen-out[data-generated="12"]').waitFor({ timeout: 20000 });
  assert.equal(await root.locator('.gen-tok').count(), 12);
  await p.screenshot({ path: resolve(RESULTS, 'widgets-generate.png') });
  assert.deepEqual(errors, []);
});
