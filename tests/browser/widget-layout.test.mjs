// The widget in a blog column and on a phone, from the built folder (dist/) on a plain static
// server: the example post does not jump as its widgets load (each placeholder holds the room of
// its widget: layout shift measured by a PerformanceObserver, heights before and after), at 1280
// and 375 px, light and dark; its demos are compact (no "Why" section); it describes the probe as
// the probe demo works. Predictions fit a 375 px phone, or scroll with a visible cue; the probe
// widget's grid fits a 375 and a 320 px phone (a table of 2 columns, or stacked), and scrolls with
// a cue only in a wider column. A page that
// forgets type="module" gets a sentence in the widget's box. The built folder carries .gz and .br
// copies, and `vite preview` sends the wasm compressed. Screenshots go to test-results/layout-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { get } from 'node:http';
import { preview } from 'vite';
import { ROOT, RESULTS, until, frames } from './harness.mjs';
import { DIST } from './dist.mjs';
import { page as fixture, startWidgetServer } from './widget-fixtures.mjs';

const PAGES = {
  '/fixtures/predictions.html': fixture(
    '<attention-playground task="copy" steps="200" view="predictions" controls="play" autoplay></attention-playground>',
  ),
  '/fixtures/predictions-long.html': fixture(
    '<attention-playground task="copy" seq-len="40" steps="20" view="predictions" controls="play" autoplay></attention-playground>',
  ),
  '/fixtures/probe.html': fixture('<attention-playground preset="probe" compact></attention-playground>'),
  // the example post's probe (its rows and columns), trained 30 steps: every cell shows its final numbers
  '/fixtures/probe-post.html': fixture(
    '<attention-playground preset="probe" positions="none,learned,sinusoidal,rope,alibi" normalizations="softmax,relu2" compact autoplay steps="30"></attention-playground>',
  ),
  '/fixtures/classic.html': fixture(
    '<p>Before.</p><attention-playground preset="rope"></attention-playground><p>After.</p>',
  ).replace(
    '<script type="module" src="/attention-playground.js"></script>',
    '<script src="/attention-playground.js"></script>',
  ),
};

let server;
before(async () => {
  server = await startWidgetServer(PAGES);
});
after(() => server?.close());

/** Layout shifts, split into those that move the post's own elements (a source node in the
 * page, outside the widgets) and the rest (inside a widget's shadow root, as it builds itself). */
