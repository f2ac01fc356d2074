// The course's pages: course/index.html (the lessons, in order) and course/<slug>.html per lesson,
// made from shell.html and the lesson files web/course/lessons/<slug>.<lang>.md (render.mjs). Each
// page holds the lesson in every language as a <template>, and the English one in <main> for a
// reader without script; main.js shows the reader's language. Read by web/vite.config.mjs, which
// serves the pages in dev and writes them in the build. Only the lessons in LESSONS are built or
// linked: a lesson is listed once it is complete. Runs under Node (the Vite config): no DOM here.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderLesson } from './render.mjs';
import { headerLinks } from '../demos/pages.mjs';
import { LANGS, LANG_NAMES, LANG_TAGS } from '../../common/messages.js';
import { t } from './messages.mjs';

/**
 * The published lessons, in the course's order: slug (the page's name), n (its number in the
 * course) and seed (the source text it retells, the seeds of issue 34).
 */
export const LESSONS = [
  { slug: 'order', n: 1, seed: '003' },
  { slug: 'absolute', n: 2, seed: '000, 001' },
  { slug: 'relative', n: 3, seed: '001, 002' },
  { slug: 'longer', n: 4, seed: '001' },
  { slug: 'counting', n: 5, seed: '004' },
  { slug: 'comparison', n: 6, seed: '000' },
];

export const LESSON_DIR = resolve(import.meta.dirname, '../../../course/lessons');
const SHELL = resolve(import.meta.dirname, 'shell.html');
/** Reading speed, for "about N minutes": words a minute (en), characters a minute (zh). */
const PER_MINUTE = { en: 200, zh: 300 };

const esc = (/** @type {string} */ s) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/**
 * A lesson in one language: {html, title, minutes}.
 * @param {string} slug
 * @param {import('../../common/messages.js').Lang} lang
 */
export function lessonIn(slug, lang) {
  const file = resolve(LESSON_DIR, `${slug}.${lang}.md`);
  const r = renderLesson(readFileSync(file, 'utf8'), lang, `web/course/lessons/${slug}.${lang}.md`);
  return { ...r, minutes: Math.max(1, Math.round(r.words / PER_MINUTE[lang])) };
}

/** @param {string} lang @param {string} html */
const template = (lang, html) => `    <template data-lang="${lang}">\n${html}\n    </template>`;

/** The language switch's buttons. */
const langButtons = () =>
  LANGS.map(
    (l) =>
      `        <button type="button" class="small" data-lang="${l}" lang="${LANG_TAGS[l]}" aria-pressed="false">${LANG_NAMES[l]}</button>`,
  ).join('\n');

/**
 * The lesson's body in one language: its text, then the way on (the next lesson, the index).
 * @param {number} k the lesson's index in LESSONS
 * @param {import('../../common/messages.js').Lang} lang
 */
function lessonBody(k, lang) {
  const { slug } = LESSONS[k];
  const { html, minutes } = lessonIn(slug, lang);
  const next = LESSONS[k + 1];
  const nextLink = next
    ? `<a href="./${next.slug}.html">${esc(t(lang, 'course.next', { title: lessonIn(next.slug, lang).title }))}</a>`
    : '';
  return [
    `<p class="course-kicker">${esc(t(lang, 'course.lesson', { n: LESSONS[k].n }))} · ${esc(t(lang, 'course.minutes', { n: minutes }))}</p>`,
    `<article class="lesson" lang="${LANG_TAGS[lang]}">`,
    html,
    '</article>',
    `<nav class="course-next" aria-label="${esc(t(lang, 'course.lessons'))}">${nextLink} <a href="./index.html">${esc(t(lang, 'course.back'))}</a></nav>`,
  ].join('\n');
}

