// The custom task in the playground, as a person meets it: pasted "input -> output" pairs become
// the model's task (its vocabulary is the pairs' tokens) and it learns them, held-out pairs too;
// a line that contradicts another is named in the field's error mark and the trained model stays
// as it was; an uploaded .txt file of pairs becomes the task; a set too long for the link is
// said so and kept out of it. Screenshots of the task settings at 1280 and 375 px, light and dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startHarness, openPlayground, ready, RESULTS } from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

/** Every ordered triple of the digits 1..5, sorted: 125 pairs, "3 1 2 -> 1 2 3" (short enough for a link). */
const sortPairs = () => {
  const lines = [];
  for (let a = 1; a < 6; a++)
    for (let b = 1; b < 6; b++)
      for (let c = 1; c < 6; c++) lines.push(`${a} ${b} ${c} -> ${[a, b, c].sort().join(' ')}`);
  return lines.join('\n');
};

/** The task settings, four ways (the textarea and its note must fit a phone). */
async function shots(page, name) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    if (await page.locator('#controls-toggle[aria-expanded="false"]').count()) await page.click('#controls-toggle');
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      const m = await page.evaluate(() => {
        scrollTo(0, 0);
        const top = document.querySelector('.controls-panel').getBoundingClientRect();
        const end = document.querySelector('details[data-group="task"]').getBoundingClientRect();
        const area = document.getElementById('ctl-custom_pairs').getBoundingClientRect();
        return {
          box: { x: top.left + scrollX, y: top.top + scrollY, width: top.width, height: end.bottom - top.top + 8 },
          wide: document.documentElement.scrollWidth,
          areaRight: area.right,
        };
      });
      assert.ok(m.wide <= width, `the page is ${m.wide} px wide at ${width} px`);
      assert.ok(m.areaRight <= width, `the pairs' textarea ends at ${m.areaRight} px, past ${width} px`);
      await page.screenshot({
        path: resolve(RESULTS, `${name}-${width}-${colorScheme}.png`),
        fullPage: true,
        clip: m.box,
      });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

const config = (page) =>
  page.evaluate(() => ({ ...window.playground.model.info.config, vocab_tokens: window.playground.model.info.vocab }));

test('pasted pairs become the task, and the model learns them, held-out pairs too', async () => {
  const { page, errors } = await openPlayground(h, '#task=custom&steps=600');
  const area = page.locator('#ctl-custom_pairs');
  await area.fill(sortPairs());
  await area.press('Tab');
  await page.waitForFunction(
    () => (window.playground.model?.info.config.custom_pairs ?? '').split('\n').length === 125,
    null,
    { timeout: 30000 },
  );
  await ready(page);
  assert.equal(await page.locator('.pairs-note').textContent(), '125 lines.');
  const c = await config(page);
  for (const d of ['1', '2', '3', '4', '5'])
    assert.ok(c.vocab_tokens.includes(d), `the vocabulary holds ${d}: ${c.vocab_tokens}`);
  assert.ok(
    !c.vocab_tokens.includes('0') && !c.vocab_tokens.includes('6'),
    'and no digit the pairs do not use (the built-in set has 0)',
  );
  const before = await page.evaluate(() => window.playground.model.evaluate());
  await page.click('#play');
  await page.waitForFunction(
    () =>
      document.getElementById('play').textContent === 'Play' &&
      Number(document.getElementById('step-counter').textContent) >= 600,
    null,
    { timeout: 120000 },
  );
  const after = await page.evaluate(() => window.playground.model.evaluate());
  assert.ok(after.loss < before.loss - 1, `the held-out loss fell: ${before.loss} -> ${after.loss}`);
  assert.ok(
    after.token_accuracy >= 0.9,
    `held-out pairs (never trained on) are sorted: token accuracy ${after.token_accuracy}`,
  );
  assert.match(await page.evaluate(() => location.hash), /custom_pairs=/, 'a set this short is in the link');
  await shots(page, 'custom-task');
  assert.deepEqual(errors, []);
});

