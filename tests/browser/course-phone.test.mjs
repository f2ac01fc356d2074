// Every lesson of the course read on a phone (375 × 667), in English and in Chinese, as a reader
// goes through it: scrolled down a screen at a time (four fifths of the window), the reader stops
// at each widget the lesson has started (enough of it in view: lesson-widgets.js seenEnough) until
// it has trained, then reads on; at a check's widget, which waits for a prediction, the reader
// makes one, which starts it. At the end every widget has trained and every live number of the
// prose (<output data-fact>) holds a number; no widget is taller than three screens (ALiBi's eight
// bias maps, one under the other, once took 3450 px: the positions panel now shows one head at a
// time, picked, in a narrow widget: picking head 3 shows its map alone); the page is no wider than
// the window.
//
// "Trained" is, by default, past MIN_STEPS steps with every live number of the widget filled, so
// that the twelve pages take about three minutes on two busy cores; ATTNPLAY_COURSE_FULL=1 waits
// instead for each widget's whole budget (its `trained` event; the permutation demo's outcome),
// which takes several times as long. The lessons' own tests (course-*.test.mjs) check the numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until, WAIT } from './harness.mjs';
import { LESSONS } from '../../web/src/pages/course/pages.mjs';

const WIDTH = 375;
const HEIGHT = 667;
const MIN_STEPS = 60;
const FULL = process.env.ATTNPLAY_COURSE_FULL === '1';

let h;
before(async () => {
  h = await startHarness();
});
after(() => h?.close());

/**
 * In the page: widget `id` has trained (as the header says) and its live numbers hold numbers.
 * @param {[string, number, boolean]} arg
 */
function widgetDone([id, minSteps, full]) {
  if (!(/** @type {any} */ (window).__reading)) return { ok: true, reloaded: true }; // read again from the top
  const w = /** @type {any} */ (document.getElementById(id));
  // The text above may still settle (its fonts, the widgets' reserved room): a reader whose widget
  // slid off the screen brings it back, its top at the top of the window.
  const r = w.getBoundingClientRect();
  const seen = Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0);
  if (seen < Math.min(0.25 * r.height, 0.5 * window.innerHeight) - 1) w.scrollIntoView({ block: 'start' });
  // A check's model waits for the reader's prediction (lesson-check.js): the reader makes one.
  const ask = document.querySelector(`aside[data-for="${id}"] .check-predict button[data-guess]`);
  if (ask && !w.currentStep) /** @type {HTMLButtonElement} */ (ask).click();
  const last = /** @type {any} */ (window).__last[id];
  const facts = [...document.querySelectorAll(`output[data-fact="${id}"]`)].map((o) => o.textContent);
  const filled = facts.every((f) => /\d/.test(f ?? ''));
  const step = w.currentStep;
  const demo = Boolean(w.demo);
  const outcome = w.shadowRoot?.querySelector('[data-outcome-none]');
  const trained = full
    ? demo
      ? Boolean(outcome?.dataset.outcomeNone && outcome?.dataset.outcomeEncoding)
      : last?.type === 'trained'
    : step >= minSteps || last?.type === 'trained';
  return {
    ok: trained && filled,
    step,
    type: last?.type,
    facts,
    status: w.status,
    started: /** @type {any} */ (window).coursePage.widgets.started.has(id),
    inView: /** @type {any} */ (window).coursePage.widgets.inView.get(id),
    top: Math.round(w.getBoundingClientRect().top),
    height: Math.round(w.getBoundingClientRect().height),
  };
}

/** In the page: the widgets the lesson would start on this screen (seenEnough), in order. */
function widgetsOnScreen() {
  const out = [];
  for (const w of document.querySelectorAll('main attention-playground')) {
    const r = w.getBoundingClientRect();
    const seen = Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0);
    if (seen > 0 && seen >= Math.min(0.25 * r.height, 0.5 * window.innerHeight) - 1) out.push(w.id);
  }
  return out;
}

