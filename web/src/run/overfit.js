// Overfitting, detected from the curves a run already has (no DOM: the page feeds an OverfitWatch
// its metrics and the charts panel shows the sentence). A model overfits when its held-out loss has risen well above the lowest it reached
// while its training loss keeps falling: it is memorising the training data rather than learning
// what generalises. The rule, on the evaluations at the training length:
//   rise    the last two held-out losses are both above  min + max(MIN_RISE, REL_RISE · min)
//   falling the mean training loss of the last WINDOW steps is below the mean of the WINDOW
//           steps up to the minimum's step, by at least FALL (relative)
// Two evaluations (not one) so that one noisy batch raises no flag; the means so that the
// noise of single steps does not decide.

export const MIN_RISE = 0.1; // nats
export const REL_RISE = 0.15; // of the minimum
export const FALL = 0.03; // relative drop of the training loss since the minimum
export const WINDOW = 20; // training steps averaged

/**
 * @typedef {object} Overfit what the detector saw (numbers for the message and for tests)
 * @property {number} minStep the step of the lowest held-out loss
 * @property {number} minLoss
 * @property {number} step the last evaluation's step
 * @property {number} evalLoss the last held-out loss
 * @property {number} trainThen the mean training loss up to minStep
 * @property {number} trainNow the mean training loss of the last steps
 */

export class OverfitDetector {
  constructor() {
    /** @type {{step: number, loss: number}[]} */
    this.train = [];
    /** @type {{step: number, loss: number}[]} */
    this.evals = [];
  }

  reset() {
    this.train = [];
    this.evals = [];
  }

  /**
   * @param {number} step
   * @param {number} loss the training loss of that step
   */
  addTrain(step, loss) {
    if (Number.isFinite(loss)) this.train.push({ step, loss });
  }

  /**
   * @param {number} step
   * @param {number} loss the held-out loss at the training length
   */
  addEval(step, loss) {
    if (Number.isFinite(loss)) this.evals.push({ step, loss });
  }

  /**
   * Whether the run overfits now, with the figures that show it; null when it does not.
   * @returns {Overfit|null}
   */
  verdict() {
    const [last, before] = this.evals.slice(-2).reverse();
    if (this.evals.length < 3 || !last || !before) return null;
    const min = this.evals.reduce((m, e) => (e.loss < m.loss ? e : m), last);
    const bar = min.loss + Math.max(MIN_RISE, REL_RISE * min.loss);
    if (!(last.loss > bar && before.loss > bar && before.step > min.step)) return null;
    const upTo = this.train.filter((t) => t.step <= min.step).slice(-WINDOW);
    const recent = this.train.filter((t) => t.step > min.step).slice(-WINDOW);
    if (upTo.length === 0 || recent.length === 0) return null;
    const mean = (/** @type {{loss: number}[]} */ xs) => xs.reduce((s, x) => s + x.loss, 0) / xs.length;
    const trainThen = mean(upTo);
    const trainNow = mean(recent);
    if (!(trainNow < trainThen * (1 - FALL))) return null;
    return { minStep: min.step, minLoss: min.loss, step: last.step, evalLoss: last.loss, trainThen, trainNow };
  }
}

/**
 * The sentence a person reads about an overfitting run.
 * @param {Overfit} o
 * @param {string} [task] the task's name: 'text' speaks of the training text
 */
export function overfitMessage(o, task) {
  const what = task === 'text' ? 'training text' : 'training examples';
  const more = task === 'text' ? 'more text' : 'more data';
  return (
    `Overfitting: the held-out loss has risen from its minimum ${o.minLoss.toFixed(2)} (step ${o.minStep}) ` +
    `to ${o.evalLoss.toFixed(2)} (step ${o.step}) while the training loss keeps falling ` +
    `(${o.trainThen.toFixed(2)} → ${o.trainNow.toFixed(2)}): the model is memorising the ${what} ` +
    `instead of learning what generalises. Try dropout, a smaller model (d_model, layers) or ${more}.`
  );
}

/** @typedef {import('../wasm-api').StepMetrics} StepMetrics */
/** @typedef {import('../wasm-api').EvalMetrics} EvalMetrics */

/**
 * One run's overfitting notice, fed with its metrics events: the evaluations at the training
 * length count, and the verdict is read again after each batch that holds evaluations.
 */
export class OverfitWatch {
  constructor() {
    this.detector = new OverfitDetector();
    /** @type {number|undefined} the training length */
    this.seqLen = undefined;
    /** @type {string|undefined} the run's task (the notice names its data) */
    this.task = undefined;
  }

  /** A new model, a reset or an import: start over. @param {number} seqLen @param {string} task */
  reset(seqLen, task) {
    this.detector.reset();
    this.seqLen = seqLen;
    this.task = task;
  }

  /**
   * @param {{steps: StepMetrics[], evals: EvalMetrics[]}} batch
   * @returns {string|null|undefined} the notice's sentence (null: none; undefined: the batch
   *   holds no evaluation, the notice stays as it is)
   */
  add({ steps, evals }) {
    for (const m of steps) this.detector.addTrain(m.step, m.loss);
    for (const e of evals) if (e.length === this.seqLen) this.detector.addEval(e.step, e.loss);
    if (!evals.length) return undefined;
    const v = this.detector.verdict();
    return v ? overfitMessage(v, this.task) : null;
  }
}