/** The index's body in one language: the lessons, each with its number, title, time and lede. @param {import('../../common/messages.js').Lang} lang */
function indexBody(lang) {
  const items = LESSONS.map(({ slug, n }) => {
    const { title, minutes, html } = lessonIn(slug, lang);
    const lede = /<p>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '';
    return [
      `<li data-slug="${slug}">`,
      `<a href="./${slug}.html"><span class="course-n">${esc(t(lang, 'course.lesson', { n }))}</span> ${esc(title)}</a>`,
      `<span class="course-meta">${esc(t(lang, 'course.minutes', { n: minutes }))} · <span class="course-mark" data-mark="${slug}"></span></span>`,
      `<p>${lede}</p>`,
      '</li>',
    ].join('');
  });
  return [
    `<article class="course-index" lang="${LANG_TAGS[lang]}">`,
    `<h2>${esc(t(lang, 'course.title'))}</h2>`,
    `<p>${esc(t(lang, 'course.lede'))}</p>`,
    `<p class="course-continue" hidden></p>`,
    `<h3>${esc(t(lang, 'course.lessons'))}</h3>`,
    `<ol class="course-list">${items.join('\n')}</ol>`,
    '</article>',
  ].join('\n');
}

/**
 * The HTML of course/<name>.html ('index' or a lesson's slug).
 * @param {string} name
 * @returns {string}
 */
export function coursePageHtml(name) {
  const k = LESSONS.findIndex((l) => l.slug === name);
  if (name !== 'index' && k < 0)
    throw new Error(`no course page "${name}": index or one of ${LESSONS.map((l) => l.slug).join(', ')}`);
  const body = (/** @type {import('../../common/messages.js').Lang} */ lang) =>
    k < 0 ? indexBody(lang) : lessonBody(k, lang);
  const title = k < 0 ? t('en', 'course.title') : lessonIn(name, 'en').title;
  const words = {
    SLUG: name,
    TITLE: esc(title),
    DESCRIPTION: esc(t('en', 'course.lede')),
    LINKS: headerLinks('../', 'course', true).join('\n'),
    LANGS: langButtons(),
    NOSCRIPT: LANGS.map((l) => esc(t(l, 'course.noscript'))).join(' '),
    EN: body('en'),
    TEMPLATES: LANGS.map((l) => template(l, body(l))).join('\n'),
  };
  return readFileSync(SHELL, 'utf8').replace(/%([A-Z]+)%/g, (all, key) => words[key] ?? all);
}

/** The page names of the course: index and each lesson. */
export const coursePages = () => ['index', ...LESSONS.map((l) => l.slug)];

/**
 * The Vite plugin of the course's pages: in dev /course/<name>.html (and /course/) is made from the
 * lesson files on each request (through Vite's HTML transform); in the build, the inputs
 * <root>/course/<name>.html are loaded from here, so they land in dist/course/.
 * @param {string} root the Vite root (web/)
 * @returns {import('vite').Plugin}
 */
export function coursePagesPlugin(root) {
  const byId = new Map(coursePages().map((n) => [resolve(root, `course/${n}.html`), n]));
  return {
    name: 'attention-playground-course-pages',
    enforce: 'pre',
    resolveId: (id) => (byId.has(id) ? id : null),
    load: (id) => (byId.has(id) ? coursePageHtml(/** @type {string} */ (byId.get(id))) : null),
    configureServer(server) {
      server.watcher.add(LESSON_DIR);
      server.middlewares.use(async (req, res, next) => {
        const m = /^\/course\/(?:([a-z0-9-]+)\.html)?(?:[?#]|$)/.exec(req.url ?? '');
        const name = m ? (m[1] ?? 'index') : null;
        if (!name || !coursePages().includes(name)) return next();
        try {
          const html = await server.transformIndexHtml(req.url ?? '/', coursePageHtml(name), req.originalUrl);
          res.setHeader('Content-Type', 'text/html');
          res.end(html);
        } catch (err) {
          next(err);
        }
      });
    },
  };
}

/** Rollup inputs of the course's pages: {'course/<name>': <root>/course/<name>.html}. */
export const coursePageInputs = (/** @type {string} */ root) =>
  Object.fromEntries(coursePages().map((n) => [`course/${n}`, resolve(root, `course/${n}.html`)]));
