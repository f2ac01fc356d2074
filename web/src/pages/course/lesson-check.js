// A lesson's check in the page: the <aside data-check="ID" data-for="WIDGET-ID"> of the lesson,
// filled with the goal (from the message table, its numbers from the challenge) and the reader's
// standing, judged (checks.js) at each `step` and `trained` event of the widget it is for. A pass
// is kept in this browser (state/course.js) and shown again after a reload.
// Before each model trains (the widget's `model` event: the first, and each one a setting makes),
// the reader records a prediction, "it will reach the goal" or "it will not", which plays it (the
// lesson does not start a check's widget by itself: lesson-widgets.js). When the model has passed,
// or trained its budget without passing, the attempt goes into the check's log beside its
// prediction: what the reader expected, and what the engine measured.
import { el } from '../../panels/dom.js';
import { t } from './messages.mjs';
import { CHECKS, checkChallenge, judge } from './checks.js';

/** @typedef {import('../../common/messages.js').Lang} Lang */
/** @typedef {import('../../state/course.js').CheckResult} CheckResult */
/**
 * @typedef {{config: string, setting: string, prediction: 'pass'|'fail'|null, started: boolean,
 *   outcome: import('./checks.js').Judgement|null}} Attempt one model the reader trains: its config
 *   (JSON, to tell models apart), its setting as the check names it, the prediction recorded before
 *   it trained, and how it ended (passed, or its budget spent; null while it trains)
 */
