// The playground's panels inside a widget on a 中文 page, and the widget's notices, as a reader sees
// them: view = predictions, generate, heads and interventions on the copy task, trained to its end;
// a held-out example generated, a patch intervention applied, one the engine refuses (an offset
// past the sequence), a prompt with a character not in the vocabulary (the generate panel's
// refusal), its worker terminated (the crash notice: restarted, its model back from its
// checkpoint) and a link's setting that is not the widget's (the "ignored from the link" notice);
// last, the heads measured once its model is gone (the heads panel's refusal). Then every visible text node, title and
// aria-label of the page is read (english-words.mjs, as course-zh-strings.test.mjs reads the
// lessons, at 1280 and 375 px): a Latin word that is neither a name nor a config value fails the
// test, named with where it is and its text. The model's tokens are data and are left out.
// Screenshot: test-results/course-zh-panels.png. Then, each in a widget of its own: a panel whose
// module cannot load, and a new model that cannot be built (the corpus refused), said in 中文.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { startHarness, until, WAIT, RESULTS } from './harness.mjs';
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

/** What the widget's shadow root holds under `selector`: its text, or null when there is none. */
const textIn = (/** @type {string} */ selector) => {
  const n = document.getElementById('z-panels').shadowRoot?.querySelector(selector);
  return n && !n.closest('[hidden]') ? n.textContent : null;
};

/** Open the course index in 中文 with the widget, trained to its end. */
async function trainedWidget() {
  const ctx = await h.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'zh-CN' });
  const page = await ctx.newPage();
  await page.goto(`${h.url}course/index.html`);
  await until(page, () => document.body.dataset.ready === 'true', 'the course index ready');
  await page.evaluate(() => {
    window.__done = false;
    const w = document.createElement('attention-playground');
    const attrs = {
      id: 'z-panels',
      task: 'copy',
      position: 'learned',
      'seq-len': '12',
      layers: '2',
      steps: '300',
      view: 'predictions,generate,heads,interventions',
      autoplay: '',
    };
    for (const [k, v] of Object.entries(attrs)) w.setAttribute(k, v);
    // a link's setting the widget does not have (an identifier: its name is not a word of the page)
    /** @type {any} */ (w).linkSettings = [['zz_9', '1']];
    w.addEventListener('trained', () => (window.__done = true));
    document.querySelector('main').append(w);
    w.scrollIntoView({ block: 'start' });
  });
  await until(
    page,
    () => ({ ok: window.__done === true, status: document.getElementById('z-panels').status }),
    'the widget trained',
    { timeout: WAIT.training * 3 },
  );
  return { ctx, page };
}

/** Generate a held-out example, apply an intervention, and let the heads be measured. */
async function useThePanels(page) {
  const root = page.locator('#z-panels');
  await until(
    page,
    () => (document.getElementById('z-panels').shadowRoot.querySelectorAll('.head-card').length ? true : false),
    'the heads measured',
    { timeout: WAIT.training },
  );
  const shown = await page.evaluate(() => {
    const r = document.getElementById('z-panels').shadowRoot;
    const all = (/** @type {string} */ s) => [...r.querySelectorAll(s)].map((n) => n.textContent);
    return { rules: all('.heads-rules li'), cards: all('.head-card h3'), summary: all('.predictions .summary') };
  });
  assert.equal(shown.rules.length, 5, `the heads' rules: ${shown.rules.join(' | ')}`);
  assert.match(shown.cards[0], /^第 1 层 · 第 1 个头$/);
  assert.match(shown.summary[0] ?? '', /^\d+ 个留出样例中有 \d+ 个完全正确。/);
  await root.locator('button.gen-example').click();
  const verdict = await until(page, textIn, 'the held-out example generated, with its verdict', {
    arg: '.gen-out p.ok, .gen-out p.error',
  });
  assert.match(verdict, /模型的答案/);
  await root.locator('select[name="iv-kind"]').selectOption('patch');
  await root.locator('button.iv-apply').click();
  const status = await until(
    page,
    () => {
      const s = document.getElementById('z-panels').shadowRoot.querySelector('.iv-status')?.textContent ?? '';
      return s.startsWith('第') ? s : null;
    },
    'the intervention applied',
  );
  assert.match(status, /^第 \d+ 步，留出集：损失 /);
  assert.match(
    await until(page, textIn, 'the intervention listed', { arg: '.iv-list li span' }),
    /^第 1 层第 1 个头：在位置 0 用样例 0 修补$/,
  );
}

/** The English words of a text the widget shows. @param {string} text */
const english = (text) => englishWords(text, ids);

/** An intervention the engine refuses (an offset past the sequence): said in 中文, no English word. */
async function refusedIntervention(page) {
  const root = page.locator('#z-panels');
  await root.locator('select[name="iv-kind"]').selectOption('offset');
  await root.locator('input[name="iv-offset"]').fill('99');
  await root.locator('button.iv-apply').click();
  const said = await until(page, textIn, 'the intervention refused', { arg: '.iv-error' });
  assert.match(said, /^未应用：k = 99 超出范围：k 可以是 0 到 \d+$/);
  assert.deepEqual(english(said), [], `the refusal "${said}"`);
}

