// The course's checks as the second edition asks (issue 43 §5): each asks for a decision the
// lesson taught. Lesson 4 keeps RoPE and asks for a scaling; lesson 5 offers the encoding, the
// normalization and the anchors; lesson 6 asks the reader to read the committed table as
// Benjamini–Hochberg does (bh-quiz.mjs, lesson-quiz.js); a prediction is kept with a pass.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkChallenge, judge } from '../../web/src/pages/course/checks.js';
import { rankedTests, quizWindow, bhQuizHtml, LEVEL } from '../../web/src/pages/course/bh-quiz.mjs';
import { escapeHtml } from '../../web/src/pages/course/exp-facts.mjs';
import { readItems } from '../../web/src/pages/course/lesson-quiz.js';
import { renderLesson } from '../../web/src/pages/course/render.mjs';
import { LESSON_DIR } from '../../web/src/pages/course/pages.mjs';
import { readProgress } from '../../web/src/state/course.js';
import { benjaminiHochberg } from '../../build-scripts/experiments/tdist.mjs';

const FIELDS = ['rope_scaling'];

test('lesson 4: RoPE is kept, no scaling is no answer, a scaling that reaches 95% at 4x passes', () => {
  const c = /** @type {any} */ (checkChallenge('longer'));
  assert.equal(c.start.position, 'rope');
  assert.equal(c.check.lengthFactor, 4);
  const at = (/** @type {object} */ cfg, /** @type {number} */ acc) =>
    judge(c, { ...c.start, ...cfg }, { step: 500, evalAccuracy: 1, longAccuracy: acc }, FIELDS);
  assert.equal(at({}, 1).state, 'allowed', 'rope_scaling = none is not a scaling');
  assert.equal(at({ position: 'fire' }, 1).state, 'kept', 'another encoding leaves the lesson');
  assert.equal(at({ rope_scaling: 'pi' }, 0.22).state, 'progress');
  const yarn = at({ rope_scaling: 'yarn' }, 1);
  assert.equal(yarn.state, 'passed');
  assert.equal(yarn.setting, 'rope_scaling = yarn');
});

test('lesson 5: the encoding, the normalization and the anchors are the reader’s to change; the task is kept', () => {
  const c = /** @type {any} */ (checkChallenge('probe'));
  assert.deepEqual(c.keep, ['task']);
  const fields = ['position', 'normalization', 'anchors'];
  for (const change of [{ position: 'learned' }, { normalization: 'l2' }, { anchors: 'bos' }])
    assert.equal(judge(c, { ...c.start, ...change }, { step: 300, evalAccuracy: 1 }, fields).state, 'passed');
  assert.equal(judge(c, { ...c.start, task: 'copy' }, { step: 300, evalAccuracy: 1 }, fields).state, 'kept');
  for (const lang of ['en', 'zh']) {
    const src = readFileSync(join(LESSON_DIR, `counting.${lang}.md`), 'utf8');
    assert.match(src, /id="probe-check"[^>]*controls="play,reset,position,normalization,anchors"/);
  }
});

test('a pass keeps the prediction made before its model trained; the reader drops any other value', () => {
  const base = { passed: true, step: 300, accuracy: 1, setting: 'rope_scaling = yarn' };
  const read = (/** @type {object} */ check) =>
    readProgress(JSON.stringify({ lessons: { longer: { place: 1, check } } })).lessons.longer.check;
  assert.deepEqual(read({ ...base, prediction: 'pass' }), { ...base, prediction: 'pass' });
  assert.deepEqual(read({ ...base, prediction: 'fail' }), { ...base, prediction: 'fail' });
  assert.deepEqual(read({ ...base, prediction: '<b>' }), base);
});

