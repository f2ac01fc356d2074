// The playground's guided challenges: a goal, a starting setup, hints, and a success check that
// the engine's own metrics decide (held-out token accuracy at the training length, or the
// engine's evaluation at a longer length). A challenge may keep some settings fixed (the probe
// must be solved with RoPE and softmax, not by switching to learned positions). Each has a known
// solution, which the browser test applies (tests/browser/challenges.test.mjs). One table: adding
// a challenge is one entry. No DOM.

/** @typedef {import('../state/properties.js').State} State */
/**
 * @typedef {object} Challenge
 * @property {string} id
 * @property {string} title
 * @property {string} goal what to reach, in words
 * @property {Record<string, string|number|boolean>} start the setup it starts from (over the task's defaults)
 * @property {string[]} keep settings that must stay as they start
 * @property {string[]} hints
 * @property {{min: number, lengthFactor?: number}} check held-out token accuracy ≥ min, at the training
 *   length, or at lengthFactor × the training length (once the training length is solved)
 * @property {Record<string, string|number|boolean>} solution a known answer (for the test)
 */

/** @type {Challenge[]} */
export const CHALLENGES = [
  {
    id: 'order',
    title: 'Give attention a sense of order',
    goal: 'On order (does A come before B?), reach 95% held-out accuracy within 600 steps.',
    start: { task: 'order', position: 'none', steps: 600 },
    keep: ['task'],
    hints: [
      'Reorder the tokens and attention without positions computes the same thing, reordered: A before B and B before A look alike.',
      'Something must tell the model where each token stands. Look at the position settings.',
    ],
    check: { min: 0.95 },
    solution: { position: 'rope' },
  },
  {
    id: 'probe',
    title: 'Make RoPE count positions on the probe',
    goal: 'The probe feeds n identical tokens; each position must output its own index. With RoPE and softmax, reach 90% held-out accuracy.',
    start: {
      task: 'probe',
      position: 'rope',
      normalization: 'softmax',
      d_model: 32,
      heads: 4,
      layers: 2,
      seq_len: 8,
      batch: 16,
      steps: 600,
    },
    keep: ['task', 'position', 'normalization'],
    hints: [
      'RoPE only tells attention how far apart two tokens are. With identical tokens every row of attention weights sums to 1 over identical values: the output is the same at every position.',
      'Give the sequence a landmark whose distance each position can measure. Look at the anchors setting.',
    ],
    check: { min: 0.9 },
    solution: { anchors: 'cls_sep' },
  },
  {
    id: 'extrapolate',
    title: 'Extrapolate to 4× the training length',
    goal: 'Train copy_back at length 8 and reach 95% held-out accuracy at length 32, four times longer than anything seen in training.',
    start: { task: 'copy_back', position: 'learned', seq_len: 8, eval_len: 32, steps: 600 },
    keep: ['task', 'seq_len', 'eval_len'],
    hints: [
      'Learned positions have a table of 8 rows: at length 32 there is nothing to look up.',
      'The task needs only the distance to the previous token. Encodings of relative distance can carry it to lengths they never saw; some do it better than others (try the Accuracy against length panel).',
    ],
    check: { min: 0.95, lengthFactor: 4 },
    solution: { position: 'fire' },
  },
];

/** The challenge with this id (undefined: none). @param {string|null|undefined} id */
export const challengeById = (id) => CHALLENGES.find((c) => c.id === id);

/**
 * The settings of `state` that the challenge keeps but that changed, as "key = start value".
 * @param {Challenge} c
 * @param {State} state
 */
export function brokenKeeps(c, state) {
  return c.keep.filter((k) => k in c.start && state[k] !== c.start[k]).map((k) => `${k} = ${c.start[k]}`);
}

/**
 * Whether an evaluation meets the challenge's goal.
 * @param {Challenge} c
 * @param {{token_accuracy: number}} ev
 */
export const meets = (c, ev) => ev.token_accuracy >= c.check.min;

/**
 * The engine's evaluation that decides the challenge, from a batch of periodic evaluations (the
 * run's own, at the training length and at eval_len, in step order): the first at the checked
 * length that meets the goal, else the last at that length (undefined: none in the batch).
 * @template {{token_accuracy: number, length: number, step: number}} E
 * @param {Challenge} c
 * @param {E[]} evals
 * @param {number} L the training length
 * @returns {E|undefined}
 */
export function decisive(c, evals, L) {
  const at = evals.filter((e) => e.length === L * (c.check.lengthFactor ?? 1));
  return at.find((e) => meets(c, e)) ?? at.at(-1);
}

/** The link that starts a challenge: its setup and its id. @param {Challenge} c */
export const challengeHash = (c) =>
  `#${Object.entries(c.start)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&')}&challenge=${c.id}`;
