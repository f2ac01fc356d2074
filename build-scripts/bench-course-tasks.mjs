// build-scripts/bench-course-tasks.mjs — the course_tasks row of `npm run bench`: the main thread of
// a course page holding three lessons' widgets (issue 34: "no long task over 100 ms with three
// lessons' widgets on a page"). The page is the built lesson page dist/course/order.html with its
// lesson replaced by three lessons' text, rendered as the build renders them (pages.mjs lessonIn):
// lessons 1, 3 and 5 (order, relative, counting), nine widgets with their markup unchanged, their
// live numbers and checks, run by the course's own script (main.js: one IntersectionObserver plays a
// widget a quarter in view and pauses it when it leaves). A reader in the page scrolls through it a
// wheel step at a time and stays at each widget until it has trained (its `trained` event; the
// permutation demo: nothing left to train) or DWELL_MS passed, then reads on. Measured from a
// Chromium trace as the long_tasks row (bench-long-tasks.mjs): each main-thread task's CPU time
// beside its wall time, the longest and the count over 100 ms. Figures, never pass/fail. Also run alone:
//   node build-scripts/bench-course-tasks.mjs [--json] [--profile: what the longest tasks did, on stderr]
//     [--lessons absolute,longer,comparison: other lessons than the row's, e.g. for their widgets' times]
// Skips (returns {skipped: reason}) when Chromium or playwright-core is missing.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mainThreadTasks, taskFigures, tracedPage } from './bench-long-tasks.mjs';

const ROOT = resolve(import.meta.dirname, '..');
export const COURSE_SLUGS = ['order', 'relative', 'counting'];
export const COURSE_PATH = '/course/three-lessons.html';
const LONG_MS = 100;
const DWELL_MS = 45000; // the longest a reader waits at one widget

/**
 * The English lesson of a built lesson page (dist/course/<slug>.html): its article's content.
 * @param {string} html
 */
export function builtLesson(html) {
  const m = /<template data-lang="en">[\s\S]*?<article class="lesson" lang="en">\n([\s\S]*?)\n<\/article>/.exec(html);
  if (!m) throw new Error('the built lesson page has no English lesson');
  return m[1];
}

/**
 * The fixture page: a built lesson page `built` (dist/course/order.html: its scripts, styles and
 * CSP) with its English lesson (the <main> a reader without script gets, and the template main.js
 * shows) replaced by one article holding the lessons `slugs`, as the build renders each.
 * @param {string} built @param {(slug: string) => string} lessonHtml a lesson's English HTML, as the
 *   build renders it (the bench reads it from the built pages: builtLesson)
 * @param {string[]} [slugs]
 */
export async function threeLessonsPage(built, lessonHtml, slugs = COURSE_SLUGS) {
  const article = `<article class="lesson" lang="en">\n${slugs.map(lessonHtml).join('\n')}\n</article>`;
  const page = built
    .replace(/(<main\b[^>]*>)[\s\S]*?(<\/main>)/, (_, a, b) => `${a}\n${article}\n${b}`)
    .replace(/(<template data-lang="en">)[\s\S]*?(<\/template>)/, (_, a, b) => `${a}\n${article}\n${b}`);
  if (!page.includes('<template data-lang="en">\n<article') || !/<main\b[^>]*>\n<article/.test(page))
    throw new Error('the lesson page has no <main> or English <template> to fill');
  return page;
}

/** In the page, from its first script: a reader scrolling through the lessons (see the header). */
function reader({ dwellMs }) {
  const long = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) long.push(Math.round(e.duration));
  }).observe({ type: 'longtask', buffered: true });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const trained = new Set();
  addEventListener('trained', (e) => trained.add(/** @type {HTMLElement} */ (e.target).id), true);
  const finished = (w) => {
    const d = w.shadowRoot?.querySelector('.apd-permutation')?.dataset;
    return trained.has(w.id) || w.status === 'error' || (d?.playing === 'false' && d?.canTrain === 'false');
  };
  const atEnd = () => innerHeight + scrollY >= document.documentElement.scrollHeight - 2;
  async function read() {
    while (document.body?.dataset.ready !== 'true') await sleep(100);
    await sleep(1000); // the page's load settled: what follows is the reading, the widgets training
    console.timeStamp('__course-tasks-read');
    const visits = [];
    for (const w of document.querySelectorAll('#lesson attention-playground')) {
      // when a quarter of it is in view (the course plays it then), unless it was already
      const inView = () => w.getBoundingClientRect().top < innerHeight - 0.25 * w.getBoundingClientRect().height;
      let seen = inView() ? performance.now() : 0;
      // a wheel step (120 px) every 80 ms until the widget's top is in the upper fifth of the window
      while (w.getBoundingClientRect().top > innerHeight * 0.2 && !atEnd()) {
        scrollBy(0, 120);
        await sleep(80);
        if (!seen && inView()) seen = performance.now();
      }
      const t = performance.now();
      // a check's widget waits for the reader's prediction (lesson-check.js): the reader makes one
      const ask = document.querySelector(`aside[data-for="${w.id}"] .check-predict button[data-guess]`);
      if (ask) /** @type {HTMLButtonElement} */ (ask).click();
      while (!finished(w) && performance.now() - t < dwellMs) await sleep(250);
      // s: from coming into view to trained (or to the reader moving on)
      visits.push({
        id: w.id,
        status: w.status,
        step: w.currentStep,
        s: Math.round((performance.now() - (seen || t)) / 100) / 10,
        done: finished(w),
      });
    }
    await sleep(600); // the last charts drawn
    console.timeStamp('__long-tasks-end');
    console.log(`__course-tasks ${JSON.stringify({ long, visits })}`);
  }
  read();
}

