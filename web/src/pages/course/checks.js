// A lesson's check: it asks the reader to make the widget beside it do something, and judges the
// result from the engine's own held-out evaluation, as the playground's challenges do
// (run/challenges.js: the goal, the settings it keeps, the threshold). One table: a check names
// its challenge; a lesson writes <aside data-check="ID" data-for="WIDGET-ID"></aside> after a
// widget that starts from that challenge's setup. No DOM.
import { challengeById, meets } from '../../run/challenges.js';

/** check id -> the challenge that judges it and the message of its goal. @type {Record<string, {challenge: string, goal: string}>} */
export const CHECKS = {
  order: { challenge: 'order', goal: 'check.goal.order' },
  probe: { challenge: 'probe', goal: 'check.goal.probe' },
};

/**
 * The challenge of check `id` (null: no such check).
 * @param {string} id
 */
export function checkChallenge(id) {
  const c = Object.hasOwn(CHECKS, id) ? challengeById(CHECKS[id].challenge) : undefined;
  return c ?? null;
}

/**
 * @typedef {{state: 'waiting'|'progress'|'kept'|'over'|'passed', step: number, accuracy: number|null,
 *   setting: string, kept?: {field: string, value: string}}} Judgement
 */

/**
 * How the widget stands against the check: its config (the element's `config`), its step and its
 * latest held-out accuracy at the training length (the `step` event's evalAccuracy).
 * @param {import('../../run/challenges.js').Challenge} c
 * @param {Record<string, unknown>|null} config
 * @param {{step: number, evalAccuracy: number|null}} metrics
 * @param {string[]} fields the settings the reader may change (shown as the setting)
 * @returns {Judgement}
 */
export function judge(c, config, { step, evalAccuracy }, fields) {
  const setting = config ? fields.map((f) => `${f} = ${String(config[f])}`).join(', ') : '';
  const base = { step, accuracy: evalAccuracy, setting };
  if (!config) return { ...base, state: 'waiting' };
  const broken = c.keep.find((k) => k in c.start && String(config[k]) !== String(c.start[k]));
  if (broken) return { ...base, state: 'kept', kept: { field: broken, value: String(c.start[broken]) } };
  if (evalAccuracy == null) return { ...base, state: step > 0 ? 'progress' : 'waiting' };
  const budget = Number(c.start.steps ?? Infinity);
  if (step <= budget && meets(c, { token_accuracy: evalAccuracy })) return { ...base, state: 'passed' };
  return { ...base, state: step > budget ? 'over' : 'progress' };
}