test('lesson 6: the ranked tests are the whole family of the committed q (Benjamini–Hochberg over every test)', () => {
  const ranked = rankedTests();
  const q = benjaminiHochberg(ranked.map((x) => x.p));
  ranked.forEach((x, i) => {
    assert.equal(x.k, i + 1);
    assert.ok(
      Math.abs(q[i] - x.q) <= 1e-12 * Math.max(1, x.q),
      `${x.id} claim ${x.claim}: q ${x.q} recomputes as ${q[i]}`,
    );
  });
  assert.ok(ranked.length >= 40, `${ranked.length} tests`);
});

test('lesson 6: the quiz shows where the discoveries end, and p below 5% alone is not the answer', () => {
  const { m, shown } = quizWindow(rankedTests());
  const read = readItems(shown, m, LEVEL);
  assert.equal(read.length, 6);
  assert.ok(read.some((x) => x.discovery) && read.some((x) => !x.discovery), 'both kinds are shown');
  assert.ok(
    read.some((x) => x.trap),
    'a shown test has p < 5% and q >= 5% (if the committed table ever has none, this check asks nothing p alone cannot answer: choose another question)',
  );
  // the reader can decide each from k, p and m: a discovery iff m·p/k <= LEVEL for it or a later shown rank
  read.forEach((x, i) => {
    const later = read.slice(i).some((y) => y.ratio <= LEVEL);
    assert.equal(x.discovery, later, `rank ${x.k}: decided from the shown numbers`);
  });
});

test('lesson 6 is built with the quiz, in both languages, its texts escaped', () => {
  for (const lang of /** @type {const} */ (['en', 'zh'])) {
    const src = readFileSync(join(LESSON_DIR, `comparison.${lang}.md`), 'utf8');
    const { html } = renderLesson(src, lang, `comparison.${lang}.md`);
    const quiz = /<aside class="course-check course-quiz" data-quiz="bh" data-m="(\d+)"[\s\S]*?<\/aside>/.exec(html);
    assert.ok(quiz, `${lang}: the quiz is in the page`);
    assert.equal(Number(quiz[1]), rankedTests().length);
    assert.equal((quiz[0].match(/<li data-k=/g) ?? []).length, 6);
    assert.equal((quiz[0].match(/<input type="checkbox"/g) ?? []).length, 6);
    assert.doesNotMatch(html, /data-check="comparison"/, 'the old check (a repeat of lesson 5) is gone');
  }
  assert.match(bhQuizHtml('zh'), /错误发现率 5%/);
  // Each test's claim in the page's language: the definition's sentence in English; in Chinese the
  // claim said from its arms (it was the English sentence until 2026-12-07).
  const zh = bhQuizHtml('zh');
  for (const item of zh.match(/<li data-k=[\s\S]*?<\/li>/g) ?? []) {
    const label = /<label[^>]*>([\s\S]*?)<\/label>/.exec(item)?.[1] ?? '';
    assert.match(label, /：(position|normalization|\w+)=\S+.* (优于|与) .*（\w+/, `a claim in Chinese: ${label}`);
    assert.doesNotMatch(label, /\b(beats|trains|faster|as fast|at the embedding)\b/i, `no English sentence: ${label}`);
  }
  const en = bhQuizHtml('en');
  for (const x of quizWindow(rankedTests()).shown) assert.ok(en.includes(escapeHtml(x.text)), `English: ${x.text}`);
  assert.throws(
    () => renderLesson('# T\n\n<aside data-quiz="other"></aside>\n', 'en', 'x.md'),
    /a quiz is written <aside data-quiz="bh"><\/aside>/,
  );
});

