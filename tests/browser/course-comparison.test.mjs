// Lesson 6 of the course, "What the big comparison says" (course/comparison.html), as a reader goes
// through it: scrolled into view, the two language models (RoPE, the bundled text, 300 steps) train
// and softmax ends ahead of the performer on held-out accuracy and loss, as the committed
// tdlm-performer experiment found, from the widgets' own numbers, which the lesson states; the
// committed numbers and verdicts of the other experiments are in the text; the check (which tests
// of the committed table are Benjamini–Hochberg discoveries) fails the reading 'p below 5%' and
// passes the reading by q. Screenshots: test-results/course-comparison-{en,zh}-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, shotFourWays } from './harness.mjs';
import { openLesson, trainedWidget, assertFacts } from './course-fixtures.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(() => h?.close());

test('lesson 6: softmax ends ahead of the performer; the table read by p alone fails the check, read by Benjamini–Hochberg passes', async () => {
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

  // The check: read the committed table as Benjamini–Hochberg does. A reader who ticks every test
  // with p below 5% is told how many are read otherwise; the ticks of q below 5% pass, are kept and
  // come back after a reload.
  const quiz = page.locator('aside[data-quiz="bh"]');
  await quiz.scrollIntoViewIfNeeded();
  const items = await page.evaluate(() =>
    [...document.querySelectorAll('aside[data-quiz="bh"] li[data-k]')].map((li) => ({
      p: Number(li.dataset.p),
      q: Number(li.dataset.q),
    })),
  );
  assert.equal(items.length, 6);
  const tick = async (/** @type {(x: {p: number, q: number}) => boolean} */ rule) => {
    const boxes = quiz.locator('li[data-k] input[type="checkbox"]');
    for (let i = 0; i < items.length; i++) await boxes.nth(i).setChecked(rule(items[i]));
    await quiz.locator('button.quiz-submit').click();
    return quiz.locator('.quiz-status').textContent();
  };
  const naive = await tick((x) => x.p < 0.05);
  const traps = items.filter((x) => x.p < 0.05 && x.q >= 0.05).length;
  assert.ok(traps > 0, 'a shown test has p below 5% and is no discovery');
  assert.match(naive ?? '', new RegExp(`^${traps} of 6 read otherwise than Benjamini–Hochberg`));
  assert.equal(await quiz.locator('li[data-right="false"]').count(), traps);
  assert.match(
    (await quiz.locator('li[data-right="false"] .quiz-mark').first().textContent()) ?? '',
    /m·p\/k = 0\.\d{4}, q = 0\.\d{4}: not a discovery\. Your tick is wrong\./,
  );
  const right = await tick((x) => x.q < 0.05);
  assert.match(right ?? '', /^Right: you read the table as Benjamini–Hochberg does/);
  assert.equal(await quiz.getAttribute('data-passed'), 'true');
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('attention-playground-course')));
  assert.deepEqual(kept.lessons.comparison.check, { passed: true, step: 0, accuracy: 1, setting: 'bh quiz' });
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
  await page.locator('aside[data-quiz="bh"] button.quiz-submit').click();
  assert.match(
    (await page.locator('aside[data-quiz="bh"] .quiz-status').textContent()) ?? '',
    /和 Benjamini–Hochberg 的判断不同/,
  );
  await shotFourWays(page, 'course-comparison-zh');
  assert.deepEqual(errors, []);
  await ctx.close();
});
