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

  // T5 with eight buckets: distances 0-3 a bucket each, then 4-5, 6-7, 8-11, 12-15 (the lesson's sentence);
  // the first head's learned bias is highest at distance one, the distance copy_back copies from.
  await trainedWidget(page, 't5');
  const t5 = await page.evaluate(async () => {
    const pos = (await /** @type {any} */ (document.getElementById('t5')).app.model.inspect({ positions: {} }))
      .positions;
    const last = pos.buckets.length - 1; // the last query: every distance 0..T-1 in its row
    const byDistance = (/** @type {number[][]} */ m) => m[last].slice(0, last + 1).reverse();
    return { buckets: byDistance(pos.buckets), bias: byDistance(pos.bias[0]) };
  });
  assert.deepEqual(
    t5.buckets,
    [0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7],
    `the buckets the lesson states (${t5.buckets})`,
  );
  const top = t5.bias.indexOf(Math.max(...t5.bias));
  assert.equal(top, 1, `the first head's bias is highest at distance one (${t5.bias.map((v) => v.toFixed(2))})`);
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