/** A prompt with a character not in the vocabulary: the generate panel's refusal in 中文, no English word. */
async function refusedGenerate(page) {
  const root = page.locator('#z-panels');
  await root.locator('#gen-prompt').fill('1 2 x');
  await root.locator('#gen-run').click();
  const said = await until(
    page,
    () => {
      const s = document.getElementById('z-panels').shadowRoot.querySelector('.gen-out p.error')?.textContent ?? '';
      return s.startsWith('字符') ? s : null;
    },
    'the generation refused',
  );
  assert.match(said, /^字符“x”（U\+0078）不是这个任务（copy）的词元；它的词元是：0 1 2 /);
  assert.deepEqual(english(said), [], `the refusal "${said}"`);
}

/** The heads measured once the widget's model is gone: the heads panel's refusal in 中文, no English word. */
async function refusedHeads(page) {
  await page.evaluate(async () => {
    const app = document.getElementById('z-panels').app;
    await app.model.dispose();
    await app.panels.views.find((/** @type {any} */ v) => v.name === 'heads').loaded.refresh();
  });
  const said = await until(page, textIn, 'the heads refused', { arg: '.heads-error' });
  assert.equal(said, '无法测量注意力头：这个模型已被替换或关闭');
  assert.deepEqual(english(said), [], `the refusal "${said}"`);
}

/** Terminate the widget's worker: the notice says it was restarted and its model came back. */
async function crashTheWorker(page) {
  await page.evaluate(() => document.getElementById('z-panels').app.model.client.worker.terminate());
  const notice = await until(
    page,
    () => {
      const n = document.getElementById('z-panels').shadowRoot.querySelector('.apd-engine-notice');
      return n?.dataset.engine === 'restored' ? n.textContent : null;
    },
    'the crash notice: restarted',
    { timeout: WAIT.training },
  );
  assert.match(
    notice,
    /^一个训练引擎崩溃了（引擎的 Worker 已停止：被浏览器终止，或内存不足），已经重新启动；它的模型已从/,
  );
}

test('the predictions, generate, heads and interventions panels, their refusals and the notices in 中文: no English word, title or aria-label', async () => {
  const { ctx, page } = await trainedWidget();
  await useThePanels(page);
  await refusedIntervention(page);
  await refusedGenerate(page);
  await crashTheWorker(page);
  const ignored = await until(page, textIn, 'the ignored-from-the-link notice', { arg: '.ap-ignored' });
  assert.equal(ignored, '已忽略链接中的以下内容（不是这个组件的设置）：zz_9="1"。');
  await page.locator('#z-panels').screenshot({ path: resolve(RESULTS, 'course-zh-panels.png') });
  const found = [];
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await until(page, (w) => window.innerWidth === w, `the window at ${width} px`, { arg: width });
    // the widget's own words (the course page's header is course-zh-strings.test.mjs's)
    const shown = (await page.evaluate(latinText, true)).filter((x) => x.where.startsWith('#z-panels '));
    if (process.env.ZH_STRINGS_LIST) for (const x of shown) console.log(`${width} ${x.where}: ${x.text}`);
    for (const { where, text } of shown) {
      const words = english(text);
      if (words.length) found.push(`${width} px ${where}: "${text.slice(0, 90)}" (${words.join(' ')})`);
    }
  }
  await refusedHeads(page);
  await ctx.close();
  assert.deepEqual([...new Set(found)], [], 'English words in the panels and notices on a 中文 page');
});

test('a panel whose code cannot load (its chunk refused) says so in 中文, without the browser’s English reason', async () => {
  const ctx = await h.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'zh-CN' });
  const page = await ctx.newPage();
  await page.route(/\/generate-panel[^/]*\.js/, (route) => route.abort()); // dev server or dist
  await page.goto(`${h.url}course/index.html`);
  await until(page, () => document.body.dataset.ready === 'true', 'the course index ready');
  await page.evaluate(() => {
    const w = document.createElement('attention-playground');
    for (const [k, v] of Object.entries({ id: 'z-panels', task: 'copy', view: 'generate' })) w.setAttribute(k, v);
    document.querySelector('main').append(w);
    w.scrollIntoView({ block: 'start' });
  });
  const said = await until(page, textIn, 'the panel’s load failure said', { arg: '[role="alert"].error' });
  assert.equal(said, '无法加载“生成”：网络或服务器出错，请重新加载页面再试');
  assert.deepEqual(english(said), [], `the failure "${said}"`);
  await ctx.close();
});

test('a new model the widget cannot build (the training text not fetched) is said in 中文, without the English reason', async () => {
  const ctx = await h.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'zh-CN' });
  const page = await ctx.newPage();
  await page.route(/\/corpus\/jargon\.txt/, (route) => route.abort());
  await page.goto(`${h.url}course/index.html`);
  await until(page, () => document.body.dataset.ready === 'true', 'the course index ready');
  await page.evaluate(() => {
    const w = document.createElement('attention-playground');
    const attrs = { id: 'z-panels', task: 'copy', controls: 'task', view: 'predictions' };
    for (const [k, v] of Object.entries(attrs)) w.setAttribute(k, v);
    w.addEventListener('ready', () => (window.__ready = true));
    document.querySelector('main').append(w);
    w.scrollIntoView({ block: 'start' });
  });
  await until(page, () => window.__ready === true, 'the widget ready', { timeout: WAIT.training });
  await page.locator('#z-panels form.ap-controls select').first().selectOption('text'); // the text task: its corpus
  const said = await until(page, textIn, 'the failure said', { arg: '.config-error' });
  assert.equal(said, '无法建立新的模型：无法获取训练文本（网络或服务器出错），请再试一次');
  assert.deepEqual(english(said), [], `the failure "${said}"`);
  await ctx.close();
});