function recordShifts(p) {
  return p.addInitScript(() => {
    window.__shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.hadRecentInput) continue;
        const post = e.sources.some(
          (s) => s.node && s.node.getRootNode() === document && !s.node.closest?.('attention-playground'),
        );
        window.__shifts.push({
          value: e.value,
          post,
          upgraded: Boolean(window.__upgraded),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

const open = (path, { width, height = 800, colorScheme = 'light' }) =>
  server.open(path, { width, height, colorScheme, setup: recordShifts });

const heights = (p) =>
  p.evaluate(() =>
    [...document.querySelectorAll('attention-playground')].map((w) => Math.round(w.getBoundingClientRect().height)),
  );

for (const [width, scheme] of [
  [1280, 'light'],
  [375, 'dark'],
]) {
  test(`the example post at ${width} px (${scheme}) does not jump as its widgets load`, async () => {
    const { page: p, errors } = await open('/examples/blog-post.html', {
      width,
      colorScheme: scheme,
    });
    // Each placeholder holds its room once the widget has seen its width (a ResizeObserver).
    await p.waitForFunction(
      () =>
        customElements.get('attention-playground') &&
        [...document.querySelectorAll('attention-playground')].every(
          (w) => w.shadowRoot.querySelector('.ap').style.minHeight,
        ),
    );
    await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await p.evaluate(() => (window.__upgraded = true));
    await p.screenshot({
      path: resolve(RESULTS, `layout-${width}-${scheme}-placeholders.png`),
      fullPage: true,
    });
    const before = await heights(p);
    const n = before.length;
    const presets = await p.evaluate(() =>
      [...document.querySelectorAll('attention-playground')].map((w) => w.getAttribute('preset')),
    );
    for (let i = 0; i < n; i++) {
      await p.locator('attention-playground').nth(i).scrollIntoViewIfNeeded();
      // Built and trained a little: a demo says so on its box (data-ready) once its views are drawn.
      const built = await until(
        p,
        (k) => {
          const w = document.querySelectorAll('attention-playground')[k];
          const demoReady = !w.demo || w.shadowRoot.querySelector('.apd')?.dataset.ready === 'true';
          return {
            ok: w.status === 'error' || (w.status === 'ready' && w.currentStep >= 20 && demoReady),
            status: w.status,
            error: w.error,
            step: w.currentStep,
            demoReady,
          };
        },
        `widget ${i} (${presets[i]}) built and at step 20`,
        { arg: i, timeout: 60000 },
      );
      assert.equal(built.status, 'ready', `widget ${i}: ${built.error}`);
      await frames(p);
      await p
        .locator('attention-playground')
        .nth(i)
        .screenshot({
          path: resolve(RESULTS, `layout-${width}-${scheme}-${i}-${presets[i]}.png`),
        });
    }
    const after = await heights(p);
    const shifts = await p.evaluate(() => window.__shifts);
    const sum = (list) => list.reduce((s, e) => s + e.value, 0);
    const post = sum(shifts.filter((e) => e.post && e.upgraded));
    console.log(
      `${width} px: placeholders ${before.join(', ')} px, built ${after.join(', ')} px; layout shift of the post once the ` +
        `widgets are defined ${post.toFixed(4)}, before (the element not yet defined) ${sum(shifts.filter((e) => !e.upgraded)).toFixed(4)}, ` +
        `inside the widgets as they build ${sum(shifts.filter((e) => !e.post && e.upgraded)).toFixed(4)}`,
    );
    for (let i = 0; i < n; i++)
      assert.ok(
        Math.abs(after[i] - before[i]) <= Math.max(80, 0.12 * after[i]),
        `widget ${i} (${presets[i]}): held ${before[i]} px, built ${after[i]} px`,
      );
    assert.ok(post < 0.02, `the post's layout shift as its widgets load: ${post.toFixed(4)}`);
    // The probe's grid fits the column: no column cut off, every cell in the viewport.
    const grid = await p.evaluate(() => {
      const r = document.querySelector('attention-playground[preset="probe"]').shadowRoot;
      const wrap = r.querySelector('.apd-grid-wrap');
      const out = [...r.querySelectorAll('td.apd-cell')].filter((c) => {
        const b = c.getBoundingClientRect();
        return b.left < 0 || b.right > innerWidth;
      });
      return {
        scrollWidth: wrap.scrollWidth,
        clientWidth: wrap.clientWidth,
        out: out.map((c) => c.dataset.pos),
      };
    });
    assert.ok(
      grid.scrollWidth <= grid.clientWidth,
      `the probe's grid: ${grid.scrollWidth} px in ${grid.clientWidth} px`,
    );
    assert.deepEqual(grid.out, [], "the probe's cells inside the viewport");
    // The demos are compact: their title and results, not the long prose or the "Why" section.
    const demo = await p.evaluate(() =>
      [...document.querySelectorAll('attention-playground[compact]')].map((w) => {
        const r = w.shadowRoot;
        const shown = (s) => [...r.querySelectorAll(s)].filter((e) => e.getClientRects().length > 0).length;
        return {
          title: shown('.apd-intro h2'),
          why: shown('.apd-explain-card'),
          prose: shown('.apd-intro p'),
        };
      }),
    );
    assert.equal(demo.length, 2);
    for (const d of demo) assert.deepEqual(d, { title: 1, why: 0, prose: 0 });
    // The post says what the probe demo does.
    const text = await p.evaluate(() => document.querySelector('main').innerText);
    assert.doesNotMatch(text, /classifier to read the position/);
    assert.match(text, /identical tokens[\s\S]*index, 0 to 7/);
    assert.ok(await p.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'nothing scrolls sideways');
    // The post starts in the reader's scheme, its widgets with it.
    const themes = await p.evaluate(() => ({
      post: document.body.classList.contains('dark'),
      widgets: [...document.querySelectorAll('attention-playground')].map((w) => w.getAttribute('theme')),
    }));
    assert.deepEqual(
      themes,
      { post: scheme === 'dark', widgets: Array(n).fill(scheme) },
      'the post and its widgets in one scheme',
    );
    // The other theme, from the post's switch.
    await p.locator('#theme-toggle').click();
    const other = scheme === 'dark' ? 'light' : 'dark';
    await until(
      p,
      (t) => [...document.querySelectorAll('attention-playground')].every((w) => w.getAttribute('theme') === t),
      `the widgets in the ${other} theme`,
      { arg: other },
    );
    await frames(p);
    await p.evaluate(() => scrollTo(0, 0));
    await p.screenshot({
      path: resolve(RESULTS, `layout-${width}-post-${scheme === 'dark' ? 'light' : 'dark'}.png`),
      fullPage: true,
    });
    assert.deepEqual(errors, []);
    await p.close();
  });
}

test('predictions at 375 px: 16 tokens fit; a longer row scrolls, with a cue in words and a faded edge', async () => {
  for (const [path, fits] of [
    ['/fixtures/predictions.html', true],
    ['/fixtures/predictions-long.html', false],
  ]) {
    const { page: p, errors } = await open(path, {
      width: 375,
      colorScheme: fits ? 'light' : 'dark',
    });
    const w = p.locator('attention-playground');
    await w.locator('.example').first().waitFor({ timeout: 60000 });
    // The rows are measured (their cue follows a frame late on a busy machine): wait for what is asserted below.
    await until(
      p,
      (fit) => {
        const rows = [...document.querySelector('attention-playground').shadowRoot.querySelectorAll('.example')].map(
          (e) => ({
            over: e.scrollWidth - e.clientWidth,
            more: e.dataset.more ?? '',
            tokens: e.querySelectorAll('.tok-row:last-child .tok').length,
          }),
        );
        return {
          ok: rows.every((r) => (fit ? r.tokens === 16 && r.over <= 1 && !r.more : r.over > 1 && r.more === 'right')),
          rows,
        };
      },
      fits ? '16 tokens fitting each row, no cue' : 'each row too wide marked (data-more=right)',
      { arg: fits },
    );
    const rows = await p.evaluate(() =>
      [...document.querySelector('attention-playground').shadowRoot.querySelectorAll('.example')].map((e) => ({
        over: e.scrollWidth - e.clientWidth,
        more: e.dataset.more ?? '',
        tokens: e.querySelectorAll('.tok-row:last-child .tok').length,
      })),
    );
    const cue = (await w.locator('.scroll-cue').count()) ? await w.locator('.scroll-cue').innerText() : '';
    if (fits) {
      assert.ok(
        rows.every((r) => r.tokens === 16 && r.over <= 1 && !r.more),
        `16 tokens fit: ${JSON.stringify(rows)}`,
      );
      assert.equal(cue, '');
    } else {
      assert.ok(
        rows.every((r) => r.over > 1 && r.more === 'right'),
        `rows too wide are marked: ${JSON.stringify(rows)}`,
      );
      assert.match(cue, /Scroll each example sideways to see all \d+ positions/);
      // Scrolled to its end, the example fades on the left instead (a refresh may redraw it: again then).
      const { more } = await until(
        p,
        () => {
          const e = document.querySelector('attention-playground').shadowRoot.querySelector('.example');
          if (e.scrollLeft + e.clientWidth < e.scrollWidth - 1) e.scrollLeft = e.scrollWidth; // (again, after a redraw)
          return { ok: e.dataset.more === 'left', more: e.dataset.more };
        },
        'the example scrolled to its end, faded on the left (data-more=left)',
      );
      assert.equal(more, 'left');
    }
    await p.screenshot({
      path: resolve(RESULTS, `layout-375-predictions-${fits ? 'fit' : 'scroll'}.png`),
      fullPage: true,
    });
    assert.deepEqual(errors, []);
    await p.close();
  }
});

// The probe grid on a phone: every cell inside the grid's box and the viewport, every number inside
// its cell, nothing to scroll. The example post's grid (5 × 2, trained to the end: its widest
// numbers, the seeds' ranges) stays a table; the default 8 × 6 stacks. In a wider column a grid too
// wide for it still scrolls, and says so.
const PROBE_CASES = [
  ['/fixtures/probe-post.html', 375, 'light', 'the example post'],
  ['/fixtures/probe-post.html', 375, 'dark', 'the example post'],
  ['/fixtures/probe-post.html', 320, 'light', 'the example post'],
  ['/fixtures/probe.html', 375, 'dark', 'the default 8 × 6'],
  ['/fixtures/probe.html', 640, 'light', 'the default 8 × 6'],
];
for (const [path, width, scheme, what] of PROBE_CASES)
  test(`the probe widget's grid (${what}) at ${width} px (${scheme}): ${width < 560 ? 'every cell and number in view, nothing scrolls' : 'scrolls, and says so'}`, async () => {
    const { page: p, errors } = await open(path, {
      width,
      colorScheme: scheme,
    });
    const trained = path.includes('post');
    const w = p.locator('attention-playground');
    await w.locator('.apd-grid td.apd-cell').first().waitFor({ timeout: 60000 });
    if (trained)
      await until(
        p,
        () => {
          const box = document.querySelector('attention-playground').shadowRoot.querySelector('.apd');
          return {
            ok: box?.dataset.complete === 'true',
            done: box?.dataset.done,
          };
        },
        'every cell of the grid trained',
        { timeout: 240000 },
      );
    // The scroll cue follows a ResizeObserver: on a busy machine, wait for it (asserted below).
    await until(
      p,
      () => {
        const r = document.querySelector('attention-playground').shadowRoot;
        const wrap = r.querySelector('.apd-grid-wrap'),
          hint = r.querySelector('.apd-scroll-hint');
        const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
        const cue = Boolean(hint && !hint.hidden && hint.getClientRects().length);
        return { ok: scrolls === cue, scrolls, cue };
      },
      'the scroll cue shown exactly when the grid scrolls',
    );
    const g = await p.evaluate(() => {
      const r = document.querySelector('attention-playground').shadowRoot;
      const wrap = r.querySelector('.apd-grid-wrap');
      const box = wrap.getBoundingClientRect();
      const cells = [...r.querySelectorAll('.apd-grid td.apd-cell:not([hidden])')];
      const rect = (c) => c.getBoundingClientRect();
      const hint = r.querySelector('.apd-scroll-hint');
      return {
        scrollWidth: wrap.scrollWidth,
        clientWidth: wrap.clientWidth,
        wrapRight: box.right,
        cells: cells.length,
        outOfView: cells
          .filter(
            (c) => rect(c).left < Math.max(0, box.left) - 1 || rect(c).right > Math.min(innerWidth, box.right) + 1,
          )
          .map(
            (c) => `${c.dataset.pos} × ${c.dataset.norm}: ${Math.round(rect(c).left)}–${Math.round(rect(c).right)} px`,
          ),
        clipped: cells
          .filter((c) => c.scrollWidth > c.clientWidth + 1)
          .map((c) => `${c.dataset.pos} × ${c.dataset.norm}: ${c.scrollWidth} in ${c.clientWidth} px`),
        ranges: r.querySelectorAll('.apd-cell .apd-range').length,
        stacked: getComputedStyle(r.querySelector('.apd-grid')).display !== 'table',
        labels: cells.map((c) => [c.dataset.label, getComputedStyle(c, '::before').content]),
        firstRow: [...r.querySelectorAll('.apd-grid tbody tr:first-child td.apd-cell')].map((c) => rect(c)),
        hint: Boolean(hint && !hint.hidden && hint.getClientRects().length),
        caption: r.querySelector('.apd-grid-caption').getBoundingClientRect().right - box.left,
        captionShown: r.querySelector('.apd-grid-caption').getClientRects().length > 0,
      };
    });
    const { labels, firstRow, ...shown } = g;
    console.log(`probe widget (${what}) at ${width} px (${scheme}): ${JSON.stringify(shown)}`);
    await p.screenshot({
      path: resolve(RESULTS, `layout-${width}-probe-${trained ? 'post' : 'default'}-${scheme}.png`),
      fullPage: true,
    });
    assert.ok(g.wrapRight <= width + 1, `the grid's box stays in the column: ${g.wrapRight}`);
    assert.ok(g.captionShown, 'the grid says what its rows and columns are');
    assert.ok(
      g.caption <= g.clientWidth + 1,
      `the grid's caption wraps inside the column: it ends ${g.caption} px from the grid's left edge`,
    );
    assert.equal(
      g.hint,
      g.scrollWidth > g.clientWidth + 1,
      'the sentence about scrolling shows exactly when the grid scrolls',
    );
    if (width < 560) {
      assert.ok(
        g.scrollWidth <= g.clientWidth,
        `no column cut off: the grid is ${g.scrollWidth} px in ${g.clientWidth} px`,
      );
      assert.deepEqual(g.outOfView, [], 'every cell inside the grid and the viewport');
      assert.deepEqual(g.clipped, [], 'every number inside its cell');
      assert.equal(g.hint, false, 'no sentence about scrolling');
      if (trained) {
        assert.equal(g.cells, 10);
        assert.equal(g.stacked, false, 'two columns stay a table');
        assert.ok(g.ranges > 0, "a cell with the seeds' range (the widest numbers) is measured");
      } else {
        assert.equal(g.cells, 48);
        assert.equal(g.stacked, true, 'six columns stack');
        assert.ok(
          labels.every(
            ([l, shown]) =>
              /^(softmax|l2|relu2|sigmoid|softmax1|sink) · Σ\u00a0(=\u00a01|varies)$/.test(l) &&
              !/^(none|normal)$/.test(shown),
          ),
          `each stacked cell names its column: ${JSON.stringify(labels.slice(0, 6))}`,
        );
      }
    } else {
      // (640 px) a table wider than the column: it scrolls with the cue, two cells of a row in view
      assert.equal(g.stacked, false);
      assert.ok(g.hint, 'the sentence about scrolling');
      const inView = firstRow.filter((c) => c.right <= g.wrapRight + 1).length;
      assert.ok(inView >= 2, `at least two cells of a row are in view: ${inView} of ${firstRow.length}`);
    }
    assert.ok(
      await p.evaluate(() => document.documentElement.scrollWidth <= innerWidth),
      'nothing scrolls the page sideways',
    );
    assert.deepEqual(errors, []);
    await p.close();
  });

test('a script tag without type="module": the widget box says how to fix it, as text', async () => {
  const { page: p, errors } = await open('/fixtures/classic.html', {
    width: 375,
  });
  const note = p.locator('attention-playground [role="alert"]');
  await note.waitFor({ timeout: 10000 });
  assert.match(
    await note.innerText(),
    /could not start: the page loads attention-playground\.js without type="module"\. Write the tag as <script type="module"/,
  );
  assert.equal(await p.locator('attention-playground img, attention-playground script').count(), 0, 'text, not markup');
  assert.ok(
    errors.every((e) => /without type="module"/.test(e)),
    errors.join('\n'),
  );
  await p.screenshot({
    path: resolve(RESULTS, 'layout-375-classic-script.png'),
    fullPage: true,
  });
  await p.close();
});

/** GET `url` with an Accept-Encoding; the raw answer. */
function fetchRaw(url, encoding) {
  return new Promise((ok, fail) => {
    get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => ok({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', fail);
  });
}

test('dist/ carries .gz and .br copies that decompress to the same bytes; vite preview sends the wasm compressed', async () => {
  const assets = readdirSync(resolve(DIST, 'assets'));
  const wasm = assets.filter((f) => f.endsWith('.wasm'));
  // simd and scalar in two parts each (build-scripts/wasm-split.mjs), threads whole
  assert.equal(wasm.length, 5, 'three wasm variants (simd, scalar, threads), simd and scalar with a deferred part');
  assert.equal(wasm.filter((f) => f.includes('.deferred-')).length, 2, 'the deferred parts of simd and scalar');
  const widget = assets.filter((f) => /^widget-[\w-]{8}\.js$/.test(f));
  assert.equal(widget.length, 1, 'the widget module');
  for (const f of [...wasm, ...widget].map((a) => `assets/${a}`)) {
    const file = resolve(DIST, f);
    assert.ok(existsSync(`${file}.gz`) && existsSync(`${file}.br`), `${f}.gz and ${f}.br`);
    const bytes = readFileSync(file);
    assert.ok(gunzipSync(readFileSync(`${file}.gz`)).equals(bytes), `${f}.gz`);
    assert.ok(brotliDecompressSync(readFileSync(`${file}.br`)).equals(bytes), `${f}.br`);
  }
  const server = await preview({
    configFile: resolve(ROOT, 'web/vite.config.mjs'),
    preview: { port: 0, strictPort: false, host: '127.0.0.1' },
    logLevel: 'error',
  });
  try {
    const url = server.resolvedUrls.local[0];
    const bytes = readFileSync(resolve(DIST, 'assets', wasm[0]));
    const br = await fetchRaw(`${url}assets/${wasm[0]}`, 'gzip, deflate, br');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers['content-type'], 'application/wasm');
    assert.ok(brotliDecompressSync(br.body).equals(bytes));
    const gz = await fetchRaw(`${url}assets/${wasm[0]}`, 'gzip');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(gunzipSync(gz.body).equals(bytes));
    console.log(
      `vite preview sends ${wasm[0]} (${bytes.length} bytes) as ${br.body.length} bytes (br) or ${gz.body.length} bytes (gzip)`,
    );
    const plain = await fetchRaw(`${url}assets/${wasm[0]}`, 'identity');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.body.equals(bytes));
  } finally {
    await new Promise((r) => server.httpServer.close(r));
  }
});
