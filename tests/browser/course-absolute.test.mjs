// Lesson 2 of the course, "Absolute positions" (course/absolute.html), as a reader goes through it:
// scrolled into view, the learned-positions widget learns copy_back and is never evaluated at twice
// its length (its table ends at the training length); the sinusoidal widget learns copy_back and
// loses much of it at twice the length; the lesson's live numbers are those widgets' own; the
// check refuses a relative encoding and passes with learned positions, judged from the engine's
// held-out accuracy. Screenshots: test-results/course-absolute-{en,zh}-{1280,375}-{light,dark}.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until, shotFourWays, WAIT } from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(() => h?.close());

/** The lesson in a browser context of its own; every widget's latest `step`/`trained` detail in window.__last. */
async function openLesson(locale) {
  const ctx = await h.browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  await page.goto(`${h.url}course/absolute.html`);
  await until(page, () => document.body.dataset.ready === 'true', 'the lesson ready');
  await page.evaluate(() => {
    window.__last = {};
    for (const type of ['step', 'trained'])
      document.addEventListener(type, (e) => (window.__last[e.target.id] = { ...e.detail, type }));
  });
  return { ctx, page, errors };
}

/** Scroll to widget `id` and wait for its `trained` event (its steps done); its numbers and the lesson's. */
async function trainedWidget(page, id) {
  await page.evaluate((i) => document.getElementById(i).scrollIntoView({ block: 'start' }), id);
  return until(
    page,
    (i) => {
      const m = window.__last[i];
      const facts = [...document.querySelectorAll(`output[data-fact="${i}"]`)].map((o) => [o.dataset.metric, o.value]);
      return { ok: m?.type === 'trained', m, facts };
    },
    `the ${id} widget trains its steps`,
    { arg: id, timeout: WAIT.training },
  );
}

/** The lesson's outputs must be the widget's numbers as the lesson writes them. */
function assertFacts({ m, facts }, id) {
  const shown = { pct: (v) => `${Math.round(100 * v)}%`, int: (v) => String(Math.round(v)) };
  for (const [metric, value] of facts)
    assert.equal(value, (metric === 'step' ? shown.int : shown.pct)(m[metric]), `${id}: the lesson's ${metric}`);
}

test('lesson 2: learned positions end at their table, sinusoids go on but lose the task; the check wants an absolute encoding', async () => {
  const { ctx, page, errors } = await openLesson('en-US');
  const learned = await trainedWidget(page, 'learned');
  assert.ok(learned.m.evalAccuracy >= 0.95, `learned positions learn copy_back (${learned.m.evalAccuracy})`);
  assert.equal(learned.m.longAccuracy, null, 'learned positions are never evaluated past their table');
  assertFacts(learned, 'learned');

  const sin = await trainedWidget(page, 'sinusoidal');
  assert.ok(sin.m.evalAccuracy >= 0.95, `sinusoids learn copy_back (${sin.m.evalAccuracy})`);
  assert.ok(
    sin.m.longAccuracy !== null && sin.m.longAccuracy < sin.m.evalAccuracy - 0.15,
    `at twice the length sinusoids lose much of it (${sin.m.longAccuracy} against ${sin.m.evalAccuracy})`,
  );
  assertFacts(sin, 'sinusoidal');

  // The check: a relative encoding is refused, learned positions pass.
  await page.evaluate(() => document.getElementById('absolute-check').scrollIntoView({ block: 'start' }));
  const widget = page.locator('#absolute-check');
  await widget.locator('select#ctl-position').selectOption('rope');
  await until(page, () => document.getElementById('absolute-check').config?.position === 'rope', 'a RoPE model', {
    timeout: WAIT.training,
  });
  await page.evaluate(() => document.getElementById('absolute-check').play());
  const refused = () =>
    document.querySelector('aside[data-check="absolute"] .check-status')?.dataset.state === 'allowed';
  await until(page, refused, 'the check refuses RoPE, asking for an absolute encoding', {
    timeout: WAIT.training,
  });
  await widget.locator('select#ctl-position').selectOption('learned');
  await until(page, () => document.getElementById('absolute-check').config?.position === 'learned', 'a learned model', {
    timeout: WAIT.training,
  });
  await page.evaluate(() => document.getElementById('absolute-check').play());
  const passed = await until(
    page,
    () => {
      const a = document.querySelector('aside[data-check="absolute"]');
      return { ok: a.dataset.passed === 'true', text: a.textContent };
    },
    'the check passes with learned positions',
    { timeout: WAIT.training },
  );
  assert.match(passed.text, /Passed: position = learned, placement = (embed|layerwise) reached \d+% held-out accuracy/);
  await shotFourWays(page, 'course-absolute-en');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('lesson 2 in Chinese: the text and the position panel in 中文', async () => {
  const { ctx, page, errors } = await openLesson('zh-CN');
  assert.equal(await page.evaluate(() => document.querySelector('main h1').textContent), '绝对位置');
  await page.evaluate(() => document.getElementById('sinusoidal').scrollIntoView({ block: 'start' }));
  const panel = await until(
    page,
    () => {
      const r = document.getElementById('sinusoidal').shadowRoot;
      const caption = r?.querySelector('.positions-body figcaption')?.textContent ?? '';
      return {
        ok: caption.length > 0,
        caption,
        title: r?.querySelector('.ap-panel[data-view="positions"] h3')?.textContent,
      };
    },
    'the position panel drawn',
    { timeout: WAIT.training },
  );
  assert.equal(panel.title, '位置编码');
  assert.match(panel.caption, /编码本身/);
  await shotFourWays(page, 'course-absolute-zh');
  assert.deepEqual(errors, []);
  await ctx.close();
});
