// The course (web/src/pages/course/, web/course/lessons/) and its message table
// (web/src/common/messages.js): every string exists in both languages, every lesson in both
// languages with the same widgets, live numbers, checks, experiment references and sections; the
// lessons' raw HTML is held to its allow-list; experiment numbers come from the committed files; the
// progress reader keeps only declared fields; a check is judged from the engine's numbers.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LANGS, LOADABLE, t, loadMessages, pickLanguage, langOf } from '../../web/src/common/messages.js';
import { LESSONS, LESSON_DIR, coursePageHtml, coursePages } from '../../web/src/pages/course/pages.mjs';
import { htmlProblems, renderLesson } from '../../web/src/pages/course/render.mjs';
import { expFact } from '../../web/src/pages/course/exp-facts.mjs';
import { readProgress, MAX_CHARS, MAX_LESSONS } from '../../web/src/state/course.js';
import { CHECKS, checkChallenge, judge } from '../../web/src/pages/course/checks.js';
import { seenEnough } from '../../web/src/pages/course/lesson-widgets.js';
import { FORMATS as LIVE_FORMATS, METRICS } from '../../web/src/pages/course/lesson-widgets.js';

const ROOT = resolve(import.meta.dirname, '../..');
// The table: one file per part and language, web/src/common/messages/<part>.<lang>.js.
const TABLE_DIR = join(ROOT, 'web/src/common/messages');
/** part -> lang -> {key: text} @type {Record<string, Record<string, Record<string, string>>>} */
const PARTS = {};
for (const f of readdirSync(TABLE_DIR).sort()) {
  const m = /^([a-z]+)\.([a-z]+)\.js$/.exec(f);
  assert.ok(m, `web/src/common/messages/${f}: a part's file is named <part>.<lang>.js`);
  (PARTS[m[1]] ??= {})[m[2]] = (await import(join(TABLE_DIR, f))).default;
}
/** The whole table: key -> {lang: text}. @type {Record<string, Record<string, string>>} */
const MESSAGES = {};
for (const byLang of Object.values(PARTS))
  for (const [lang, strings] of Object.entries(byLang))
    for (const [key, text] of Object.entries(strings)) (MESSAGES[key] ??= {})[lang] = text;
const placeholders = (/** @type {string} */ s) => [...s.matchAll(/\{([a-zA-Z]+)\}/g)].map((m) => m[1]).sort();

test('every part of the table exists in every language, with the same keys; a key is in one part only', () => {
  const problems = [];
  const seen = new Map();
  for (const [part, byLang] of Object.entries(PARTS)) {
    for (const lang of LANGS) if (!byLang[lang]) problems.push(`${part}: no file ${part}.${lang}.js`);
    const extra = Object.keys(byLang).filter((l) => !LANGS.includes(l));
    if (extra.length) problems.push(`${part}: languages the course does not have: ${extra.join(', ')}`);
    for (const [lang, strings] of Object.entries(byLang))
      for (const key of Object.keys(strings)) {
        if (seen.has(key) && seen.get(key) !== part) problems.push(`${key}: in ${seen.get(key)} and in ${part}`);
        seen.set(key, part);
        for (const other of LANGS)
          if (other !== lang && byLang[other] && !Object.hasOwn(byLang[other], key))
            problems.push(`${key}: in ${part}.${lang}.js, not in ${part}.${other}.js`);
      }
  }
  assert.deepEqual(problems, []);
  // every part a widget loads has its loader (common/messages.js PARTS); element and course are imported
  assert.deepEqual(
    Object.keys(PARTS)
      .filter((p) => !['element', 'course'].includes(p))
      .sort(),
    [...LOADABLE].sort(),
  );
});

test('every message exists in English and Chinese, with the same placeholders', () => {
  const problems = [];
  for (const [key, entry] of Object.entries(MESSAGES)) {
    for (const lang of LANGS)
      if (typeof entry[lang] !== 'string' || !entry[lang].trim()) problems.push(`${key}: no ${lang} text`);
    // A refusal's entry may leave out {field}, {name}, {value} and {detail}: refusals.test.mjs.
    const own = !key.startsWith('refusal.');
    if (own && entry.en && entry.zh && placeholders(entry.en).join() !== placeholders(entry.zh).join())
      problems.push(`${key}: placeholders ${placeholders(entry.en)} (en) but ${placeholders(entry.zh)} (zh)`);
    if (entry.zh && !/[\u4e00-\u9fff]/.test(entry.zh) && entry.zh !== entry.en.replace(/\s/g, ''))
      if (/[a-z]{4,}/.test(entry.zh.replace(/\{[a-zA-Z]+\}|position|order|none|softmax/g, '')))
        problems.push(`${key}: the zh text reads as English`);
  }
  assert.deepEqual(problems, []);
});

