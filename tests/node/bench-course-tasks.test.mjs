// The course_tasks row's page and arithmetic (build-scripts/bench-course-tasks.mjs,
// bench-long-tasks.mjs), without a browser: the page holds three lessons' widgets with their
// markup exactly as the lesson files write it, inside the course page's own shell (its CSP and
// scripts), in the article main.js drives; the trace reader keeps only the page's main thread up
// to the page's stamp, CPU time from tdur; the figures count tasks over the threshold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtLesson, COURSE_SLUGS, longestTasks, threeLessonsPage } from '../../build-scripts/bench-course-tasks.mjs';
import { mainThreadTasks, taskFigures } from '../../build-scripts/bench-long-tasks.mjs';
import { coursePageHtml, LESSON_DIR, lessonIn } from '../../web/src/pages/course/pages.mjs';

const widgetsOf = (/** @type {string} */ html) =>
  [...html.matchAll(/<attention-playground\b[^>]*><\/attention-playground>/g)].map((m) => m[0]);

test("the page holds three lessons' widgets, unchanged, in the course page's shell", async () => {
  const shell = coursePageHtml('order');
  const lessonHtml = (/** @type {string} */ s) => lessonIn(s, 'en').html;
  for (const s of COURSE_SLUGS)
    assert.equal(builtLesson(coursePageHtml(s)), lessonHtml(s), `the bench reads lesson ${s} from its built page`);
  const page = await threeLessonsPage(shell, lessonHtml);
  const expected = COURSE_SLUGS.flatMap((s) => widgetsOf(readFileSync(join(LESSON_DIR, `${s}.en.md`), 'utf8')));
  assert.equal(expected.length, 9, 'lessons 1, 3 and 5 hold nine widgets');
  const en = /<template data-lang="en">([\s\S]*?)<\/template>/.exec(page)?.[1] ?? '';
  const main = /<main\b[^>]*>([\s\S]*?)<\/main>/.exec(page)?.[1] ?? '';
  assert.deepEqual(widgetsOf(en), expected, "the English template holds every widget's markup as the lessons write it");
  assert.deepEqual(widgetsOf(main), expected, 'so does <main>');
  assert.equal((en.match(/<article class="lesson"/g) ?? []).length, 1, 'one article, which main.js drives');
  assert.equal((en.match(/<aside data-check=/g) ?? []).length, 3, "the three lessons' checks");
  const zh = (/** @type {string} */ h) => /<template data-lang="zh">[\s\S]*?<\/template>/.exec(h)?.[0];
  assert.equal(zh(page), zh(shell), 'the Chinese template is left as built');
  const head = (/** @type {string} */ h) => h.slice(0, h.indexOf('<body'));
  assert.equal(head(page), head(shell), "the head (CSP, scripts, styles) is the page's own");
  await assert.rejects(
    threeLessonsPage('<html><body>no lesson</body></html>', lessonHtml),
    /no <main> or English <template>/,
  );
});

test("the trace reader keeps the page's main thread up to its stamp, CPU from tdur", () => {
  const ev = (/** @type {object} */ o) => ({ ph: 'X', name: 'RunTask', pid: 1, tid: 7, ...o });
  const trace = {
    traceEvents: [
      ev({ ts: 1000, dur: 150000, tdur: 40000 }), // 150 ms wall, 40 ms CPU
      ev({ ts: 200000, dur: 120000, tdur: 110000 }),
      ev({ ts: 400000, dur: 5000 }), // no tdur: CPU taken as the wall time
      ev({ ts: 500000, dur: 300000, tid: 8 }), // another thread
      ev({ ts: 900000, dur: 500000, tdur: 500000 }), // after the stamp (stopping the trace)
      { ph: 'I', name: 'TimeStamp', pid: 1, tid: 7, ts: 850000, args: { data: { message: '__long-tasks-end' } } },
    ],
  };
  const tasks = mainThreadTasks(Buffer.from(JSON.stringify(trace)));
  assert.deepEqual(tasks, [
    { ms: 150, cpu: 40 },
    { ms: 120, cpu: 110 },
    { ms: 5, cpu: 5 },
  ]);
  assert.deepEqual(taskFigures(tasks, 100), {
    longest_cpu_ms: 110,
    longest_wall_ms: 150,
    over_100_cpu: 1,
    over_100_wall: 2,
    tasks: 3,
  });
  assert.equal(mainThreadTasks(Buffer.from(JSON.stringify({ traceEvents: [ev({ ts: 0, dur: 1 })] }))), null);
  // from a stamp on: the tasks that start after it (the reading, after the page's load)
  const read = {
    ph: 'I',
    name: 'TimeStamp',
    pid: 1,
    tid: 7,
    ts: 100000,
    args: { data: { message: '__course-tasks-read' } },
  };
  const withRead = Buffer.from(JSON.stringify({ traceEvents: [...trace.traceEvents, read] }));
  assert.deepEqual(mainThreadTasks(withRead, '__course-tasks-read'), [
    { ms: 120, cpu: 110 },
    { ms: 5, cpu: 5 },
  ]);
  assert.equal(mainThreadTasks(Buffer.from(JSON.stringify(trace)), '__course-tasks-read'), null, 'no such stamp');
  // --profile: the longest tasks by CPU, with what ran inside them for at least 5 ms
  const inside = [
    { ph: 'X', name: 'Layout', pid: 1, tid: 7, ts: 210000, dur: 90000 },
    {
      ph: 'X',
      name: 'FunctionCall',
      pid: 1,
      tid: 7,
      ts: 300000,
      dur: 15000,
      args: { data: { functionName: 'draw', url: 'http://x/assets/chart.js', lineNumber: 12 } },
    },
    { ph: 'X', name: 'Layout', pid: 1, tid: 8, ts: 210000, dur: 90000 }, // another thread
    { ph: 'X', name: 'Paint', pid: 1, tid: 7, ts: 316000, dur: 1000 }, // under 5 ms
  ];
  const top = longestTasks(Buffer.from(JSON.stringify({ traceEvents: [...trace.traceEvents, ...inside] })), 2);
  assert.deepEqual(top, [
    { at_s: 0.2, ms: 120, cpu: 110, inside: ['Layout 90 ms', 'FunctionCall draw chart.js:12 15 ms'] },
    { at_s: 0, ms: 150, cpu: 40, inside: [] },
  ]);
});
