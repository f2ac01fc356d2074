// The playground's challenges panel (run/challenges.js has the table): a link per challenge that
// starts it (its setup and `challenge=id` in the URL hash, so the link is shareable), and for the
// active one its goal, hints and a status that the engine's periodic evaluations decide: not yet
// (with the measured accuracy), solved (at which step, with which settings), or a kept setting
// changed. Challenges work on the single run (not while comparing).
import { el } from '../../panels/dom.js';
import { CHALLENGES, challengeById, brokenKeeps, decisive, meets, challengeHash } from '../../run/challenges.js';
import { unaddressable } from './run-notes.js';
import { hashToState } from '../../state/hash.js';
import { differences } from '../../state/state.js';

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id)); // index.html has them
const pct = (/** @type {number} */ x) => `${(100 * x).toFixed(1)}%`;

export class PageChallenges {
  /** @param {import('./playground.js').Playground} pg */
  constructor(pg) {
    this.pg = pg;
    /** @type {import('../../run/challenges.js').Challenge|undefined} */
    this.active = undefined;
    /** @type {number|null} the step it was solved at in this run */
    this.solvedAt = null;
    $('challenges').replaceChildren(
      ...CHALLENGES.map((c) =>
        el(
          'li',
          { class: 'challenge', dataset: { challenge: c.id } },
          el('a', { href: challengeHash(c), class: 'challenge-start' }, c.title),
          el('span', { class: 'muted challenge-goal' }, c.goal),
        ),
      ),
    );
    this.status = $('challenge-status');
    $('challenge-leave').addEventListener('click', () => {
      this.fromHash(null);
      pg.rewriteHash();
    });
  }

  /** @param {string|null} id the challenge a link names (an unknown id: none) */
  fromHash(id) {
    this.active = challengeById(id);
    this.solvedAt = null;
    const box = $('challenge-active');
    box.hidden = !this.active;
    document
      .querySelectorAll('.challenge')
      .forEach((li) => li.toggleAttribute('data-active', li.getAttribute('data-challenge') === this.active?.id));
    if (!this.active) return;
    const c = this.active;
    $('challenge-title').textContent = c.title;
    $('challenge-goal').textContent = c.goal;
    $('challenge-hints').replaceChildren(...c.hints.map((h) => el('li', {}, h)));
    this.#say("Train the model (Play) and watch this line: the engine's held-out evaluations decide.", 'pending');
  }

  /** A new model (a new setup, a reset, an import). @param {import('../../wasm-api').SessionInfo} info */
  fresh(info) {
    const c = this.active;
    if (!c) return;
    this.solvedAt = null;
    const broken = brokenKeeps(c, this.pg.state);
    if (broken.length)
      return this.#say(`This challenge keeps ${broken.join(' and ')}; set it back to take part.`, 'broken');
    const why = c.check.lengthFactor ? unaddressable(info) : null;
    if (why)
      return this.#say(`Not yet: the goal is measured at length ${info.config.eval_len}, but ${why}.`, 'pending');
    this.#say("Train the model (Play) and watch this line: the engine's held-out evaluations decide.", 'pending');
  }

  /** The run's periodic evaluations. @param {import('../../wasm-api').EvalMetrics[]} evals */
  onEvals(evals) {
    const c = this.active;
    const info = this.pg.model?.info;
    if (!c || !info || this.solvedAt !== null || !evals.length || brokenKeeps(c, this.pg.state).length) return;
    const ev = decisive(c, evals, Number(info.config.seq_len));
    if (!ev) return;
    if (!meets(c, ev))
      return this.#say(
        `Not yet: held-out accuracy ${pct(ev.token_accuracy)} at length ${ev.length}, step ${ev.step} (the goal: ${pct(c.check.min)}).`,
        'pending',
      );
    this.solvedAt = ev.step;
    const start = hashToState(challengeHash(c), this.pg.props, this.pg.registry).state;
    const changed = differences(this.pg.state, start).filter((d) => d.split('=')[0] in start); // the settings, not an encoding's own options
    this.#say(
      `Solved: the held-out evaluation at step ${ev.step} reached accuracy ${pct(ev.token_accuracy)} at length ${ev.length}` +
        `${changed.length ? `, with ${changed.join(', ')}` : ''}. Copy the page's link to share your solution.`,
      'solved',
    );
  }

  /** @param {string} text @param {'pending'|'solved'|'broken'} kind */
  #say(text, kind) {
    this.status.textContent = text;
    this.status.dataset.state = kind;
  }
}
