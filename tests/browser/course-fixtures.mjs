// What the course's browser tests share (course-absolute, course-relative): a lesson opened in a
// browser context of its own with its widgets' events recorded, a widget trained to its steps, and
// the check that the lesson's live numbers are the widget's own.
import assert from 'node:assert/strict';
import { until, WAIT } from './harness.mjs';

/**
 * The lesson at `path` in a browser context of its own (locale: the browser's language); every
 * widget's latest `step`/`trained` detail in window.__last.
 * @param {{url: string, browser: import('playwright-core').Browser}} h the harness
 */
export async function openLesson(h, path, locale) {
  const ctx = await h.browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  await page.goto(`${h.url}${path}`);
  await until(page, () => document.body.dataset.ready === 'true', 'the lesson ready');
  await page.evaluate(() => {
    window.__last = {};
    for (const type of ['step', 'trained'])
      document.addEventListener(type, (e) => (window.__last[e.target.id] = { ...e.detail, type }));
  });
  return { ctx, page, errors };
}

/** Scroll to widget `id` and wait for its `trained` event (its steps done); its numbers and the lesson's. */
export async function trainedWidget(page, id) {
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
export function assertFacts({ m, facts }, id) {
  const shown = { pct: (v) => `${Math.round(100 * v)}%`, int: (v) => String(Math.round(v)) };
  for (const [metric, value] of facts)
    assert.equal(value, (metric === 'step' ? shown.int : shown.pct)(m[metric]), `${id}: the lesson's ${metric}`);
}

/**
 * Widget `id`, trained to its steps, scrolled off screen and back (the lesson's observer sees it
 * leave and come back): it stays at `step` and does not play again (a second play() trained on
 * without limit: step 613 of 600 in lesson 5's text).
 */
export async function staysTrained(page, id, step) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await until(page, (i) => window.coursePage.widgets.inView.get(i) === false, `${id} off screen`, { arg: id });
  await page.evaluate((i) => document.getElementById(i).scrollIntoView({ block: 'start' }), id);
  await until(page, (i) => window.coursePage.widgets.inView.get(i) === true, `${id} back on screen`, { arg: id });
  // play() relabels the widget's button at once (Pause): read in the same task as the observer's call.
  const back = await page.evaluate((i) => {
    const w = /** @type {any} */ (document.getElementById(i));
    return { step: w.currentStep, button: w.shadowRoot.querySelector('.ap-transport button').textContent };
  }, id);
  assert.deepEqual(back, { step, button: 'Play' }, `${id}, scrolled back to, stays at its ${step} steps`);
}