for (const lang of ['en', 'zh']) {
  for (const { slug, n } of LESSONS) {
    test(`lesson ${n} (${slug}) in ${lang} on a ${WIDTH} px phone: every widget trains as it is read and every live number is filled`, async () => {
      const ctx = await h.browser.newContext({
        viewport: { width: WIDTH, height: HEIGHT },
        locale: lang === 'zh' ? 'zh-CN' : 'en-US',
      });
      const page = await ctx.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
      // Every widget's latest `step`/`trained` detail, from the page's start (also after a reload).
      await page.addInitScript(() => {
        const last = /** @type {Record<string, unknown>} */ ({});
        /** @type {any} */ (window).__last = last;
        for (const type of ['step', 'trained'])
          document.addEventListener(type, (e) => {
            const t = /** @type {any} */ (e.target);
            last[t.id] = { .../** @type {CustomEvent} */ (e).detail, type };
          });
      });
      await page.goto(`${h.url}course/${slug}.html`);
      /** The page ready, marked as the one being read (a cold dev server may reload it once, as it optimizes a dependency). */
      const ready = async () => {
        await until(page, () => document.body.dataset.ready === 'true', `lesson ${n} ready`);
        await page.evaluate(() => /** @type {any} */ (window.__reading = true));
      };
      await ready();
      assert.ok(
        (await page.evaluate(() => document.documentElement.lang)).startsWith(lang),
        'the page speaks the language',
      );
      const ids = await page.evaluate(() =>
        [...document.querySelectorAll('main attention-playground')].map((w) => w.id),
      );
      assert.ok(ids.length > 0, 'the lesson has widgets');

      // Read down the page a screen at a time; stop at each widget on screen until it has trained.
      const done = new Set();
      for (let y = 0, screens = 0, reloads = 0; ; y += Math.round(0.8 * HEIGHT), screens++) {
        assert.ok(screens < 400, 'the page ends');
        const at = await page
          .evaluate((top) => {
            window.scrollTo({ top, behavior: 'instant' });
            const reading = Boolean(/** @type {any} */ (window).__reading);
            return { y: window.scrollY, end: document.documentElement.scrollHeight - window.innerHeight, reading };
          }, y)
          .catch(() => ({ y: 0, end: 0, reading: false })); // navigating: reloaded
        if (!at.reading) {
          // The dev server reloaded the page: read it again from the top.
          assert.ok(++reloads <= 2, `lesson ${n} (${lang}): the page keeps reloading`);
          await ready();
          done.clear();
          y = -Math.round(0.8 * HEIGHT);
          continue;
        }
        for (const id of await page.evaluate(widgetsOnScreen).catch(() => [])) {
          if (done.has(id)) continue;
          const seen = await until(
            page,
            widgetDone,
            `lesson ${n} (${lang}): widget ${id}, on screen at ${at.y} px, trains${FULL ? ' its budget' : ` past ${MIN_STEPS} steps`} and fills its live numbers`,
            { arg: [id, MIN_STEPS, FULL], timeout: WAIT.training * (FULL ? 2 : 1), every: 200 },
          );
          if (!seen.reloaded) done.add(id);
        }
        y = await page.evaluate(() => window.scrollY).catch(() => y); // where the reader is now (brought back to a widget)
        if (at.y >= at.end - 1) break;
      }
      assert.deepEqual(
        ids.filter((id) => !done.has(id)),
        [],
        `lesson ${n} (${lang}): every widget was on screen and trained as the page was read`,
      );

      // At the end: every live number holds a number; no widget taller than three screens; nothing wider than the window.
      const end = await page.evaluate(() => ({
        empty: [...document.querySelectorAll('main output[data-fact]')]
          .filter((o) => !/\d/.test(o.textContent ?? ''))
          .map(
            (o) => `${/** @type {HTMLElement} */ (o).dataset.fact}.${/** @type {HTMLElement} */ (o).dataset.metric}`,
          ),
        tall: [...document.querySelectorAll('main attention-playground')].map((w) => [
          w.id,
          Math.round(w.getBoundingClientRect().height),
        ]),
        wide: document.documentElement.scrollWidth,
      }));
      assert.deepEqual(end.empty, [], `lesson ${n} (${lang}): the live numbers left without a number`);
      for (const [id, px] of end.tall)
        assert.ok(
          px <= 3 * HEIGHT,
          `lesson ${n} (${lang}): widget ${id} is ${px} px tall at ${WIDTH} px, more than three screens (${3 * HEIGHT} px)`,
        );
      assert.ok(end.wide <= WIDTH, `lesson ${n} (${lang}): the page is ${end.wide} px wide at ${WIDTH} px`);
      // A map per head (lesson 3's ALiBi) shows one head at a time here: the picker shows another.
      if (ids.includes('alibi')) {
        const alibi = page.locator('#alibi');
        await alibi.locator('.pos-pick button', { hasText: '3' }).click();
        const heads = await until(
          page,
          () => {
            const cells = [...document.getElementById('alibi').shadowRoot.querySelectorAll('.pos-heads > .pos-head')];
            const shown = cells
              .filter((c) => c.getBoundingClientRect().height > 0)
              .map((c) => /** @type {HTMLElement} */ (c).dataset.head);
            return { ok: shown.length === 1 && shown[0] === '2', shown, cells: cells.length };
          },
          `lesson ${n} (${lang}): the ALiBi widget shows head 3 alone once picked`,
        );
        assert.equal(heads.cells, 8, 'the ALiBi widget has a map for each of its 8 heads');
      }
      assert.deepEqual(errors, []);
      await ctx.close();
    });
  }
}
