// Lesson 2 of the course, "Absolute positions" (course/absolute.html), as a reader goes through it:
// scrolled into view, the learned-positions widget learns copy_back and is never evaluated at twice
// its length (its table ends at the training length); the sinusoidal widget learns copy_back and
// loses much of it at twice the length; the lesson's live numbers are those widgets' own; the
// check refuses a relative encoding and passes with learned positions, judged from the engine's
// held-out accuracy; a trained widget scrolled back to stays trained (it did not train on).
// Screenshots: test-results/course-absolute-{en,zh}-{1280,375}-{light,dark}.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until, shotFourWays, WAIT } from './harness.mjs';
import { openLesson, trainedWidget, assertFacts, staysTrained, assertRoomHeld } from './course-fixtures.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(() => h?.close());

test('lesson 2: learned positions end at their table, sinusoids go on but lose the task; the check wants an absolute encoding', async () => {
  const { ctx, page, errors } = await openLesson(h, 'course/absolute.html', 'en-US');
  const learned = await trainedWidget(page, 'learned');
  assert.ok(learned.m.evalAccuracy >= 0.95, `learned positions learn copy_back (${learned.m.evalAccuracy})`);
  assert.equal(learned.m.longAccuracy, null, 'learned positions are never evaluated past their table');
  assertFacts(learned, 'learned');
  await staysTrained(page, 'learned', 600);

  const sin = await trainedWidget(page, 'sinusoidal');
  assert.ok(sin.m.evalAccuracy >= 0.95, `sinusoids learn copy_back (${sin.m.evalAccuracy})`);
  assert.ok(
    sin.m.longAccuracy !== null && sin.m.longAccuracy < sin.m.evalAccuracy - 0.15,
    `at twice the length sinusoids lose much of it (${sin.m.longAccuracy} against ${sin.m.evalAccuracy})`,
  );
  assertFacts(sin, 'sinusoidal');
  await assertRoomHeld(page, ['learned', 'sinusoidal'], [375]);

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
  const { ctx, page, errors } = await openLesson(h, 'course/absolute.html', 'zh-CN');
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
