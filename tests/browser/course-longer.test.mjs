// Lesson 4 of the course, "Longer than trained" (course/longer.html), as a reader goes through it:
// scrolled into view, RoPE learns copy_back at length 16; evaluated at four times that length,
// NTK-aware scaling (factor 4) keeps at least what unscaled RoPE keeps, from the widgets' own
// numbers, which the lesson states; the committed extrapolation-scaling numbers are in the text;
// the check (RoPE kept, length 8, judged at 32) asks for a prediction before each model: unscaled
// RoPE is no answer, YaRN passes, and the log keeps each beside its prediction.
// Screenshots: test-results/course-longer-{en,zh}-{1280,375}-{light,dark}.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until, shotFourWays, WAIT } from './harness.mjs';
import { openLesson, trainedWidget, assertFacts, predict, checkLog } from './course-fixtures.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(() => h?.close());

test('lesson 4: past the training length NTK-aware scaling keeps what unscaled RoPE loses; the check passes with YaRN, each model beside its prediction', async () => {
  const { ctx, page, errors } = await openLesson(h, 'course/longer.html', 'en-US');
  assert.ok((await page.locator('main .exp-fact').count()) >= 10, 'the committed numbers are in the text');
  const plain = await trainedWidget(page, 'rope-long');
  const ntk = await trainedWidget(page, 'rope-scaled');
  for (const [w, id] of [
    [plain, 'rope-long'],
    [ntk, 'rope-scaled'],
  ]) {
    assert.ok(w.m.evalAccuracy >= 0.95, `${id} learns copy_back at its length (${w.m.evalAccuracy})`);
    assert.equal(typeof w.m.longAccuracy, 'number', `${id} is evaluated at four times its length`);
    assertFacts(w, id);
  }
  assert.ok(
    ntk.m.longAccuracy >= plain.m.longAccuracy,
    `NTK-aware scaling keeps at least what unscaled RoPE keeps at 4L (${ntk.m.longAccuracy} against ${plain.m.longAccuracy})`,
  );

  // The check keeps RoPE: the reader predicts, then trains. Unscaled RoPE is no answer (the check
  // asks for a scaling); YaRN carries copy_back to four times the length. The log keeps each model
  // beside its prediction, and the pass keeps the prediction made for YaRN.
  await page.evaluate(() => document.getElementById('longer-check').scrollIntoView({ block: 'start' }));
  const first = await predict(page, 'longer', 'fail', 'rope_scaling = none');
  assert.match(first, /Before it trains: will rope_scaling = none reach the goal\?/);
  const [none] = await checkLog(page, 'longer', 1);
  assert.equal(none.outcome, 'off', `unscaled RoPE is not a scaling (${none.text})`);
  assert.match(none.text, /you predicted it will not reach the goal: right\./);
  await page.locator('#longer-check select#ctl-rope_scaling').selectOption('yarn');
  await predict(page, 'longer', 'pass', 'rope_scaling = yarn');
  const passed = await until(
    page,
    () => {
      const a = document.querySelector('aside[data-check="longer"]');
      return { ok: a.dataset.passed === 'true', text: a.textContent };
    },
    'the check passes with YaRN at four times the length',
    { timeout: WAIT.training },
  );
  assert.match(
    passed.text,
    /Keep RoPE, train copy_back at length 8, and reach 95% held-out accuracy at 4 times that length/,
  );
  assert.match(passed.text, /Passed: rope_scaling = yarn reached \d+% held-out accuracy/);
  assert.match(passed.text, /Before it trained, you predicted it will reach the goal\./);
  assert.doesNotMatch(passed.text, /undefined/);
  const log = await checkLog(page, 'longer', 2);
  assert.deepEqual(
    log.map((x) => [x.outcome, x.prediction]),
    [
      ['passed', 'pass'],
      ['off', 'fail'],
    ],
    'newest first, each beside its prediction',
  );
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('attention-playground-course')));
  assert.equal(kept.lessons.longer.check.prediction, 'pass');
  await shotFourWays(page, 'course-longer-en');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('lesson 4 in Chinese: the text and the check in 中文', async () => {
  const { ctx, page, errors } = await openLesson(h, 'course/longer.html', 'zh-CN');
  assert.equal(await page.evaluate(() => document.querySelector('main h1').textContent), '比训练时更长');
  await page.evaluate(() => document.getElementById('longer-check').scrollIntoView({ block: 'start' }));
  const goal = await page.evaluate(() => document.querySelector('aside[data-check="longer"] p').textContent);
  assert.match(goal, /在长度 8 上训练 copy_back/);
  const asked = await until(
    page,
    () => {
      const text = document.querySelector('aside[data-check="longer"] .check-predict')?.textContent ?? '';
      return { ok: text.length > 0, text };
    },
    'the check asks for a prediction once its model is built',
    { timeout: WAIT.training },
  );
  assert.match(asked.text, /训练之前先猜一猜：rope_scaling = none 能达到目标吗？/);
  await shotFourWays(page, 'course-longer-zh');
  assert.deepEqual(errors, []);
  await ctx.close();
});
