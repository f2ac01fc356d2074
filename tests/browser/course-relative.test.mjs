// Lesson 3 of the course, "Relative positions and RoPE" (course/relative.html), as a reader goes
// through it: scrolled into view, RoPE and ALiBi (8 heads) learn copy_back and keep it at twice
// the training length, from the widgets' own numbers, which the lesson states; the committed cost
// experiment's numbers are in the text; the check, which starts from learned positions, passes with
// RoPE on the engine's held-out accuracy at twice the length. The trained widgets hold no empty
// band under them at 1280 and 375 px. Screenshots:
// test-results/course-relative-{en,zh}-{1280,375}-{light,dark}.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until, shotFourWays, WAIT } from './harness.mjs';
import { openLesson, trainedWidget, assertFacts, assertRoomHeld } from './course-fixtures.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(() => h?.close());

test('lesson 3: RoPE and ALiBi carry copy_back to twice the length; the check passes with RoPE', async () => {
  const { ctx, page, errors } = await openLesson(h, 'course/relative.html', 'en-US');
  assert.ok((await page.locator('main .exp-fact').count()) >= 10, 'the committed cost numbers are in the text');
  for (const id of ['rope', 'alibi']) {
    const w = await trainedWidget(page, id);
    assert.ok(w.m.evalAccuracy >= 0.95, `${id} learns copy_back (${w.m.evalAccuracy})`);
    assert.ok(w.m.longAccuracy >= 0.9, `${id} keeps it at twice the length (${w.m.longAccuracy})`);
    assertFacts(w, id);
  }
  await assertRoomHeld(page, ['rope', 'alibi']);
  await page.evaluate(() => document.getElementById('relative-check').scrollIntoView({ block: 'start' }));
  await until(
    page,
    () => document.getElementById('relative-check').config?.position === 'learned',
    'the check model built',
    {
      timeout: WAIT.training,
    },
  );
  await page.locator('#relative-check select#ctl-position').selectOption('rope');
  await until(page, () => document.getElementById('relative-check').config?.position === 'rope', 'a RoPE model', {
    timeout: WAIT.training,
  });
  await page.evaluate(() => document.getElementById('relative-check').play());
  const passed = await until(
    page,
    () => {
      const a = document.querySelector('aside[data-check="relative"]');
      return { ok: a.dataset.passed === 'true', text: a.textContent };
    },
    'the check passes with RoPE at twice the length',
    { timeout: WAIT.training },
  );
  assert.match(passed.text, /Passed: position = rope reached \d+% held-out accuracy/);
  await shotFourWays(page, 'course-relative-en');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('lesson 3 in Chinese: the text and the RoPE panel in 中文', async () => {
  const { ctx, page, errors } = await openLesson(h, 'course/relative.html', 'zh-CN');
  assert.equal(await page.evaluate(() => document.querySelector('main h1').textContent), '相对位置与 RoPE');
  await page.evaluate(() => document.getElementById('rope').scrollIntoView({ block: 'start' }));
  const panel = await until(
    page,
    () => {
      const r = document.getElementById('rope').shadowRoot;
      const captions = [...(r?.querySelectorAll('.positions-body figcaption') ?? [])]
        .map((c) => c.textContent)
        .join(' ');
      return { ok: captions.length > 0, captions };
    },
    'the RoPE panel drawn',
    { timeout: WAIT.training },
  );
  assert.match(panel.captions, /旋转/);
  await shotFourWays(page, 'course-relative-zh');
  assert.deepEqual(errors, []);
  await ctx.close();
});
