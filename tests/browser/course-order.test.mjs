// Lesson 1 of the course, "Attention cannot see order" (course/order.html), as a reader goes
// through it: scrolled into view, the permutation widget shows f(πX) = πf(X) to float rounding
// and the pooled answer unchanged; its model without positions stays at chance on `order` while
// learned positions learn it; the check's model without positions is at chance, and the lesson's
// live numbers are that widget's own; switched to learned positions in its menu and trained, the
// check passes, judged from the engine's held-out accuracy; after a reload the pass and the place
// are kept. The language follows the browser (zh-CN gives 中文), the switch changes it from the
// keyboard and is remembered; the widgets speak it. Widgets pause when scrolled away and stay
// as they ended when scrolled back to; one played while still being built trains once built. Screenshots:
// test-results/course-order-{en,zh}-{1280,375}-{light,dark}.png and course-index-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until, shotFourWays, WAIT } from './harness.mjs';
import { predict } from './course-fixtures.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(() => h?.close());

/** A page of the course in a browser context of its own (locale: the browser's language). */
async function openCourse(path, { locale = 'en-US', width = 1280, context = null } = {}) {
  const ctx = context ?? (await h.browser.newContext({ viewport: { width, height: 900 }, locale }));
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  await page.goto(`${h.url}${path}`);
  await until(page, () => document.body.dataset.ready === 'true', 'the course page ready');
  return { ctx, page, errors };
}

const scrollTo = (page, selector) =>
  page.evaluate((s) => document.querySelector(s).scrollIntoView({ block: 'start' }), selector);

/** The permutation widget's numbers, read from its own view (the demo's dataset). */
const permFacts = (page) =>
  page.evaluate(() => {
    const box = document.getElementById('perm').shadowRoot?.querySelector('.apd-permutation');
    const d = box?.dataset ?? {};
    const diff = box?.querySelector('.apd-diff')?.dataset.diff;
    const pooled = box?.querySelector('.apd-pooled')?.dataset.same;
    return { diff: diff === undefined ? null : Number(diff), pooled, ...d };
  });