/**
 * The three lessons' page, read through, traced.
 * @param {{log?: (...a: unknown[]) => void, profile?: boolean, slugs?: string[]}} [opts] profile: log what the
 *   longest tasks did; slugs: the lessons on the page (COURSE_SLUGS)
 * @returns {Promise<{longest_cpu_ms: number, longest_wall_ms: number, over_100_cpu: number, over_100_wall: number,
 *   tasks: number, observer_over_50: number, reading_longest_cpu_ms: number, reading_longest_wall_ms: number,
 *   reading_over_100_cpu: number, widgets: {id: string, status: string, step: number, s: number, done: boolean}[],
 *   lessons: string[]} | {skipped: string}>}
 */
export async function measureCourseTasks({ log = console.error, profile = false, slugs = COURSE_SLUGS } = {}) {
  log(`bench: course tasks (Chromium, built site, lessons ${slugs.join(', ')} on one page, read through)`);
  const t = await tracedPage({
    // made from the built page once dist/ is built
    pages: async () => ({
      [COURSE_PATH]: await threeLessonsPage(
        readFileSync(resolve(ROOT, 'dist/course/order.html'), 'utf8'),
        (slug) => builtLesson(readFileSync(resolve(ROOT, `dist/course/${slug}.html`), 'utf8')),
        slugs,
      ),
    }),
    path: COURSE_PATH,
    tag: '__course-tasks',
    script: reader,
    arg: { dwellMs: DWELL_MS },
    width: 1280,
    height: 900,
  });
  if ('skipped' in t) return t;
  const { long, visits } = t.report;
  if (profile) log(JSON.stringify(longestTasks(t.trace), null, 1));
  const reading = taskFigures(mainThreadTasks(t.trace, '__course-tasks-read') ?? [], LONG_MS);
  return {
    lessons: slugs,
    ...taskFigures(t.tasks, LONG_MS),
    observer_over_50: long.length,
    reading_longest_cpu_ms: reading.longest_cpu_ms,
    reading_longest_wall_ms: reading.longest_wall_ms,
    reading_over_100_cpu: reading.over_100_cpu,
    widgets: visits,
  };
}

/**
 * What the `n` longest main-thread tasks (by CPU) did, from the trace: each task's wall and CPU
 * time and the events inside it of at least `minMs` ms of wall time (name, and the function or
 * script where the trace names one), to profile a long task. Same thread as mainThreadTasks.
 * @returns {{at_s: number, ms: number, cpu: number, inside: string[]}[]}
 */
export function longestTasks(trace, n = 3, minMs = 5) {
  const events = JSON.parse(trace.toString()).traceEvents;
  const stamp = events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === '__long-tasks-end');
  if (!stamp) return [];
  const mine = events
    .filter((e) => e.ph === 'X' && e.pid === stamp.pid && e.tid === stamp.tid && e.ts < stamp.ts)
    .sort((a, b) => a.ts - b.ts);
  return mine
    .filter((e) => e.name === 'RunTask')
    .sort((a, b) => (b.tdur ?? b.dur) - (a.tdur ?? a.dur))
    .slice(0, n)
    .map((t) => ({
      at_s: Math.round((t.ts - mine[0].ts) / 1e5) / 10, // seconds after the page's first traced event
      ms: Math.round(t.dur / 1000),
      cpu: Math.round((t.tdur ?? t.dur) / 1000),
      inside: mine
        .filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.dur >= minMs * 1000)
        .map((e) => {
          const d = e.args?.data ?? {};
          const where =
            d.functionName || d.url
              ? ` ${d.functionName ?? ''} ${(d.url ?? '').split('/').pop()}:${d.lineNumber ?? ''}`
              : '';
          return `${e.name}${where} ${Math.round(e.dur / 1000)} ms`;
        }),
    }));
}

/** The row as `npm run bench` prints it. */
export const courseTasksRow = (t) =>
  'skipped' in t
    ? `course_tasks: skipped: ${t.skipped}`
    : `course_tasks (lessons ${(t.lessons ?? COURSE_SLUGS).join(', ')} on one page, ${t.widgets.length} widgets, read through): longest main-thread task ${t.longest_cpu_ms} ms of CPU (${t.longest_wall_ms} ms wall); ` +
      `tasks over 100 ms: ${t.over_100_cpu} by CPU, ${t.over_100_wall} by wall time, of ${t.tasks} (the longtask observer, over 50 ms: ${t.observer_over_50}); ` +
      `after the page's load, while the widgets train: longest ${t.reading_longest_cpu_ms} ms of CPU (${t.reading_longest_wall_ms} ms wall), ${t.reading_over_100_cpu} over 100 ms of CPU; ` +
      `trained, from coming into view: ${t.widgets.map((w) => `${w.id} ${w.step} steps${w.done ? '' : ` (${w.status}; left before the end)`} in ${w.s} s`).join(', ')}`;

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--lessons');
  const slugs = at > 0 ? process.argv[at + 1].split(',') : COURSE_SLUGS;
  const r = await measureCourseTasks({ profile: process.argv.includes('--profile'), slugs });
  console.log(process.argv.includes('--json') ? JSON.stringify(r) : courseTasksRow(r));
}