/** The attempts shown in the log, newest first. */
const LOG = 5;

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
    this.predict = el('div', { class: 'check-predict' });
    this.log = el('ul', { class: 'check-log', 'aria-label': t(lang, 'check.logLabel') });
    this.result = el('p', { class: 'check-result' });
    /** @type {Attempt|null} */ this.attempt = null;
    /** @type {Attempt[]} */ this.attempts = [];
    const goal = t(lang, CHECKS[this.id].goal, {
      min: pct(c.check.min),
      steps: Number(c.start.steps),
      len: String(c.start.seq_len ?? ''),
      factor: String(c.check.lengthFactor ?? 1),
    });
    box.classList.add('course-check');
    box.replaceChildren(
      el('h3', {}, t(lang, 'check.title')),
      el('p', {}, goal),
      this.predict,
      this.status,
      this.log,
      this.result,
    );
    this.log.hidden = true;
    this.listener = (/** @type {Event} */ e) => this.#onMetrics(/** @type {CustomEvent} */ (e));
    this.onModel = (/** @type {Event} */ e) => this.#newAttempt(/** @type {CustomEvent} */ (e).detail?.config);
    this.widget.addEventListener('metrics', this.listener);
    this.widget.addEventListener('trained', this.listener);
    this.widget.addEventListener('model', this.onModel);
    if (this.widget.config) this.#newAttempt(this.widget.config); // built before this check
    this.#show({ state: 'waiting', step: 0, accuracy: null, setting: '' });
    if (kept?.passed) this.#showKept(kept);
  }

  /** The fields the reader may change: the widget's controls that are config fields. */
  get fields() {
    const controls = (this.widget.getAttribute('controls') ?? '').split(/[\s,]+/);
    return controls.filter((/** @type {string} */ f) => f && !['play', 'step', 'reset', 'all', 'none'].includes(f));
  }

  /** The setting of `config` as the check names it ("position = rope"). @param {Record<string, unknown>} config */
  #setting(config) {
    return judge(this.challenge, config, { step: 0, evalAccuracy: null }, this.fields).setting;
  }

  /** A new model: a new attempt, which waits for the reader's prediction. @param {Record<string, unknown>|undefined} config */
  #newAttempt(config) {
    if (!config) return;
    const key = JSON.stringify(config);
    if (this.attempt?.config === key && !this.attempt.started) return; // the same model, announced again
    this.attempt = { config: key, setting: this.#setting(config), prediction: null, started: false, outcome: null };
    this.#showPredict();
    this.#show({ state: 'waiting', step: 0, accuracy: null, setting: this.attempt.setting }); // the last model's words go
  }

  /** The prediction's prompt (before the model trains) or the prediction recorded. */
  #showPredict() {
    const a = this.attempt;
    const { lang } = this;
    if (!a) return this.predict.replaceChildren();
    if (a.prediction) {
      const said = t(lang, a.prediction === 'pass' ? 'check.predictedPass' : 'check.predictedFail');
      return this.predict.replaceChildren(el('p', {}, t(lang, 'check.predicted', { setting: a.setting, said })));
    }
    if (a.started) return this.predict.replaceChildren(el('p', { class: 'muted' }, t(lang, 'check.unpredicted')));
    const choose = (/** @type {'pass'|'fail'} */ guess) => {
      a.prediction = guess;
      this.#showPredict();
      this.widget.play();
    };
    this.predict.replaceChildren(
      el('p', {}, t(lang, 'check.predict', { setting: a.setting })),
      el(
        'div',
        { class: 'check-choices' },
        el(
          'button',
          { type: 'button', dataset: { guess: 'pass' }, onclick: () => choose('pass') },
          t(lang, 'check.willPass'),
        ),
        el(
          'button',
          { type: 'button', dataset: { guess: 'fail' }, onclick: () => choose('fail') },
          t(lang, 'check.willFail'),
        ),
      ),
    );
  }

  /** @param {CustomEvent} e a `step` or `trained` event */
  #onMetrics(e) {
    const detail = e.detail;
    const config = this.widget.config ?? null;
    const j = judge(this.challenge, config, detail, this.fields);
    this.#show(j);
    const a = this.attempt;
    if (a && !a.outcome && detail.step > 0) {
      if (!a.started) {
        a.started = true;
        if (!a.prediction) this.#showPredict();
      }
      const ended = j.state === 'passed' || e.type === 'trained' || j.state === 'over';
      if (ended && a.config === JSON.stringify(config)) this.#end(a, j);
    }
    if (j.state === 'passed' && !this.kept?.passed) {
      this.kept = { passed: true, step: j.step, accuracy: /** @type {number} */ (j.accuracy), setting: j.setting };
      if (this.attempt?.prediction) this.kept.prediction = this.attempt.prediction;
      this.#showKept(this.kept);
      this.onPass(this.kept);
    }
  }

  /** An attempt ends: into the log, its prediction beside what it reached. @param {Attempt} a @param {import('./checks.js').Judgement} j */
  #end(a, j) {
    a.outcome = j;
    this.attempts = [a, ...this.attempts].slice(0, LOG);
    const { lang } = this;
    this.log.replaceChildren(
      ...this.attempts.map((x) => {
        const o = /** @type {import('./checks.js').Judgement} */ (x.outcome);
        const passed = o.state === 'passed';
        const off = o.state === 'kept' || o.state === 'allowed';
        const reached = t(lang, passed ? 'check.logPassed' : off ? 'check.logOff' : 'check.logFailed', {
          acc: pct(o.accuracy),
          step: o.step,
        });
        const said = x.prediction
          ? t(lang, (x.prediction === 'pass') === passed ? 'check.logRight' : 'check.logWrong', {
              said: t(lang, x.prediction === 'pass' ? 'check.predictedPass' : 'check.predictedFail'),
            })
          : t(lang, 'check.logNone');
        return el(
          'li',
          { dataset: { outcome: passed ? 'passed' : off ? 'off' : 'failed', prediction: x.prediction ?? 'none' } },
          el('strong', {}, x.setting),
          t(lang, 'check.logEntry', { reached, said }),
        );
      }),
    );
    this.log.hidden = false;
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
    const said = r.prediction
      ? t(lang, 'check.keptPrediction', {
          said: t(lang, r.prediction === 'pass' ? 'check.predictedPass' : 'check.predictedFail'),
        })
      : '';
    this.result.replaceChildren(
      el('strong', {}, t(lang, 'check.passed', { setting: r.setting, acc: pct(r.accuracy), step: r.step })),
      ' ',
      said ? `${said} ` : '',
      t(lang, 'check.saved'),
    );
  }

  dispose() {
    this.widget.removeEventListener('metrics', this.listener);
    this.widget.removeEventListener('trained', this.listener);
    this.widget.removeEventListener('model', this.onModel);
  }
}
