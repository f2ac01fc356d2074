// Every lesson of the course in 中文, as a reader sees it after its widgets have trained: no visible
// English word in the widgets, their checks or the page's own words (header, switch, navigation;
// the header's aria-labels in a test of their own, in both languages).
// Each lesson opens with the browser's language zh-CN; each widget is scrolled into view and waited
// for (its `trained` event, or a demo's outcome); then every visible text node of the page, its
// widgets' shadow roots and their menus' options is read, and a Latin word that is neither a name
// (RoPE, ALiBi, softmax ...) nor a config value (the engine's registry: copy_back, learned, l2 ...)
// fails the test, named with where it is. A config field's name is English as a label ("normalization")
// and passes only as code: inside <code>, or in `field = value`, the way the checks write a setting. The lesson's prose (<main>'s own text, outside widgets
// and checks) is the lesson file's, held by tests/node/course.test.mjs, and is left out here.
// ZH_STRINGS_LIST=1 prints every text node with a Latin word (names included), for review.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until, WAIT } from './harness.mjs';
import { LESSONS } from '../../web/src/pages/course/pages.mjs';
import { loadModule } from '../node/load.mjs';
import { englishWords, latinText, registryIds } from './english-words.mjs';
import REGISTRY from '../../web/src/state/registry.gen.js';

let h;
/** The config fields' names and the registry's values (englishWords' `known`). */
let ids = registryIds({ config: [], positions: [], normalizations: [], tasks: [] });
before(async () => {
  h = await startHarness();
  ids = registryIds(REGISTRY);
});
after(() => h?.close());

/**
 * The English words on `page` (both widths), as the failure lists them: of its visible text, and of
 * the titles and aria-labels of the widgets `attrs` names (their ids).
 * @param {import('playwright-core').Page} page @param {string} name @param {string[]} [attrs]
 */
async function englishOn(page, name, attrs = []) {
  const found = [];
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await until(page, (w) => window.innerWidth === w, `${name}: the window at ${width} px`, { arg: width });
    for (const { where, text } of await page.evaluate(latinText, attrs.length > 0)) {
      if (/\[(title|aria-label)\]$/.test(where) && !attrs.some((id) => where.startsWith(`#${id} `))) continue;
      if (process.env.ZH_STRINGS_LIST) console.log(`${name} ${width} ${where}: ${text}`);
      const words = englishWords(text, ids);
      if (words.length) found.push(`${width} px ${where}: "${text.slice(0, 80)}" (${words.join(' ')})`);
    }
  }
  return [...new Set(found)];
}

/** Open lesson `slug` in 中文 and let every widget train (scrolled into view, one after another; a check's
 * widget after a prediction). */
async function trainAll(slug) {
  const ctx = await h.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'zh-CN' });
  const page = await ctx.newPage();
  await page.goto(`${h.url}course/${slug}.html`);
  await until(page, () => document.body.dataset.ready === 'true', `${slug}: the lesson ready`);
  await page.evaluate(() => {
    window.__done = {};
    document.addEventListener('trained', (e) => (window.__done[e.target.id] = true));
  });
  const ids = await page.evaluate(() => [...document.querySelectorAll('main attention-playground')].map((w) => w.id));
  for (const id of ids) {
    await page.evaluate((i) => document.getElementById(i).scrollIntoView({ block: 'start' }), id);
    await until(
      page,
      (i) => {
        const w = document.getElementById(i);
        // a check's widget waits for the reader's prediction: the reader makes one
        const ask = document.querySelector(`aside[data-for="${i}"] .check-predict button[data-guess]`);
        if (ask && !w.currentStep) /** @type {HTMLButtonElement} */ (ask).click();
        const d = w.shadowRoot?.querySelector('.apd-permutation')?.dataset ?? {};
        const demoDone = Boolean(d.outcomeNone && d.outcomeEncoding); // the permutation demo's pair trained
        return { ok: Boolean(window.__done[i]) || demoDone, status: w.status };
      },
      `${slug}: the widget ${id} trained`,
      { arg: id, timeout: WAIT.training * 3 },
    );
  }
  return { ctx, page };
}

/**
 * What a reader may do in a lesson that brings other words on screen, done after training: in lesson
 * 2, the check's widget set to RoPE at every layer, which the engine refuses (its message is English
 * and names the field: the widget says it in the table's words).
 * @type {Record<string, (page: import('playwright-core').Page) => Promise<void>>}
 */
const MORE = {
  absolute: async (page) => {
    await page.locator('#absolute-check select#ctl-position').selectOption('rope');
    await until(page, () => document.getElementById('absolute-check').config?.position === 'rope', 'RoPE built', {
      timeout: WAIT.training,
    });
    await page.locator('#absolute-check select#ctl-placement').selectOption('layerwise');
    const shown = await until(
      page,
      () => {
        const p = document.getElementById('absolute-check').shadowRoot.querySelector('.config-error');
        return { ok: Boolean(p && !p.hidden && p.textContent), text: p?.textContent };
      },
      'the engine refuses RoPE at every layer, said in the widget',
    );
    assert.match(shown.text, /placement = layerwise 不适用于 rope/);
  },
};

