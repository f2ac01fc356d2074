// A lesson's check in the page: the <aside data-check="ID" data-for="WIDGET-ID"> of the lesson,
// filled with the goal (from the message table, its numbers from the challenge) and the reader's
// standing, judged (checks.js) at each `step` and `trained` event of the widget it is for. A pass
// is kept in this browser (state/course.js) and shown again after a reload.
import { el } from '../../panels/dom.js';
import { t } from './messages.mjs';
import { CHECKS, checkChallenge, judge } from './checks.js';

/** @typedef {import('../../common/messages.js').Lang} Lang */
/** @typedef {import('../../state/course.js').CheckResult} CheckResult */

const pct = (/** @type {number|null} */ v) => (v == null ? '–' : `${Math.round(100 * v)}%`);

export class LessonCheck {
  /**
   * @param {HTMLElement} box the lesson's aside
   * @param {Lang} lang
   * @param {CheckResult|null} kept the result kept from an earlier visit
   * @param {(r: CheckResult) => void} onPass called once when the check passes
   */
  constructor(box, lang, kept, onPass) {
    this.box = box;
    this.lang = lang;
    this.kept = kept;
    this.onPass = onPass;
    this.id = box.dataset.check ?? '';
    const c = checkChallenge(this.id);
    if (!c) throw new Error(`a lesson names the check "${this.id}", which checks.js does not define`);
    this.challenge = c;
    this.widget = /** @type {any} */ (document.getElementById(box.dataset.for ?? ''));
    if (!this.widget)
      throw new Error(`the check "${this.id}" is for the widget "${box.dataset.for}", not in the lesson`);
    this.status = el('p', { class: 'check-status', role: 'status', 'aria-live': 'polite' });
    this.result = el('p', { class: 'check-result' });
    const goal = t(lang, CHECKS[this.id].goal, {
      min: pct(c.check.min),
      steps: Number(c.start.steps),
      len: String(c.start.seq_len ?? ''),
      factor: String(c.check.lengthFactor ?? 1),
    });
    box.classList.add('course-check');
    box.replaceChildren(el('h3', {}, t(lang, 'check.title')), el('p', {}, goal), this.status, this.result);
    this.listener = (/** @type {Event} */ e) => this.#onMetrics(/** @type {CustomEvent} */ (e).detail);
    this.widget.addEventListener('step', this.listener);
    this.widget.addEventListener('trained', this.listener);
    this.#show({ state: 'waiting', step: 0, accuracy: null, setting: '' });
    if (kept?.passed) this.#showKept(kept);
  }

  /** The fields the reader may change: the widget's controls that are config fields. */
  get fields() {
    const controls = (this.widget.getAttribute('controls') ?? '').split(/[\s,]+/);
    return controls.filter((/** @type {string} */ f) => f && !['play', 'step', 'reset', 'all', 'none'].includes(f));
  }

  /** @param {{step: number, evalAccuracy: number|null, longAccuracy?: number|null}} detail */
  #onMetrics(detail) {
    const j = judge(this.challenge, this.widget.config ?? null, detail, this.fields);
    this.#show(j);
    if (j.state === 'passed' && !this.kept?.passed) {
      this.kept = { passed: true, step: j.step, accuracy: /** @type {number} */ (j.accuracy), setting: j.setting };
      this.#showKept(this.kept);
      this.onPass(this.kept);
    }
  }

  /** @param {import('./checks.js').Judgement} j */
  #show(j) {
    const { lang } = this;
    const p = { step: j.step, acc: pct(j.accuracy), setting: j.setting, steps: Number(this.challenge.start.steps) };
    const text = {
      waiting: () => t(lang, 'check.waiting'),
      progress: () => t(lang, 'check.progress', p),
      passed: () => t(lang, 'check.progress', p),
      over: () => t(lang, 'check.over', p),
      kept: () => t(lang, 'check.kept', { field: j.kept?.field ?? '', value: j.kept?.value ?? '' }),
      allowed: () => t(lang, 'check.allowed', { field: j.kept?.field ?? '', value: j.kept?.value ?? '' }),
    }[j.state]();
    if (this.status.textContent !== text) this.status.textContent = text;
    this.status.dataset.state = j.state;
  }

  /** @param {CheckResult} r */
  #showKept(r) {
    this.box.dataset.passed = 'true';
    const { lang } = this;
    this.result.replaceChildren(
      el('strong', {}, t(lang, 'check.passed', { setting: r.setting, acc: pct(r.accuracy), step: r.step })),
      ' ',
      t(lang, 'check.saved'),
    );
  }

  dispose() {
    this.widget.removeEventListener('step', this.listener);
    this.widget.removeEventListener('trained', this.listener);
  }
}
