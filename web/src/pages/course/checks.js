// A lesson's check: it asks the reader to make the widget beside it do something, and judges the
// result from the engine's own held-out evaluation, as the playground's challenges do
// (run/challenges.js: the goal, the settings it keeps, the threshold). One table: a check names
// a challenge of the playground, or holds one of the same shape that only the course asks (with,
// besides `keep`, the values a setting may take: `allowed`); a lesson writes
// <aside data-check="ID" data-for="WIDGET-ID"></aside> after a widget that starts from that
// challenge's setup. No DOM.
import { challengeById, meets } from '../../run/challenges.js';

/**
 * A challenge as the course judges it.
 * @typedef {Pick<import('../../run/challenges.js').Challenge, 'id'|'start'|'keep'|'check'> &
 *   {allowed?: Record<string, string[]>}} CourseChallenge
 */

/** The absolute encodings of the engine (added to the tokens), for lesson 2's check. */
const ABSOLUTE = ['learned', 'sinusoidal', 'scaled_sinusoidal'];
/** RoPE's scalings at evaluation (lesson 4's check: one of them, not none). */
const SCALINGS = ['pi', 'ntk', 'yarn'];

/**
 * check id -> the challenge that judges it (a playground challenge's id, or a course challenge) and
 * the message of its goal.
 * @type {Record<string, {challenge: string|CourseChallenge, goal: string}>}
 */
export const CHECKS = {
  order: { challenge: 'order', goal: 'check.goal.order' },
  // lesson 5: three levers (the encoding, the normalization, anchors), each the lesson's argument
  probe: {
    challenge: {
      id: 'probe',
      start: {
        task: 'probe',
        position: 'rope',
        normalization: 'softmax',
        anchors: 'none',
        d_model: 32,
        heads: 4,
        layers: 2,
        seq_len: 8,
        batch: 16,
        steps: 600,
      },
      keep: ['task'],
      check: { min: 0.9 },
    },
    goal: 'check.goal.probe',
  },
  // lesson 4: RoPE stays; the reader picks the scaling that carries copy_back to 4x (none is no answer)
  longer: {
    challenge: {
      id: 'longer',
      start: {
        task: 'copy_back',
        position: 'rope',
        rope_scaling: 'none',
        rope_factor: 4,
        seq_len: 8,
        eval_len: 32,
        steps: 600,
      },
      keep: ['task', 'position', 'seq_len', 'eval_len'],
      allowed: { rope_scaling: SCALINGS },
      check: { min: 0.95, lengthFactor: 4 },
    },
    goal: 'check.goal.longer',
  },
  relative: {
    challenge: {
      id: 'relative',
      start: { task: 'copy_back', position: 'learned', steps: 600 },
      keep: ['task'],
      check: { min: 0.9, lengthFactor: 2 },
    },
    goal: 'check.goal.relative',
  },
  absolute: {
    challenge: {
      id: 'absolute',
      start: { task: 'copy_back', position: 'none', steps: 600 },
      keep: ['task'],
      allowed: { position: ABSOLUTE },
      check: { min: 0.95 },
    },
    goal: 'check.goal.absolute',
  },
};

/**
 * The challenge of check `id` (null: no such check).
 * @param {string} id
 * @returns {CourseChallenge|null}
 */
export function checkChallenge(id) {
  if (!Object.hasOwn(CHECKS, id)) return null;
  const c = CHECKS[id].challenge;
  return (typeof c === 'string' ? challengeById(c) : c) ?? null;
}

/**
 * @typedef {{state: 'waiting'|'progress'|'kept'|'allowed'|'over'|'passed', step: number, accuracy: number|null,
 *   setting: string, kept?: {field: string, value: string}}} Judgement kept: the setting at fault and
 *   the value it must keep (state kept), or the values it may take, comma-separated (state allowed)
 */

/**
 * How the widget stands against the check: its config (the element's `config`), its step and its
 * latest held-out accuracy at the training length (the `step` event's evalAccuracy).
 * @param {CourseChallenge} c
 * @param {Record<string, unknown>|null} config
 * @param {{step: number, evalAccuracy: number|null, longAccuracy?: number|null}} metrics
 *   (with `check.lengthFactor`, the accuracy judged is longAccuracy: the widget's eval_len must be
 *   that many times its seq_len, which the lesson's widget sets)
 * @param {string[]} fields the settings the reader may change (shown as the setting)
 * @returns {Judgement}
 */
export function judge(c, config, { step, evalAccuracy: atLength, longAccuracy = null }, fields) {
  const evalAccuracy = c.check.lengthFactor ? longAccuracy : atLength;
  // (a field the config does not have, such as rope_scaling without RoPE, is left out: not "undefined")
  const setting = config
    ? fields
        .filter((f) => config[f] !== undefined)
        .map((f) => `${f} = ${String(config[f])}`)
        .join(', ')
    : '';
  const base = { step, accuracy: evalAccuracy, setting };
  if (!config) return { ...base, state: 'waiting' };
  const broken = c.keep.find((k) => k in c.start && String(config[k]) !== String(c.start[k]));
  if (broken) return { ...base, state: 'kept', kept: { field: broken, value: String(c.start[broken]) } };
  const off = Object.entries(c.allowed ?? {}).find(([k, values]) => !values.includes(String(config[k])));
  if (off && evalAccuracy != null)
    return { ...base, state: 'allowed', kept: { field: off[0], value: off[1].join(', ') } };
  if (evalAccuracy == null) return { ...base, state: step > 0 ? 'progress' : 'waiting' };
  const budget = Number(c.start.steps ?? Infinity);
  // the challenges' own rule (meets reads only `check`)
  const challenge = /** @type {import('../../run/challenges.js').Challenge} */ (c);
  if (step <= budget && meets(challenge, { token_accuracy: evalAccuracy })) return { ...base, state: 'passed' };
  return { ...base, state: step > budget ? 'over' : 'progress' };
}