test('a part loads in one language only, and a key of a part not loaded is not found', async () => {
  assert.throws(() => t('zh', 'pos.sameScale'), /no message "pos\.sameScale" in zh/);
  await loadMessages('zh', ['positions']);
  assert.equal(t('zh', 'pos.sameScale'), PARTS.positions.zh['pos.sameScale']);
  assert.throws(() => t('en', 'pos.sameScale'), /not loaded/, 'English not loaded with Chinese');
  await assert.rejects(async () => loadMessages('en', ['no-such-part']), /no part "no-such-part"/);
});

/** Every web/src source file. @param {string} dir @returns {string[]} */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? e.name === 'wasm'
        ? []
        : sources(join(dir, e.name))
      : /\.m?js$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

test('every message key the code looks up is in the table', () => {
  const missing = [];
  for (const file of sources(join(ROOT, 'web/src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\b(?:tr|t\([a-zA-Z.]+,)\s*\(?\s*'([a-z][a-zA-Z0-9]*(?:\.[a-zA-Z0-9]+)+)'/g))
      if (!Object.hasOwn(MESSAGES, m[1])) missing.push(`${file.slice(ROOT.length + 1)}: ${m[1]}`);
  }
  assert.deepEqual(missing, []);
});

test('the language follows the reader: zh for any Chinese tag, else the first the course has, else en', () => {
  assert.equal(pickLanguage(['zh-CN', 'en']), 'zh');
  assert.equal(pickLanguage(['zh-TW']), 'zh');
  assert.equal(pickLanguage(['fr-FR', 'en-GB', 'zh']), 'en');
  assert.equal(pickLanguage(['fr-FR', 'de']), 'en');
  assert.equal(pickLanguage([]), 'en');
  assert.equal(langOf('zh-Hans'), 'zh');
  assert.equal(langOf('english'), null);
  assert.equal(t('zh', 'course.lesson', { n: 3 }), '第 3 课'); // the course's part, added by pages.mjs's import
  assert.throws(() => t('en', 'no.such.key'), /no message "no\.such\.key"/);
});

/**
 * What must match between a lesson's two languages: its widgets and checks in order, its live and
 * committed numbers as sets (a sentence may name them in another order), its sections' count.
 * @param {string} src
 */
function skeleton(src) {
  const all = (/** @type {RegExp} */ re) => [...src.matchAll(re)].map((m) => m[0]);
  return {
    widgets: all(/<attention-playground\b[^>]*>/g),
    facts: all(/<output\b[^>]*>/g).sort(),
    checks: all(/<aside\b[^>]*>/g),
    exp: all(/\{\{exp:[^}]+\}\}/g).sort(),
    sections: (src.match(/^#{1,3} /gm) ?? []).length,
  };
}

test('every lesson exists in both languages, with the same widgets, numbers, checks and sections', () => {
  const files = readdirSync(LESSON_DIR).filter((f) => f.endsWith('.md'));
  const slugs = new Set(files.map((f) => f.replace(/\.[a-z]+\.md$/, '')));
  for (const slug of slugs)
    for (const lang of LANGS)
      assert.ok(files.includes(`${slug}.${lang}.md`), `web/course/lessons/${slug}.${lang}.md is missing`);
  for (const { slug } of LESSONS) {
    const [en, zh] = LANGS.map((l) => skeleton(readFileSync(join(LESSON_DIR, `${slug}.${l}.md`), 'utf8')));
    assert.deepEqual(
      zh,
      en,
      `${slug}: the Chinese lesson must hold the English one's widgets, numbers, checks and sections`,
    );
    // a check counts as a widget; lesson 4 holds four (its attention maps past the training length)
    assert.ok(en.widgets.length >= 1 && en.widgets.length <= 4, `${slug}: one to four widgets`);
    assert.ok(en.checks.length >= 1, `${slug}: a check at the end`);
  }
});

test("a lesson's live numbers name a widget of the lesson, a metric of its events and a format the page writes", () => {
  for (const { slug } of LESSONS)
    for (const lang of LANGS) {
      const src = readFileSync(join(LESSON_DIR, `${slug}.${lang}.md`), 'utf8');
      const ids = [...src.matchAll(/<attention-playground id="([^"]+)"/g)].map((m) => m[1]);
      for (const [all, id, metric, format] of src.matchAll(
        /<output data-fact="([^"]+)" data-metric="([^"]+)" data-format="([^"]+)">/g,
      )) {
        assert.ok(ids.includes(id), `${slug}.${lang}: ${all} names a widget of the lesson`);
        assert.ok(METRICS.includes(metric), `${slug}.${lang}: ${all}: a metric of ${METRICS.join(', ')}`);
        assert.ok(
          Object.hasOwn(LIVE_FORMATS, format),
          `${slug}.${lang}: ${all}: a format of ${Object.keys(LIVE_FORMATS)}`,
        );
      }
    }
});

// English phrases a Chinese lesson keeps as they are (its sources, the last section, are left out of
// the check: a cited work keeps its title): a Chinese source's own words, quoted, the names
// Chinese readers search for (位置内插（Position Interpolation，PI）, NTK-aware Scaled RoPE), and the
// button of the experiments page, whose own words are English.
const ZH_KEPT_ENGLISH = ['Self Attention', 'Re-run in this tab', 'Position Interpolation', 'NTK-aware Scaled RoPE'];

test('a Chinese lesson has no English phrase in its prose, and names the header links as the header shows them', () => {
  for (const { slug } of LESSONS) {
    const src = readFileSync(join(LESSON_DIR, `${slug}.zh.md`), 'utf8');
    assert.ok(src.includes('\n## 参考来源\n'), `${slug}.zh: a lesson ends with its sources`);
    // The sources keep the works' own titles (a bibliography, not prose).
    const prose = src
      .split('\n## 参考来源\n')[0]
      .replace(/\$\$[\s\S]*?\$\$|\$[^$\n]*\$|`[^`\n]*`|<[^>]*>|\{\{[^}]*\}\}/g, ' ')
      .replace(new RegExp(ZH_KEPT_ENGLISH.join('|'), 'g'), ' ');
    // two Latin words in a row (names such as "NTK-aware 缩放" stand alone; "global average pooling" does not)
    const phrases = [...prose.matchAll(/[A-Za-z][A-Za-z-]{2,}(?:[ ,]+[A-Za-z][A-Za-z-]*)+/g)].map((m) => m[0]);
    assert.deepEqual(phrases, [], `web/course/lessons/${slug}.zh.md: English in the Chinese prose`);
    // The header of a Chinese page reads 实验, not Experiments: a lesson names its links that way.
    for (const key of Object.keys(MESSAGES).filter((k) => k.startsWith('nav.'))) {
      const { en, zh } = MESSAGES[key];
      assert.ok(!src.includes(`*${en}*`), `${slug}.zh: the header's link is *${zh}* in Chinese, not *${en}*`);
    }
  }
});

