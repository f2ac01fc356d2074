// What the Interventions panel shows of one InterventionResult (wasm-api.d.ts): the change of
// the held-out loss and accuracy in words ("loss 0.12 → 1.85, accuracy 99.0% → 41.0%"), and the
// held-out examples' predictions of the unmodified and the intervened model, one above the other,
// with the positions whose prediction changed marked. Text only (textContent through el()). The
// words: the message table's panels part (`iv.*`, `pred.*`), loaded before, through `tr`.
import { el } from './dom.js';
import { translator } from '../common/messages.js';

/** @typedef {ReturnType<typeof translator>} Tr */

/** @typedef {import('../wasm-api').InterventionResult} InterventionResult */
/** @typedef {import('../wasm-api').PredictionExample} Example */

/** @param {number} x */
const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : 'NaN');
/** @param {number} x */
const num = (x) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 3 : 1) : 'NaN');

/**
 * The change in words: held-out loss and token accuracy (and sequence accuracy when it moved).
 * @param {InterventionResult} r @param {Tr} [tr] the words' language (default English)
 */
export function describeChange(r, tr = translator('en')) {
  const a = r.base,
    b = r.intervened;
  let text = tr('iv.change', {
    a: num(a.loss),
    b: num(b.loss),
    c: pct(a.token_accuracy),
    d: pct(b.token_accuracy),
  });
  if (a.sequence_accuracy !== b.sequence_accuracy)
    text += tr('iv.changeSeq', { a: pct(a.sequence_accuracy), b: pct(b.sequence_accuracy) });
  return text;
}

/**
 * How many predicted positions (scored ones) changed between the two runs.
 * @param {InterventionResult} r
 */
export function changedPositions(r) {
  const p = r.predictions;
  if (!p) return 0;
  let n = 0;
  p.base.examples.forEach((ex, k) => {
    const other = p.intervened.examples[k];
    ex.prediction.forEach((t, i) => {
      if ((ex.mask?.[i] ?? true) && other.prediction[i] !== t) n++;
    });
  });
  return n;
}

/** @param {string} text @param {string} cls @param {string} [title] */
const tok = (text, cls, title) => el('span', { class: cls, title }, text === '' ? '·' : text);

/**
 * One example both ways: input, target, the model's prediction, and the intervened one.
 * @param {Example} base @param {Example} edited @param {number} k @param {Tr} tr
 */
function exampleRows(base, edited, k, tr) {
  const targets = Array.isArray(base.target) ? base.target : [base.target];
  const mask = base.mask ?? targets.map(() => true);
  const cls = (/** @type {string} */ t, /** @type {number} */ i, /** @type {boolean} */ changed) =>
    `tok ${!mask[i] ? 'off' : t === targets[i] ? 'right' : 'wrong'}${changed ? ' changed' : ''}`;
  const row = (/** @type {string} */ label, /** @type {(Node|string)[]} */ toks) =>
    el('div', { class: 'tok-row' }, el('span', { class: 'row-label' }, label), ...toks);
  return el(
    'div',
    { class: `example ${edited.correct ? 'correct' : 'incorrect'}`, 'aria-label': tr('pred.example', { k: k + 1 }) },
    base.inputs.length
      ? row(
          tr('pred.input'),
          base.inputs.map((t) => tok(t, 'tok')),
        )
      : null,
    row(
      tr('pred.target'),
      targets.map((t, i) => tok(mask[i] ? t : '', mask[i] ? 'tok' : 'tok off')),
    ),
    row(
      tr('pred.model'),
      base.prediction.map((t, i) => tok(t, cls(t, i, false))),
    ),
    row(
      tr('iv.edited'),
      edited.prediction.map((t, i) => {
        const changed = mask[i] && t !== base.prediction[i];
        return tok(t, cls(t, i, changed), changed ? tr('iv.was', { t: base.prediction[i] }) : undefined);
      }),
    ),
  );
}

/**
 * The examples of a result, both ways (nothing when it has none).
 * @param {InterventionResult} r @param {Tr} [tr] the words' language (default English)
 * @returns {HTMLElement[]}
 */
export function exampleViews(r, tr = translator('en')) {
  const p = r.predictions;
  if (!p) return [];
  return p.base.examples.map((ex, k) => exampleRows(ex, p.intervened.examples[k], k, tr));
}
