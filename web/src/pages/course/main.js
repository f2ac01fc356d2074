// Entry of the course's pages (course/index.html, course/<slug>.html; pages.mjs builds them). The
// page holds its text in every language as a <template>; this shows the reader's language (the one
// chosen on the page and remembered, else the first of navigator.languages the course has), keeps
// the reader's place and the checks' results (state/course.js), drives the lesson's widgets as the
// reader scrolls (lesson-widgets.js) and judges its check (lesson-check.js). The widget's module
// loads after the text is in place, so no widget starts in a language the reader will not read.
import '../../panels/style.css';
import '../demos/page.css';
import 'katex/dist/katex.min.css';
import './course.css';
import { LANG_TAGS, pickLanguage } from '../../common/messages.js';
import { t } from './messages.mjs';
import { loadProgress, saveProgress, lessonProgress } from '../../state/course.js';
import { LessonWidgets } from './lesson-widgets.js';
import { LessonCheck } from './lesson-check.js';
import { LessonQuiz } from './lesson-quiz.js';
import { drawSeeds } from './lesson-seeds.js';

/** @typedef {import('../../common/messages.js').Lang} Lang */

class CoursePage {
  constructor() {
    this.slug = document.body.dataset.course ?? 'index';
    this.lesson = this.slug !== 'index';
    this.progress = loadProgress();
    /** @type {Lang} */
    this.lang = this.progress.lang ?? pickLanguage(navigator.languages);
    this.main = /** @type {HTMLElement} */ (document.getElementById('lesson'));
    /** @type {LessonWidgets|null} */ this.widgets = null;
    /** @type {(LessonCheck|LessonQuiz)[]} */ this.checks = [];
    /** @type {import('../experiments/spread-chart.js').SpreadChart[]} the verdicts' per-seed figures */
    this.seeds = [];
    this.place = this.lesson ? lessonProgress(this.progress, this.slug).place : 0;
    this.scrollQueued = false;
    for (const b of document.querySelectorAll('.course-lang button[data-lang]')) {
      const lang = /** @type {Lang} */ (/** @type {HTMLElement} */ (b).dataset.lang);
      b.addEventListener('click', () => this.choose(lang));
    }
    addEventListener('scroll', () => this.#queuePlace(), { passive: true });
  }

  /** The reader picked a language on the page: remembered, and the page redrawn in it, at the same place. @param {Lang} lang */
  choose(lang) {
    if (lang === this.lang) return;
    this.lang = this.progress.lang = lang;
    saveProgress(this.progress);
    this.show(this.place);
  }

  /** Show the page in this.lang, scrolled to the section `place` (0: where it is). @param {number} place */
  show(place) {
    const tpl = /** @type {HTMLTemplateElement|null} */ (document.querySelector(`template[data-lang="${this.lang}"]`));
    if (!tpl) return;
    this.widgets?.dispose();
    for (const c of this.checks) c.dispose();
    for (const c of this.seeds) c.dispose();
    // <main> holds the English text as built (data-lang): kept when that is the reader's language,
    // since laying a whole lesson out a second time is a long task (the bench's course_tasks row)
    if (this.main.dataset.lang !== this.lang) this.main.replaceChildren(tpl.content.cloneNode(true));
    this.main.dataset.lang = this.lang;
    document.documentElement.lang = LANG_TAGS[this.lang];
    const h1 = this.main.querySelector('h1, h2');
    document.title = `${h1?.textContent ?? ''} — Attention Playground`;
    for (const node of document.querySelectorAll('[data-msg]'))
      node.textContent = t(this.lang, /** @type {string} */ (/** @type {HTMLElement} */ (node).dataset.msg));
    // the header's labels for assistive technology (the nav, the language switch)
    for (const node of document.querySelectorAll('[data-msg-aria]'))
      node.setAttribute(
        'aria-label',
        t(this.lang, /** @type {string} */ (/** @type {HTMLElement} */ (node).dataset.msgAria)),
      );
    for (const b of document.querySelectorAll('.course-lang button[data-lang]'))
      b.setAttribute('aria-pressed', String(/** @type {HTMLElement} */ (b).dataset.lang === this.lang));
    if (this.lesson) this.#startLesson();
    else this.#fillIndex();
    if (place > 0) document.getElementById(`s-${place}`)?.scrollIntoView({ block: 'start' });
  }

  #startLesson() {
    const article = /** @type {HTMLElement} */ (this.main.querySelector('article.lesson') ?? this.main);
    this.widgets = new LessonWidgets(article);
    this.seeds = drawSeeds(article, this.lang);
    const mine = lessonProgress(this.progress, this.slug);
    const onPass = (/** @type {import('../../state/course.js').CheckResult} */ result) => {
      mine.check = result;
      saveProgress(this.progress);
    };
    this.checks = [
      ...[...article.querySelectorAll('aside[data-check]')].map(
        (box) => new LessonCheck(/** @type {HTMLElement} */ (box), this.lang, mine.check, onPass),
      ),
      ...[...article.querySelectorAll('aside[data-quiz]')].map(
        (box) => new LessonQuiz(/** @type {HTMLElement} */ (box), this.lang, mine.check, onPass),
      ),
    ];
    if (this.progress.last !== this.slug) {
      this.progress.last = this.slug;
      saveProgress(this.progress);
    }
  }

  // The index: each lesson's mark (its check passed or not) and the way back to the last lesson read.
  #fillIndex() {
    for (const mark of this.main.querySelectorAll('[data-mark]')) {
      const slug = /** @type {string} */ (/** @type {HTMLElement} */ (mark).dataset.mark);
      const passed = Boolean(this.progress.lessons[slug]?.check?.passed);
      mark.textContent = t(this.lang, passed ? 'course.passed' : 'course.notYet');
      /** @type {HTMLElement} */ (mark).dataset.passed = String(passed);
    }
    const last = this.progress.last;
    const item = last ? this.main.querySelector(`li[data-slug="${CSS.escape(last)}"] a`) : null;
    const box = /** @type {HTMLElement|null} */ (this.main.querySelector('.course-continue'));
    if (!item || !box) return;
    const title = item.textContent ?? '';
    const a = /** @type {HTMLAnchorElement} */ (item.cloneNode(false));
    a.textContent = t(this.lang, 'course.continue', { title });
    box.replaceChildren(a);
    box.hidden = false;
  }

  // The reader's place: the last section heading above the upper third of the window, kept when it changes.
  #queuePlace() {
    if (!this.lesson || this.scrollQueued) return;
    this.scrollQueued = true;
    requestAnimationFrame(() => {
      this.scrollQueued = false;
      const heads = [...this.main.querySelectorAll('[id^="s-"]')];
      let place = 0;
      for (const h of heads) if (h.getBoundingClientRect().top < innerHeight / 3) place = Number(h.id.slice(2));
      if (place === this.place) return;
      this.place = lessonProgress(this.progress, this.slug).place = place;
      saveProgress(this.progress);
    });
  }
}

history.scrollRestoration = 'manual'; // the place is the lesson's own (its section), restored below
const page = new CoursePage();
page.show(page.place);
window.coursePage = page; // for the console and the browser tests
await import('../../widgets/attention-playground.js');
document.body.dataset.ready = 'true';