for (const { slug } of LESSONS)
  test(`lesson ${slug} in 中文: no English word in its widgets, checks or page words, at 1280 and 375 px`, async () => {
    const { ctx, page } = await trainAll(slug);
    await MORE[slug]?.(page);
    const found = await englishOn(page, slug);
    await ctx.close();
    assert.deepEqual(found, [], `${slug}: English words on the 中文 page`);
  });

// The page's own labels for assistive technology (the header's navigation and language switch, a
// lesson's way on): in 中文 on a 中文 page, in English once the reader switches to English, on the
// index and on a lesson. Read before any widget trains (they are the page's, not a widget's).
test("the course header's aria-labels follow the page's language: 中文, then English", async () => {
  const ctx = await h.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'zh-CN' });
  const page = await ctx.newPage();
  /** The aria-labels and titles of the page outside its widgets: [{where, text}]. */
  const labels = () =>
    page
      .evaluate(latinText, true)
      .then((all) => all.filter((x) => x.where.startsWith('page ') && /\[(title|aria-label)\]$/.test(x.where)));
  const header = () =>
    page.evaluate(() => ({
      nav: document.querySelector('header nav.demo-links').getAttribute('aria-label'),
      lang: document.querySelector('header .course-lang').getAttribute('aria-label'),
    }));
  for (const slug of ['index', LESSONS[1].slug]) {
    await page.goto(`${h.url}course/${slug}.html`);
    await until(page, () => document.body.dataset.ready === 'true', `${slug}: the page ready`);
    assert.deepEqual(await header(), { nav: '页面', lang: '语言' }, `${slug}: the header's labels in 中文`);
    const english = (await labels()).filter((x) => englishWords(x.text, ids).length);
    assert.deepEqual(english, [], `${slug}: English labels on the 中文 page`);
    await page.click('.course-lang button[data-lang="en"]');
    await until(page, () => document.documentElement.lang === 'en', `${slug}: switched to English`);
    assert.deepEqual(await header(), { nav: 'Pages', lang: 'Language' }, `${slug}: the header's labels in English`);
    await page.click('.course-lang button[data-lang="zh"]'); // the next page opens in 中文 again (remembered)
    await until(page, () => document.documentElement.lang === 'zh-Hans', `${slug}: back to 中文`);
  }
  await ctx.close();
});

// The widgets no lesson shows yet, in a Chinese page: the probe and extrapolation demos (small
// grids, few steps) and a comparison, each trained to its end on the course's index page.
test('the probe and extrapolation demos and a comparison in 中文: no English word once trained', async () => {
  const ctx = await h.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'zh-CN' });
  const page = await ctx.newPage();
  await page.goto(`${h.url}course/index.html`);
  await until(page, () => document.body.dataset.ready === 'true', 'the course index ready');
  await page.evaluate(() => {
    const add = (/** @type {Record<string, string>} */ attrs) => {
      const w = document.createElement('attention-playground');
      for (const [k, v] of Object.entries(attrs)) w.setAttribute(k, v);
      document.querySelector('main').append(w);
    };
    const on = { steps: '40', autoplay: '' }; // they train once in view (no lesson plays them)
    add({ id: 'z-probe', preset: 'probe', position: 'rope,alibi', normalization: 'softmax,l2', ...on });
    add({ id: 'z-ext', preset: 'extrapolation', position: 'rope,learned', ...on });
    add({
      id: 'z-cmp',
      task: 'copy_back',
      compare: 'position=none,rope',
      view: 'chart,attention,predictions,heads',
      ...on,
    });
  });
  for (const [id, done] of [
    ['z-probe', '.apd-probe[data-complete="true"]'],
    ['z-ext', '.apd-extrapolation[data-complete="true"]'],
    ['z-cmp', '.ap-compare-runs'],
  ]) {
    await page.evaluate((i) => document.getElementById(i).scrollIntoView({ block: 'start' }), id);
    await until(
      page,
      ([i, sel]) => {
        const root = document.getElementById(i).shadowRoot;
        const steps = [...(root?.querySelectorAll('.ap-compare-runs tbody td:nth-child(2)') ?? [])];
        return Boolean(root?.querySelector(sel)) && steps.every((td) => td.textContent === '40');
      },
      `the widget ${id} trained`,
      { arg: [id, done], timeout: WAIT.training * 3 },
    );
  }
  // the comparison's heads table and predictions drawn (their words are the table's panels part)
  await until(
    page,
    () => {
      const r = document.getElementById('z-cmp').shadowRoot;
      return Boolean(r.querySelector('.ap-compare-heads tbody tr') && r.querySelector('.predictions .summary'));
    },
    'the comparison measured its heads and drew its predictions',
    { timeout: WAIT.training },
  );
  const found = await englishOn(page, 'demos', ['z-probe', 'z-ext', 'z-cmp']); // and the cells' tooltips and labels
  await ctx.close();
  assert.deepEqual(found, [], 'English words in the demos and the comparison on a 中文 page');
});