test("lessons 3 and 4: the engine's figures are what the text says (RoPE's decay curve, each scaling's θ′/θ)", async () => {
  const { loadModule, sessionWith } = await import('./load.mjs');
  const m = await loadModule('simd');
  const base = {
    position: 'rope',
    task: 'copy_back',
    copy_back_k: 2,
    d_model: 32,
    heads: 4,
    layers: 2,
    seq_len: 16,
    eval_len: 64,
  };
  // lesson 3: r(d) is the similarity's first row, 1 at d = 0, falling (on average) as d grows
  const rope = sessionWith(m, base, (s) => JSON.parse(s.positions(64)));
  assert.deepEqual(rope.decay, rope.similarity[0]);
  assert.ok(Math.abs(rope.decay[0] - 1) < 1e-6);
  const mean = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  assert.ok(mean(rope.decay.slice(32)) < mean(rope.decay.slice(1, 8)), 'the far half scores lower than the near');
  // lesson 4: "1, 0.63, 0.40, 0.25" (NTK), all a quarter (PI), the fastest at one and the rest a quarter (YaRN)
  const ratio = (/** @type {string} */ rope_scaling) =>
    sessionWith(m, { ...base, rope_scaling, rope_factor: 4 }, (s) =>
      JSON.parse(s.positions(64)).scaling.ratio.map((/** @type {number} */ v) => Number(v.toFixed(2))),
    );
  assert.deepEqual(ratio('pi'), [0.25, 0.25, 0.25, 0.25]);
  assert.deepEqual(ratio('ntk'), [1, 0.63, 0.4, 0.25]);
  assert.deepEqual(ratio('yarn'), [1, 0.25, 0.25, 0.25]);
  for (const lang of ['en', 'zh'])
    assert.match(
      readFileSync(join(LESSON_DIR, `longer.${lang}.md`), 'utf8'),
      /1(,|、) ?0\.63(,|、) ?0\.40(,|、) ?0\.25/,
    );
});

test("lesson 6: each seed-000 verdict's figure holds every committed seed of both sides and the verdict's interval", async () => {
  const { seedsFigure, seedsFigureHtml } = await import('../../web/src/pages/course/seeds-figure.mjs');
  const { readRows } = await import('../../web/src/pages/course/lesson-seeds.js');
  const f = seedsFigure('tdlm-positions-mlm#0', 'en');
  const verdict = JSON.parse(
    readFileSync(join(LESSON_DIR, '../../../docs/experiments/tdlm-positions-mlm.verdict.json'), 'utf8'),
  );
  const budgets = verdict.claims[0].budgets.filter((/** @type {any} */ b) => b.budget !== null);
  assert.equal(f.rows.length, 2 * budgets.length, 'both sides at every budget');
  assert.equal(f.lines.length, budgets.length);
  assert.match(
    f.lines.at(-1),
    new RegExp(`at ${budgets.at(-1).budget} steps: difference ${budgets.at(-1).diff.toFixed(3)}`),
  );
  for (const r of f.rows) assert.ok(r.seeds.length >= 3, `${r.label}: ${r.seeds.length} seeds`);
  const last = seedsFigure('tdlm-norm-depth-mlm#0@last', 'zh');
  assert.equal(last.rows.length, 2);
  assert.match(last.rows[0].label, / 步$/);
  // the page reads the rows back (mean and sd from the seeds), and refuses anything else
  const html = seedsFigureHtml('tdlm-positions-mlm#0', 'en');
  const attr = /data-rows="([^"]*)"/.exec(html)?.[1] ?? '';
  const text = attr
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
  const rows = readRows(text);
  assert.ok(rows && rows.length === f.rows.length);
  const s = f.rows[0].seeds;
  assert.ok(Math.abs(/** @type {any} */ (rows)[0].mean - s.reduce((a, b) => a + b, 0) / s.length) < 1e-12);
  for (const bad of [
    '',
    '{}',
    '[]',
    '[{"label":"x","seeds":[]}]',
    '[{"label":"x","seeds":["1"]}]',
    `[{"label":"${'x'.repeat(81)}","seeds":[1]}]`,
  ])
    assert.equal(readRows(bad), null, bad.slice(0, 30));
  assert.throws(() => seedsFigure('tdlm-positions-mlm#9', 'en'), /has no claim 9/);
  assert.throws(() => renderLesson('# T\n\n<figure data-seeds="nope"></figure>\n', 'en', 'x.md'), /write it as ID#K/);
});
