// Lesson 6 of the course, "What the big comparison says" (course/comparison.html), as a reader goes
// through it: scrolled into view, the two language models (RoPE, the bundled text, 300 steps) train
// and softmax ends ahead of the performer on held-out accuracy and loss, as the committed
// tdlm-performer experiment found, from the widgets' own numbers, which the lesson states; the
// committed numbers and verdicts of the other experiments are in the text; the check (a passing row
// of the probe grid) passes with ℓ2. Screenshots: test-results/course-comparison-{en,zh}-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until, shotFourWays, WAIT } from './harness.mjs';
import { openLesson, trainedWidget, assertFacts } from './course-fixtures.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(() => h?.close());

test('lesson 6: softmax ends ahead of the performer; a passing probe row re-run in the page passes the check', async () => {
  const { ctx, page, errors } = await openLesson(h, 'course/comparison.html', 'en-US');
  assert.ok((await page.locator('main .exp-fact').count()) >= 20, 'the committed numbers are in the text');
  const soft = await trainedWidget(page, 'lm-softmax');
  const perf = await trainedWidget(page, 'lm-performer');
  assert.ok(
    soft.m.evalAccuracy > perf.m.evalAccuracy,
    `softmax ahead of the performer on held-out accuracy (${soft.m.evalAccuracy} against ${perf.m.evalAccuracy})`,
  );
  assert.ok(soft.m.loss < perf.m.loss, `and on training loss (${soft.m.loss} against ${perf.m.loss})`);
  assertFacts(soft, 'lm-softmax');
  assertFacts(perf, 'lm-performer');

  await page.evaluate(() => document.getElementById('comparison-check').scrollIntoView({ block: 'start' }));
  await until(
    page,
    () => document.getElementById('comparison-check').config?.normalization === 'softmax',
    'the check model built',
    {
      timeout: WAIT.training,
    },
  );
  await page.locator('#comparison-check select#ctl-normalization').selectOption('l2');
  await until(page, () => document.getElementById('comparison-check').config?.normalization === 'l2', 'an ℓ2 model', {
    timeout: WAIT.training,
  });
  await page.evaluate(() => document.getElementById('comparison-check').play());
  const passed = await until(
    page,
    () => {
      const a = document.querySelector('aside[data-check="comparison"]');
      return { ok: a.dataset.passed === 'true', text: a.textContent };
    },
    'the check passes with ℓ2',
    { timeout: WAIT.training },
  );
  assert.match(passed.text, /Passed: normalization = l2 reached \d+% held-out accuracy/);
  await shotFourWays(page, 'course-comparison-en');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('lesson 6 in Chinese: the text and the verdicts in 中文', async () => {
  const { ctx, page, errors } = await openLesson(h, 'course/comparison.html', 'zh-CN');
  const zh = await page.evaluate(() => ({
    h1: document.querySelector('main h1').textContent,
    verdicts: [...document.querySelectorAll('main .exp-fact')].map((e) => e.textContent).join(' '),
  }));
  assert.equal(zh.h1, '大比较说明了什么');
  assert.match(zh.verdicts, /成立/);
  assert.match(zh.verdicts, /在噪声范围内/);
  await shotFourWays(page, 'course-comparison-zh');
  assert.deepEqual(errors, []);
  await ctx.close();
});