test('each lesson reads in 10 to 15 minutes in either language, and every page builds', () => {
  for (const { slug } of LESSONS)
    for (const lang of LANGS) {
      const { words } = renderLesson(readFileSync(join(LESSON_DIR, `${slug}.${lang}.md`), 'utf8'), lang, slug);
      const minutes = words / (lang === 'zh' ? 300 : 200);
      assert.ok(minutes >= 10 && minutes <= 15, `${slug}.${lang}: ${minutes.toFixed(1)} minutes of reading (10 to 15)`);
    }
  for (const name of coursePages()) {
    const html = coursePageHtml(name);
    assert.match(html, /Content-Security-Policy/, `${name}: the CSP`);
    assert.match(html, /<template data-lang="en">/);
    assert.match(html, /<template data-lang="zh">/);
    assert.doesNotMatch(html, /\{\{exp:|@@\d+@@|%[A-Z]+%/, `${name}: everything filled in`);
  }
});

test("a lesson's raw HTML is held to the allow-list", () => {
  assert.deepEqual(
    htmlProblems('<attention-playground preset="probe" steps="300"></attention-playground>\n\nText <kbd>Tab</kbd>.'),
    [],
  );
  const bad = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<attention-playground onmouseover="x()"></attention-playground>',
    '<output data-fact="a" style="color:red">x</output>',
    '<aside data-check="order" class="javascript:x"></aside>',
    'Text <iframe src="https://example.com"></iframe>',
    '<attention-playground style="position:fixed"></attention-playground>',
    '<attention-playground tabindex="1"></attention-playground>',
    '<attention-playground autofocus></attention-playground>',
    '<attention-playground popover></attention-playground>',
    '<attention-playground id="coursePage"></attention-playground>',
    '<attention-playground task="u\\72l(x)"></attention-playground>',
    '<attention-playground task="java&#115;cript:x"></attention-playground>',
  ];
  assert.deepEqual(htmlProblems('<attention-playground id="order-check" task="copy"></attention-playground>'), []);
  for (const src of bad) assert.ok(htmlProblems(src).length > 0, `refused: ${src}`);
});

test('experiment numbers come from the committed files, and a bad reference fails the build', () => {
  const verdict = JSON.parse(readFileSync(join(ROOT, 'docs/experiments/probe-grid.verdict.json'), 'utf8'));
  assert.equal(expFact('probe-grid.verdict.json#claims.0.verdict|verdict', 'en'), verdict.claims[0].verdict);
  assert.equal(
    expFact('probe-grid.verdict.json#claims.0.verdict|verdict', 'zh'),
    t('zh', `verdict.${verdict.claims[0].verdict}`),
  );
  const q = 'position=rope&normalization=softmax&anchors=none&causal=false&budget=4000';
  assert.match(expFact(`probe-grid.summary.csv?${q}#eval_accuracy_mean|pct`, 'en'), /^\d+%$/);
  assert.throws(
    () => expFact('probe-grid.summary.csv?position=rope#eval_accuracy_mean|pct', 'en'),
    /rows of probe-grid\.summary\.csv match/,
  );
  assert.throws(() => expFact('../package.json#name|num', 'en'), /no result file/);
  assert.throws(() => expFact('probe-grid.verdict.json#claims.99.p|p', 'en'), /no "99"/);
  assert.throws(() => expFact('probe-grid.verdict.json#claims.0.p|html', 'en'), /no format "html"/);
  assert.throws(
    () => renderLesson('# T\n\n{{exp:probe-grid.verdict.json#nothing|p}}', 'en', 'x.en.md'),
    /x\.en\.md: \{\{exp:probe-grid\.verdict\.json#nothing\|p\}\}: no "nothing"/,
  );
});

test('the progress reader keeps only declared fields within their limits', () => {
  const good = {
    lang: 'zh',
    last: 'order',
    lessons: { order: { place: 3, check: { passed: true, step: 250, accuracy: 0.97, setting: 'position = rope' } } },
  };
  assert.deepEqual(readProgress(JSON.stringify(good)), good);
  const hostile = {
    lang: 'fr',
    last: '<img>',
    __proto__: { polluted: 1 },
    lessons: {
      order: { place: -1, check: { passed: 'yes', step: 1, accuracy: 2, setting: 'x' }, extra: 1 },
      'Bad Slug': { place: 1, check: null },
      probe: { place: 1e9, check: { passed: true, step: 10, accuracy: 0.9, setting: '<b>' } },
    },
  };
  assert.deepEqual(readProgress(JSON.stringify(hostile)), {
    lang: null,
    last: null,
    lessons: { order: { place: 0, check: null }, probe: { place: 0, check: null } },
  });
  assert.deepEqual(readProgress('x'.repeat(MAX_CHARS + 1)), { lang: null, last: null, lessons: {} });
  assert.deepEqual(readProgress('{"lessons": [1, 2]}'), { lang: null, last: null, lessons: {} });
  assert.deepEqual(readProgress('not json'), { lang: null, last: null, lessons: {} });
});

test("each lesson's check is for a widget that starts from its challenge's setup, and is judged by its rule", () => {
  for (const { slug } of LESSONS)
    for (const lang of LANGS) {
      const src = readFileSync(join(LESSON_DIR, `${slug}.${lang}.md`), 'utf8');
      for (const [, id, target] of src.matchAll(/<aside data-check="([^"]+)" data-for="([^"]+)"/g)) {
        const c = checkChallenge(id);
        assert.ok(c, `${slug}: the check "${id}" is defined (checks.js)`);
        const widget = new RegExp(`<attention-playground id="${target}"([^>]*)>`).exec(src);
        assert.ok(widget, `${slug}: the check's widget "${target}" is in the lesson`);
        for (const [k, v] of Object.entries(c.start))
          assert.match(
            widget[1],
            new RegExp(`\\b${k.replaceAll('_', '-')}="${v}"`),
            `${slug}: the widget starts with ${k}=${v}`,
          );
      }
    }
  const c = /** @type {any} */ (checkChallenge(Object.keys(CHECKS)[0]));
  const cfg = { ...c.start, position: 'rope' };
  assert.equal(judge(c, null, { step: 0, evalAccuracy: null }, ['position']).state, 'waiting');
  assert.equal(judge(c, cfg, { step: 200, evalAccuracy: c.check.min }, ['position']).state, 'passed');
  assert.equal(judge(c, cfg, { step: 200, evalAccuracy: c.check.min - 0.01 }, ['position']).state, 'progress');
  assert.equal(judge(c, cfg, { step: c.start.steps + 1, evalAccuracy: 1 }, ['position']).state, 'over');
  const kept = judge(c, { ...cfg, task: 'copy' }, { step: 100, evalAccuracy: 1 }, ['position']);
  assert.equal(kept.state, 'kept');
  assert.deepEqual(kept.kept, { field: 'task', value: String(c.start.task) });
  assert.equal(judge(c, cfg, { step: 200, evalAccuracy: 1 }, ['position']).setting, 'position = rope');
  // A course challenge with `allowed`: lesson 2 asks for an absolute encoding.
  const abs = /** @type {any} */ (checkChallenge('absolute'));
  const start = { ...abs.start };
  assert.equal(judge(abs, start, { step: 100, evalAccuracy: 0.3 }, ['position']).state, 'allowed');
  assert.equal(
    judge(abs, { ...start, position: 'rope' }, { step: 100, evalAccuracy: 1 }, ['position']).state,
    'allowed',
  );
  assert.equal(
    judge(abs, { ...start, position: 'learned' }, { step: 300, evalAccuracy: 0.97 }, ['position']).state,
    'passed',
  );
});

test('a widget starts when a quarter of it is in view, or half the window for a widget taller than twice the window', () => {
  const entry = (height, visible, win) => ({
    isIntersecting: visible > 0,
    intersectionRect: { height: visible },
    boundingClientRect: { height },
    rootBounds: { height: win },
  });
  assert.equal(seenEnough(entry(400, 100, 667), 667), true, 'a quarter of a 400 px widget');
  assert.equal(seenEnough(entry(400, 90, 667), 667), false, 'less than a quarter');
  // lesson 3's ALiBi widget on a phone: 3450 px tall in a 667 px window can never show a quarter
  assert.equal(seenEnough(entry(3450, 334, 667), 667), true, 'half the window of a tall widget');
  assert.equal(seenEnough(entry(3450, 300, 667), 667), false, 'less than half the window');
  assert.equal(seenEnough(entry(3450, 0, 667), 667), false, 'not in view');
  assert.equal(seenEnough({ ...entry(3450, 400, 0), rootBounds: null }, 667), true, 'no rootBounds: the window');
});

test('course progress keeps the lesson read last, however many other lessons are stored', () => {
  const lessons = {};
  for (let i = 0; i < MAX_LESSONS + 6; i++) lessons[`old-${i}`] = { place: 1, check: null };
  lessons.order = { place: 3, check: null };
  const read = readProgress(JSON.stringify({ lang: 'en', last: 'order', lessons }));
  assert.deepEqual(read.lessons.order, { place: 3, check: null }, 'the current lesson is kept');
  assert.equal(Object.keys(read.lessons).length, MAX_LESSONS, 'at most MAX_LESSONS lessons');
  // invalid slugs take no place from valid ones
  const bad = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`BAD ${i}`, { place: 1 }]));
  const mixed = readProgress(JSON.stringify({ lessons: { ...bad, order: { place: 2 } } }));
  assert.deepEqual(Object.keys(mixed.lessons), ['order']);
});