test('a contradicting line is named, and the trained model stays as it was', async () => {
  const { page, errors } = await openPlayground(
    h,
    `#task=custom&steps=40&custom_pairs=${encodeURIComponent('1 2 -> 2 1\n2 1 -> 1 2\n3 1 -> 1 3\n1 3 -> 3 1')}`,
  );
  await page.click('#play');
  await page.waitForFunction(
    () =>
      document.getElementById('play').textContent === 'Play' &&
      Number(document.getElementById('step-counter').textContent) >= 40,
    null,
    { timeout: 60000 },
  );
  const area = page.locator('#ctl-custom_pairs');
  await area.fill('1 2 -> 2 1\n2 1 -> 1 2\n1 2 -> 1 2');
  await area.press('Tab');
  const mark = page.locator('#err-custom_pairs');
  await mark.waitFor({ state: 'visible' });
  assert.match(await mark.textContent(), /line 3: the input '1 2' is on line 1 with another output/);
  // Issue 33 item 10: the line comes first and the field's text is not echoed (no literal \n).
  const said = await mark.textContent();
  assert.match(said, /^(custom_pairs: )?line 3: /, said);
  assert.doesNotMatch(said, /\\n/, said);
  assert.equal(await area.getAttribute('aria-invalid'), '');
  // Said once (issue 33, item 10): beside the field, announced and describing it, and nowhere else.
  assert.equal(await mark.getAttribute('role'), 'alert');
  assert.match((await area.getAttribute('aria-describedby')) ?? '', /\berr-custom_pairs\b/);
  const places = await page.evaluate(
    () =>
      [...document.querySelectorAll('body *')].filter(
        (e) =>
          e.checkVisibility() &&
          [...e.childNodes].some(
            (n) => n.nodeType === Node.TEXT_NODE && /is on line 1 with another output/.test(n.data),
          ),
      ).length,
  );
  assert.equal(places, 1, 'the message is on the page exactly once');
  assert.ok(await page.locator('#config-error').isHidden(), 'not repeated above the settings');
  assert.equal(await area.inputValue(), '1 2 -> 2 1\n2 1 -> 1 2\n1 2 -> 1 2', "the person's input is kept");
  // The settings cannot train, so the counters say '–' (no current run), but the model is kept.
  const kept = await page.evaluate(() => ({
    step: window.playground.run.step,
    pairs: window.playground.model.info.config.custom_pairs,
  }));
  assert.equal(kept.step, 40, 'the trained model is kept');
  assert.match(kept.pairs, /3 1 -> 1 3/, 'with its own pairs');
  await area.fill('1 2 -> 2 1');
  await area.press('Tab');
  await page.waitForFunction(() =>
    /at least 2 pairs/.test(document.getElementById('err-custom_pairs')?.textContent ?? ''),
  );
  assert.deepEqual(errors, []);
});

test('an uploaded file of pairs becomes the task; a long one stays out of the link', async () => {
  const { page, errors } = await openPlayground(h, '#task=custom');
  const dir = mkdtempSync(join(tmpdir(), 'ap-pairs-'));
  const lines = [];
  for (let i = 0; i < 400; i++) lines.push(`a${i % 20} b${(i * 7) % 20} c${i % 3} -> x${(3 * (i % 60)) % 11}`);
  const file = join(dir, 'pairs.txt');
  writeFileSync(file, `# my pairs\n${lines.join('\n')}\n`);
  await page.setInputFiles('.pairs-field input[type=file]', file);
  await page.waitForFunction(
    () => (window.playground.model?.info.config.custom_pairs ?? '').includes('a19 b13 c1 -> x'),
    null,
    { timeout: 30000 },
  );
  await ready(page);
  assert.match(await page.locator('.pairs-note').textContent(), /^400 lines\. Too long for the page's link/);
  assert.doesNotMatch(await page.evaluate(() => location.hash), /custom_pairs=/, 'a long set is not in the link');
  const c = await config(page);
  assert.ok(c.vocab_tokens.includes('x10') && c.vocab_tokens.includes('a19'), "the vocabulary is the file's tokens");
  writeFileSync(file, 'not a pair\n1 -> 2\n');
  await page.setInputFiles('.pairs-field input[type=file]', file);
  await page.locator('#err-custom_pairs').waitFor({ state: 'visible' });
  assert.match(await page.locator('#err-custom_pairs').textContent(), /line 1: no '->'/);
  assert.match(
    await page.evaluate(() => window.playground.model.info.config.custom_pairs),
    /a19 b13 c1/,
    'the model from the good file stays',
  );
  assert.deepEqual(errors, []);
});
