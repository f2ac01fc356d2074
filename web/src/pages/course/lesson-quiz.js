// Lesson 6's check in the page (<aside data-quiz="bh">, built by bh-quiz.mjs from the committed
// verdicts): the reader ticks the tests that Benjamini–Hochberg calls discoveries and asks for a
// check; each test then shows m·p/k, its committed q and whether the tick was right. All right is
// a pass, kept in this browser (state/course.js) like a training check's, and shown after a reload.
import { el } from '../../panels/dom.js';
import { t } from './messages.mjs';

/** @typedef {import('../../common/messages.js').Lang} Lang */
/** @typedef {import('../../state/course.js').CheckResult} CheckResult */

/** The setting a quiz's pass is kept with (state/course.js SETTING). */
export const QUIZ_SETTING = 'bh quiz';

/**
 * The quiz's items as the page holds them, and how each reads: whether it is a discovery at
 * `level`, and its m·p/k. Pure (the node test uses it).
 * @param {{k: number, p: number, q: number}[]} items
 * @param {number} m @param {number} level
 */
export function readItems(items, m, level) {
  return items.map((x) => ({
    ...x,
    discovery: x.q < level,
    ratio: (m * x.p) / x.k,
    trap: x.p < level && x.q >= level,
  }));
}

export class LessonQuiz {
  /**
   * @param {HTMLElement} box the quiz's aside (its items built at build time)
   * @param {Lang} lang
   * @param {CheckResult|null} kept the result kept from an earlier visit
   * @param {(r: CheckResult) => void} onPass called once when the reader first gets it all right
   */
  constructor(box, lang, kept, onPass) {
    this.box = box;
    this.lang = lang;
    this.onPass = onPass;
    this.passed = Boolean(kept?.passed && kept.setting === QUIZ_SETTING);
    this.m = Number(box.dataset.m);
    this.level = Number(box.dataset.level);
    this.rows = [...box.querySelectorAll('li[data-k]')].map((li) => ({
      li: /** @type {HTMLElement} */ (li),
      box: /** @type {HTMLInputElement} */ (li.querySelector('input[type="checkbox"]')),
      mark: /** @type {HTMLElement} */ (li.querySelector('.quiz-mark')),
      k: Number(/** @type {HTMLElement} */ (li).dataset.k),
      p: Number(/** @type {HTMLElement} */ (li).dataset.p),
      q: Number(/** @type {HTMLElement} */ (li).dataset.q),
    }));
    this.status = /** @type {HTMLElement} */ (box.querySelector('.quiz-status'));
    this.result = /** @type {HTMLElement} */ (box.querySelector('.check-result'));
    this.submit = /** @type {HTMLButtonElement} */ (box.querySelector('.quiz-submit'));
    this.onSubmit = () => this.check();
    this.submit.addEventListener('click', this.onSubmit);
    if (this.passed) this.#showKept();
  }

  /** Judge the ticks: each test's reading beside the reader's, and a pass when all agree. */
  check() {
    const { lang } = this;
    const pct = `${Math.round(100 * this.level)}%`;
    const read = readItems(this.rows, this.m, this.level);
    let wrong = 0;
    read.forEach((x, i) => {
      const row = this.rows[i];
      const right = row.box.checked === x.discovery;
      if (!right) wrong++;
      row.li.dataset.right = String(right);
      const fig = { ratio: x.ratio.toFixed(4), q: x.q.toFixed(4) };
      row.mark.textContent = ` ${t(lang, x.discovery ? 'quiz.yes' : 'quiz.no', fig)} ${t(lang, right ? 'quiz.right' : 'quiz.wrong')}`;
    });
    const traps = read.filter((x) => x.trap).length;
    this.status.dataset.state = wrong ? 'over' : 'passed';
    this.status.textContent = wrong
      ? t(lang, 'quiz.missed', { wrong, n: read.length, level: pct })
      : traps
        ? t(lang, 'quiz.passed', { traps, level: pct })
        : t(lang, 'quiz.passedPlain');
    if (!wrong && !this.passed) {
      this.passed = true;
      this.#showKept();
      this.onPass({ passed: true, step: 0, accuracy: 1, setting: QUIZ_SETTING });
    }
  }

  #showKept() {
    this.box.dataset.passed = 'true';
    this.result.replaceChildren(el('strong', {}, t(this.lang, 'quiz.kept')), ' ', t(this.lang, 'check.saved'));
  }

  dispose() {
    this.submit.removeEventListener('click', this.onSubmit);
  }
}