test('lesson 1: equivariance on the reader sequence, order at chance without positions, the check passes and is kept', async () => {
  const { ctx, page, errors } = await openCourse('course/order.html');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  // Every <attention-playground> of the lesson comes from the lesson file (none idle before it is on screen).
  assert.equal(await page.evaluate(() => document.getElementById('perm').status), 'idle');

  // The permutation widget, scrolled into view: f(πX) = πf(X) up to rounding, the pooled answer the same.
  await scrollTo(page, '#perm');
  const eq = await until(
    page,
    () => {
      const box = document.getElementById('perm').shadowRoot?.querySelector('.apd-permutation');
      const diff = box?.querySelector('.apd-diff')?.dataset.diff;
      return { ok: diff !== undefined, diff: Number(diff), same: box.querySelector('.apd-pooled')?.dataset.same };
    },
    'the permutation widget compares f(πX) with πf(X)',
    { timeout: WAIT.training },
  );
  assert.ok(eq.diff < 1e-5, `f(πX) = πf(X) to rounding without positions (largest difference ${eq.diff})`);
  assert.equal(eq.same, 'true', 'the pooled prediction is the same for X and πX');

  // Its two models on `order`: learned positions learn it (≥ 95% on every seed) while none stays at chance.
  const pair = await until(
    page,
    () => {
      const d = document.getElementById('perm').shadowRoot?.querySelector('.apd-permutation')?.dataset ?? {};
      return { ok: d.outcomeEncoding === 'learned' && d.outcomeNone === 'budget', ...d };
    },
    'the pair trained: learned positions learned order, none ran out of its budget',
    { timeout: WAIT.training * 2 },
  );
  assert.ok(Number(pair.accNone) < 0.65, `none stays near chance on order (mean held-out accuracy ${pair.accNone})`);
  assert.ok(Number(pair.accEncodingMin) >= 0.95, `learned positions learn order (lowest seed ${pair.accEncodingMin})`);

  // Scrolled away, the permutation widget is off screen (a widget pauses itself there).
  await scrollTo(page, '#order-check');
  await until(page, () => window.coursePage.widgets.inView.get('perm') === false, 'the permutation widget off screen');
  // Scrolled back to, it stays as it ended: its budget of 600 steps, not played again (a second
  // play() raised the budget to 1100 and trained on: "step 600 / 1100").
  await scrollTo(page, '#perm');
  await until(
    page,
    () => window.coursePage.widgets.inView.get('perm') === true,
    'the permutation widget back on screen',
  );
  const again = await page.evaluate(() => {
    const w = /** @type {any} */ (document.getElementById('perm'));
    const d = w.shadowRoot.querySelector('.apd-permutation').dataset;
    return { wantPlay: w.demo.wantPlay, budget: d.budget, playing: d.playing };
  });
  assert.deepEqual(
    again,
    { wantPlay: false, budget: '600', playing: 'false' },
    'the finished demo is not played again',
  );
  await scrollTo(page, '#order-check');

  // The check's widget: without positions at chance; the prose's live numbers are its own.
  await page.evaluate(() => {
    window.__last = null;
    document.getElementById('order-check').addEventListener('step', (e) => (window.__last = e.detail));
  });
  // It waits for the reader's prediction, which starts it.
  await predict(page, 'order', 'fail', 'position = none');
  const atChance = await until(
    page,
    () => {
      const m = window.__last;
      const shown = [...document.querySelectorAll('output[data-fact="order-check"]')].map((o) => o.value);
      return { ok: m && m.step >= 300 && m.evalAccuracy != null, m, shown };
    },
    'the check model trains 300 steps without positions',
    { timeout: WAIT.training },
  );
  assert.ok(atChance.m.evalAccuracy < 0.7, `none is at chance on order (${atChance.m.evalAccuracy})`);
  const facts = await page.evaluate(() => {
    const m = window.__last;
    const out = (k) => document.querySelector(`output[data-fact="order-check"][data-metric="${k}"]`).value;
    return {
      acc: out('evalAccuracy'),
      step: out('step'),
      want: [`${Math.round(100 * m.evalAccuracy)}%`, String(m.step)],
    };
  });
  assert.deepEqual([facts.acc, facts.step], facts.want, 'the lesson states the widget’s own accuracy and step');
  assert.notEqual(await page.evaluate(() => document.querySelector('aside[data-check]').dataset.passed), 'true');

  // The reader's turn: learned positions in the widget's menu, then its train button.
  const widget = page.locator('#order-check');
  await widget.locator('select#ctl-position').selectOption('learned');
  await until(
    page,
    () => document.getElementById('order-check').config?.position === 'learned',
    'a model with learned positions',
    { timeout: WAIT.training },
  );
  // Train it (the widget's own button toggles; the lesson's API call plays whatever it shows now).
  await page.evaluate(() => document.getElementById('order-check').play());
  const passed = await until(
    page,
    () => {
      const a = document.querySelector('aside[data-check]');
      return { ok: a.dataset.passed === 'true', text: a.textContent };
    },
    'the check passes with learned positions',
    { timeout: WAIT.training },
  );
  assert.match(passed.text, /Passed: position = learned reached \d+% held-out accuracy at step \d+/);
  // The sentence describes the model without positions: its number stays that model's (at chance),
  // not the learned model's that passed.
  const after = await page.evaluate(
    () => document.querySelector('output[data-fact="order-check"][data-metric="evalAccuracy"]').value,
  );
  assert.ok(parseInt(after, 10) < 70, `after the check the sentence still reads chance, not ${after}`);
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('attention-playground-course')));
  assert.equal(kept.lessons.order.check.passed, true);
  assert.ok(kept.lessons.order.check.accuracy >= 0.95 && kept.lessons.order.check.step <= 600);
  const place = kept.lessons.order.place;
  assert.ok(place > 0, 'the reader’s place (a section past the top) is kept');

  // A reload: the pass and the place are back, before any training.
  await page.reload();
  await until(page, () => document.body.dataset.ready === 'true', 'the lesson reloaded');
  const back = await page.evaluate(
    (k) => ({
      passed: document.querySelector('aside[data-check]').dataset.passed,
      top: document.getElementById(`s-${k}`).getBoundingClientRect().top,
    }),
    place,
  );
  assert.equal(back.passed, 'true', 'the check result survives a reload');
  assert.ok(Math.abs(back.top) < 40, `the page opens at the section the reader was in (its heading at ${back.top} px)`);

  // The index marks the lesson as passed and offers the way back.
  await page.goto(`${h.url}course/index.html`);
  await until(page, () => document.body.dataset.ready === 'true', 'the index');
  const index = await page.evaluate(() => ({
    mark: document.querySelector('[data-mark="order"]').dataset.passed,
    cont: document.querySelector('.course-continue a')?.getAttribute('href'),
    header: [...document.querySelectorAll('.demo-links a')].map((a) => a.textContent),
  }));
  assert.deepEqual(index, {
    mark: 'true',
    cont: './order.html',
    header: ['Playground', 'Permutation', 'Probe', 'Extrapolation', 'Experiments', 'Course'],
  });
  await shotFourWays(page, 'course-index-en');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('lesson 1 in Chinese: from the browser language, switched from the keyboard, remembered; widgets speak it', async () => {
  const { ctx, page, errors } = await openCourse('course/order.html', { locale: 'zh-CN' });
  const zh = await page.evaluate(() => ({
    lang: document.documentElement.lang,
    h1: document.querySelector('main h1').textContent,
    pressed: document.querySelector('.course-lang button[aria-pressed="true"]').dataset.lang,
  }));
  assert.deepEqual(zh, { lang: 'zh-Hans', h1: '注意力看不见顺序', pressed: 'zh' });
  await scrollTo(page, '#order-check');
  const labels = await until(
    page,
    () => {
      const r = document.getElementById('order-check').shadowRoot;
      const b = r?.querySelector('.ap-transport button');
      return { ok: Boolean(b?.textContent), play: b?.textContent, stats: r?.querySelector('.ap-stats')?.textContent };
    },
    'the check widget built',
    { timeout: WAIT.training },
  );
  assert.match(labels.play, /^(训练|暂停)$/, 'the widget’s button in Chinese');
  assert.match(labels.stats, /步数.*损失.*准确率/);
  await predict(page, 'order', 'fail', 'position = none'); // it waits for the reader's prediction
  await until(
    page,
    () => /^\d+%$/.test(document.querySelector('output[data-fact="order-check"]').value),
    'a live number',
  );
  await until(
    page,
    () => document.querySelector('aside[data-check] .check-status')?.textContent.startsWith('当前'),
    'the check in Chinese',
  );

  // From the keyboard: focus the English button and press Enter; the choice is remembered.
  await page.focus('.course-lang button[data-lang="en"]');
  await page.keyboard.press('Enter');
  await until(page, () => document.documentElement.lang === 'en', 'the page in English');
  assert.equal(await page.evaluate(() => document.querySelector('main h1').textContent), 'Attention cannot see order');
  await page.reload();
  await until(page, () => document.body.dataset.ready === 'true', 'reloaded');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en', 'the chosen language is remembered');
  await page.click('.course-lang button[data-lang="zh"]');
  await until(page, () => document.documentElement.lang === 'zh-Hans', 'back to Chinese');
  await shotFourWays(page, 'course-order-zh');
  await page.click('.course-lang button[data-lang="en"]');
  await until(page, () => document.documentElement.lang === 'en', 'English for the screenshots');
  await shotFourWays(page, 'course-order-en');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('lesson 1: a widget the reader scrolls to slowly trains (played while it was still being built)', async () => {
  const { ctx, page, errors } = await openCourse('course/order.html');
  // The permutation demo's module is held on its way: the widget has read its settings and waits.
  let held = null;
  await page.route('**/demos/permutation/index.js*', (route) => {
    held = route;
  });
  // A sliver of the widget on screen: it starts building (its own observer), the lesson does not
  // play it yet (a quarter must be in view). The text above it is laid out as it nears the window
  // (content-visibility: auto), which moves the widget: scroll again until the sliver holds.
  await until(
    page,
    () => {
      const rect = document.getElementById('perm').getBoundingClientRect();
      const off = rect.top - (window.innerHeight - 80);
      if (Math.abs(off) > 4) window.scrollBy(0, off);
      return { ok: Math.abs(off) <= 4, top: Math.round(rect.top) };
    },
    'the widget 80 px into the window from below',
  );
  await until(null, () => held !== null, 'the widget loading its demo', { timeout: WAIT.training });
  assert.notEqual(await page.evaluate(() => window.coursePage.widgets.inView.get('perm')), true);
  // Now the reader scrolls on: the lesson plays it while it is still being built.
  await scrollTo(page, '#perm');
  await until(page, () => window.coursePage.widgets.inView.get('perm') === true, 'the lesson sees the widget');
  await held.continue();
  await until(
    page,
    () => {
      const d = document.getElementById('perm').shadowRoot?.querySelector('.apd-permutation')?.dataset;
      return { ok: d?.playing === 'true' || Boolean(d?.outcomeNone), playing: d?.playing, step: d?.checkStep };
    },
    'the permutation widget trains once built (the play() made while it was built is kept)',
    { timeout: WAIT.training },
  );
  assert.deepEqual(errors, []);
  await ctx.close();
});