test('every lesson ends with its sources, in both languages: its seed by name and the papers with links', () => {
  for (const { slug } of LESSONS)
    for (const [lang, head, seed] of [
      ['en', '## Sources', /^- Seed 00\d: /m],
      ['zh', '## 参考来源', /^- 种子 00\d：/m],
    ]) {
      const src = readFileSync(join(LESSON_DIR, `${slug}.${lang}.md`), 'utf8');
      const parts = src.split(`\n${head}\n`);
      assert.equal(parts.length, 2, `${slug}.${lang}: one "${head}" section`);
      assert.doesNotMatch(parts[1], /\n## /, `${slug}.${lang}: the sources are the last section`);
      assert.match(parts[1], seed, `${slug}.${lang}: the sources name the lesson's seed`);
      assert.match(parts[1], /\]\(https:\/\/[^)\s]+\)/, `${slug}.${lang}: the sources link the papers`);
    }
});

test("a probe widget is evaluated at the length it trains (no 'eval @ length 16' line that reads as failure)", () => {
  const wrong = [];
  for (const f of readdirSync(LESSON_DIR).filter((x) => x.endsWith('.md')))
    for (const [tag] of readFileSync(join(LESSON_DIR, f), 'utf8').matchAll(
      /<attention-playground [^>]*task="probe"[^>]*>/g,
    )) {
      const seq = /seq-len="(\d+)"/.exec(tag)?.[1];
      const evalLen = /eval-len="(\d+)"/.exec(tag)?.[1];
      if (!seq || evalLen !== seq) wrong.push(`${f}: ${tag.slice(0, 80)}… (seq-len ${seq}, eval-len ${evalLen})`);
    }
  assert.deepEqual(wrong, [], 'every probe widget sets eval-len to its seq-len');
});
