// Moving around the page never costs the run: "Skip to the charts" (a fragment that names an
// element) only moves focus, and the settings, step and model stay as they were; a field reached
// by keyboard (Tab and Shift+Tab through all the settings, at 1280 and 375 px) is never under the
// sticky toolbar. Screenshots in test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, shot, ready } from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const counter = async (page) => Number(await page.locator('#step-counter').textContent());
const focusedId = (page) => page.evaluate(() => document.activeElement?.id ?? '');

test(
  '"Skip to the charts" mid-run moves focus to the charts and leaves the run as it was',
  { timeout: 120000 },
  async () => {
    const { page, errors } = await openPage(
      h.browser,
      `${h.url}#task=copy&position=rope&lr=0.002&steps=1000000&seed=7`,
    );
    await ready(page);
    const model = await page.evaluate(() => {
      window.firstModel = window.playground.model;
      return window.playground.model.sid;
    });
    await page.click('#play');
    await page.waitForFunction(() => Number(document.getElementById('step-counter').textContent) >= 20, null, {
      timeout: 60000,
    });
    const before = await counter(page);
    // As a keyboard user: the skip link (the page's first stop) focused, Enter follows it.
    await page.evaluate(() => scrollTo(0, 0));
    await page.focus('.skip-link');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to the charts');
    await page.keyboard.press('Enter');
    await page
      .waitForFunction(() => document.activeElement?.id === 'charts-panel', null, { timeout: 5000 })
      .catch(() => assert.fail('focus did not move to the charts panel'));
    // The run trains on from where it was: the same model, past the step it had, same settings.
    await page
      .waitForFunction((s) => Number(document.getElementById('step-counter').textContent) > s + 10, before, {
        timeout: 30000,
      })
      .catch(async () => assert.fail(`the run did not train on from step ${before} (now ${await counter(page)})`));
    assert.equal(
      await page.evaluate(() => window.playground.model === window.firstModel),
      true,
      'the same model (nothing rebuilt)',
    );
    assert.equal(await page.evaluate(() => window.playground.model.sid), model);
    assert.equal(await page.inputValue('#ctl-position'), 'rope');
    assert.equal(await page.inputValue('#ctl-lr'), '0.002');
    const hash = await page.evaluate(() => location.hash);
    assert.match(hash, /position=rope/);
    assert.match(hash, /lr=0.002/);
    assert.doesNotMatch(hash, /charts-panel/, 'the address keeps the settings');
    assert.equal(await page.locator('#notice').isHidden(), true, 'nothing was "ignored from the link"');
    // The charts' heading is in view below the sticky toolbar.
    const { top, bar } = await page.evaluate(() => ({
      top: document.getElementById('charts-panel').getBoundingClientRect().top,
      bar: document.querySelector('.toolbar').getBoundingClientRect().bottom,
    }));
    assert.ok(top >= bar, `the charts panel (top ${top}) is below the toolbar (bottom ${bar})`);
    await page.click('#play');
    await page.waitForFunction(() => document.getElementById('play').textContent === 'Play', null, { timeout: 30000 });
    assert.ok((await counter(page)) > before);
    await shot(page, 'skip-link-charts');
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test('a link that names only a part of the page opens the default setup there, without complaint', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}#charts-panel`);
  await ready(page);
  assert.equal(await focusedId(page), 'charts-panel');
  assert.equal(await page.locator('#notice').isHidden(), true);
  assert.match(await page.evaluate(() => location.hash), /^#task=/);
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Tab (or Shift+Tab) through every settings field; for each the focused element's box and the
 * toolbar's. Starts at the first (or last) field.
 */
async function walk(page, backwards) {
  await page.evaluate((back) => {
    scrollTo(0, back ? document.documentElement.scrollHeight : 0);
    const all = [...document.querySelectorAll('#controls :is(input, select, textarea, button, summary)')];
    if (back) all.reverse();
    all.find((e) => {
      e.focus();
      return document.activeElement === e;
    }); // the first (last) that takes focus
  }, backwards);
  const seen = [];
  for (let i = 0; i < 200; i++) {
    const r = await page.evaluate(() => {
      const e = document.activeElement;
      if (!e || !document.getElementById('controls').contains(e)) return null;
      const box = e.getBoundingClientRect();
      const bar = document.querySelector('.toolbar').getBoundingClientRect();
      return {
        id: e.id || e.getAttribute('name') || e.textContent,
        top: box.top,
        bottom: box.bottom,
        barTop: bar.top,
        barBottom: bar.bottom,
        height: innerHeight,
      };
    });
    if (!r) break;
    seen.push(r);
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  return seen;
}

// Both widths walk one page (Tab moves only the focus): the window narrows as a reader's does. It
// closes with the browser.
/** @type {Promise<{page: import('playwright-core').Page, errors: string[]}> | undefined} */
let walked;

for (const width of [1280, 375]) {
  test(
    `at ${width} px, Tab and Shift+Tab through the settings never leave a field under the toolbar`,
    { timeout: 120000 },
    async () => {
      walked ??= openPage(h.browser, `${h.url}#task=copy&position=rope&seed=1`, { width, height: 700 }).then(
        async (o) => {
          await ready(o.page);
          return o;
        },
      );
      const { page, errors } = await walked;
      await page.setViewportSize({ width, height: 700 });
      if (await page.locator('#controls').isHidden()) await page.click('#controls-toggle'); // collapsed on a phone
      for (const backwards of [false, true]) {
        const seen = await walk(page, backwards);
        assert.ok(seen.length >= 15, `${backwards ? 'Shift+Tab' : 'Tab'} reached ${seen.length} fields`);
        const hidden = seen.filter(
          (f) => (f.top < f.barBottom && f.bottom > f.barTop) || f.bottom > f.height + 1 || f.top < 0,
        );
        assert.deepEqual(
          hidden.map(
            (f) =>
              `${f.id} (${Math.round(f.top)}..${Math.round(f.bottom)}, toolbar ${Math.round(f.barTop)}..${Math.round(f.barBottom)})`,
          ),
          [],
          `${width} px, ${backwards ? 'Shift+Tab' : 'Tab'}: fields under the toolbar or out of view`,
        );
      }
      assert.deepEqual(errors, []);
    },
  );
}
