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

/**
 * No empty band under the built widgets `ids`: at each width, the room each holds (reserve.js,
 * the card's min-height) is its content's height to `max` px. (On the course's pages, whose root
 * font size is 15 px, 14 px under 800 px, the widget's rem-sized text once shrank under it: ALiBi
 * held 3450 px for 3298 at 375 px.) Leaves the page at 1280 px.
 */
export async function assertRoomHeld(page, ids, widths = [1280, 375], max = 40) {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    const rooms = await until(
      page,
      ([w, list]) => {
        const seen = list.map((id) => {
          const card = document.getElementById(id).shadowRoot.querySelector('.ap');
          const held = card.getBoundingClientRect().height;
          const min = card.style.minHeight;
          card.style.minHeight = '';
          const content = card.getBoundingClientRect().height;
          card.style.minHeight = min;
          return { id, held: Math.round(held), content: Math.round(content) };
        });
        return { ok: window.innerWidth === w, seen };
      },
      `the widgets at ${width} px`,
      { arg: [width, ids] },
    );
    for (const r of rooms.seen)
      assert.ok(r.held - r.content <= max, `${r.id} at ${width} px holds ${r.held} px for ${r.content} px of content`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * As a reader before a check's model trains: wait for its prediction prompt (the current model's
 * setting named in it), answer it (which plays the model), and return the prompt's text.
 * @param {import('playwright-core').Page} page @param {string} check the aside's data-check
 * @param {'pass'|'fail'} guess @param {string} setting a part of the setting the prompt must name
 */
export async function predict(page, check, guess, setting) {
  const asked = await until(
    page,
    ([c, s]) => {
      const box = document.querySelector(`aside[data-check="${c}"] .check-predict`);
      const text = box?.textContent ?? '';
      return { ok: Boolean(box?.querySelector('button')) && text.includes(s), text };
    },
    `the check "${check}" asks for a prediction on ${setting}`,
    { arg: [check, setting], timeout: WAIT.training },
  );
  await page.locator(`aside[data-check="${check}"] .check-predict button[data-guess="${guess}"]`).click();
  return asked.text;
}

/**
 * The check's log once it holds `n` models, newest first: each one's outcome, prediction and text.
 * @param {import('playwright-core').Page} page @param {string} check @param {number} n
 */
export async function checkLog(page, check, n) {
  const log = await until(
    page,
    ([c, k]) => {
      const items = [...document.querySelectorAll(`aside[data-check="${c}"] .check-log li`)].map((li) => ({
        outcome: /** @type {HTMLElement} */ (li).dataset.outcome,
        prediction: /** @type {HTMLElement} */ (li).dataset.prediction,
        text: li.textContent,
      }));
      return { ok: items.length >= k, items };
    },
    `the check "${check}" logs ${n} models`,
    { arg: [check, n], timeout: WAIT.training },
  );
  return log.items;
}
