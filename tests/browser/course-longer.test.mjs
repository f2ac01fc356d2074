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

/**
 * The rope-long-maps widget's (one layer's) attention on the diagonal two back, averaged over its
 * heads: within the training length (queries 2..15) and past it (16..63), once each is at least
 * `least`'s value for it.
 * @param {{inside?: number, past?: number}} least
 */
function diagonal(page, least, what) {
  return until(
    page,
    (src) => {
      const w = /** @type {any} */ (document.getElementById('rope-long-maps'));
      const att = w.app?.panels?.attention?.last;
      if (!att || att.tokens.length !== 64) return { ok: false };
      const mean = (/** @type {number[]} */ v) => v.reduce((a, b) => a + b, 0) / v.length;
      const heads = att.layers[0].heads;
      const on = (from, to) => mean(heads.map((hd) => mean(hd.weights.slice(from, to).map((r, k) => r[from + k - 2]))));
      const d = {
        inside: on(2, 16),
        past: on(16, 64),
        note: w.shadowRoot.querySelector('.attn-past')?.textContent ?? '',
      };
      return { ok: d.inside >= (src.inside ?? 0) && d.past >= (src.past ?? 0), ...d };
    },
    what,
    { arg: least, timeout: WAIT.training },
  );
}

let h;
before(async () => {
  h = await startHarness();
});
after(() => h?.close());

test('lesson 4: past the training length NTK-aware scaling keeps what unscaled RoPE loses; the check passes with YaRN, each model beside its prediction', async () => {
  const { ctx, page, errors } = await openLesson(h, 'course/longer.html', 'en-US');
  assert.ok((await page.locator('main .exp-fact').count()) >= 10, 'the committed numbers are in the text');
  // θ′/θ per pair under PI, NTK and YaRN (the engine's numbers, theta-figure.mjs): drawn, not empty
  await page.locator('main .theta-figure').scrollIntoViewIfNeeded();
  const theta = await until(
    page,
    () => {
      const f = document.querySelector('main .theta-figure');
      const bars = [...f.querySelectorAll('rect')].map((r) => Number(r.getAttribute('height')));
      return { ok: bars.length === 12 && f.getBoundingClientRect().height > 200, bars };
    },
    'the θ′/θ figure drawn with its 12 bars',
  );
  assert.ok(
    theta.bars.every((b) => b > 0),
    `every bar has a height (${theta.bars})`,
  );
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

  // A one-layer version's attention maps at length 64 (inspect-len="eval-len"): its heads hold the
  // diagonal two back up to the dashed lines at 16 and lose it past them; NTK brings it back.
  await trainedWidget(page, 'rope-long-maps');
  const unscaled = await diagonal(page, { inside: 0.8 }, 'unscaled RoPE holds the diagonal within 16');
  assert.ok(unscaled.past < unscaled.inside - 0.2, `and loses it past 16 (${JSON.stringify(unscaled)})`);
  assert.match(unscaled.note, /At length 64; the model trained at length 16/);
  await page.locator('#rope-long-maps select#ctl-rope_scaling').selectOption('ntk');
  await page.locator('#rope-long-maps .ap-transport button').first().click(); // Play: the new model
  const back = await diagonal(
    page,
    { past: unscaled.past + 0.15 },
    'NTK-aware scaling brings the diagonal back past 16',
  );
  assert.ok(back.inside > 0.8, `and keeps it within 16 (${JSON.stringify(back)})`);

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
