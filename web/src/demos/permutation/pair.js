// The permutation demo's training pair: position = none (side a) and the chosen encoding (side b)
// learn `order`, each on several seeds (seeds.js), all in one run set (run/run-set.js). A model
// trains until it has learned the task (held-out accuracy ≥ TARGET) or the step budget runs out,
// whichever comes first; the page says which happened for each side, and "Train longer" raises
// the budget for the models that ran out. The charts show the mean over seeds (a model that
// stopped keeps its last value), the scores mean and min–max.
import { RunSet } from '../../run/run-set.js';
import { pct, colorOf } from '../common.js';
import { summarize, pctSpread, ofSeeds, seedWords } from '../seeds.js';

/** Held-out accuracy at which a model has learned `order` and stops. */
export const TARGET = 0.95;

/** The pair's words for the run set's statuses. */
const STATUS = {
  building: 'building',
  idle: 'idle',
  learning: 'training',
  done: 'learned',
  budget: 'budget',
  stalled: 'error',
  refused: 'error',
};

/**
 * One model of the pair: its side, seed, run (run-set.js) and what it measured.
 * @typedef {{side: 'a'|'b', seed: number, run: import('../../run/run-set.js').SetRun, evals: {step: number, acc: number, loss: number}[],
 *   step: number, status: 'building'|'idle'|'training'|'learned'|'budget'|'error', learnedAt?: number, error?: string}} PairModel
 */

export class TrainingPair {
  /**
   * @param {import('./index.js').PermutationContext} ctx
   * @param {(playing: boolean) => void} onPlaying when the pair starts or stops
   */
  constructor({ pool, base, ui, s, tr, lang, complete }, onPlaying) {
    this.complete = complete;
    this.tr = tr;
    this.lang = lang;
    this.base = base;
    this.ui = ui;
    this.s = s;
    this.onPlaying = onPlaying;
    this.set = new RunSet(pool, {
      hooks: {
        metrics: (run, batch) => this.#metrics(run.data, batch),
        status: (run) => this.#status(run.data),
        draw: () => this.redraw(),
      },
    });
  }

  /** @returns {PairModel[]} */
  get models() {
    return this.set.runs.map((r) => r.data);
  }

  /** @param {PairModel} rec @param {import('../../run/run-controller.js').MetricsBatch} batch */
  #metrics(rec, { evals, step }) {
    rec.step = step;
    // the engine also evaluates at other lengths (`length`): the task is learned at the training length
    for (const ev of evals.filter((e) => e.length === this.base.seq_len))
      rec.evals.push({ step: ev.step, acc: ev.token_accuracy, loss: ev.loss });
  }

  /** @param {PairModel} rec */
  #status(rec) {
    const run = rec.run;
    rec.step = run.step;
    rec.status = /** @type {PairModel['status']} */ (STATUS[run.status]);
    if (run.status === 'done') rec.learnedAt = run.reachedAt;
    if (rec.status === 'error') rec.error = run.error;
    this.stateChanged();
  }

  /**
   * The mean curve of one side: at each evaluated step, the mean over its seeds, once every seed
   * has a value there (a stopped model keeps its last one).
   * @param {'a'|'b'} side
   * @returns {{step: number, acc: number, loss: number}[]}
   */
  meanCurve(side) {
    const recs = this.models.filter((r) => r.side === side);
    const steps = [...new Set(recs.flatMap((r) => r.evals.map((e) => e.step)))].sort((x, y) => x - y);
    const out = [];
    for (const st of steps) {
      const at = recs.map((r) => {
        const exact = r.evals.find((e) => e.step === st);
        if (exact) return exact;
        const lastEval = r.evals[r.evals.length - 1];
        const stopped = r.status === 'learned' || r.status === 'budget';
        return stopped && lastEval && lastEval.step < st ? lastEval : null;
      });
      if (at.some((e) => e === null)) break;
      const ok = /** @type {{acc: number, loss: number}[]} */ (at);
      out.push({
        step: st,
        acc: ok.reduce((x, e) => x + e.acc, 0) / ok.length,
        loss: ok.reduce((x, e) => x + e.loss, 0) / ok.length,
      });
    }
    return out;
  }

  redraw() {
    const { ui } = this;
    const curves = { a: this.meanCurve('a'), b: this.meanCurve('b') };
    const steps = [...new Set([...curves.a, ...curves.b].map((p) => p.step))].sort((x, y) => x - y);
    for (const chart of [ui.acc, ui.loss]) chart.reset();
    for (const st of steps) {
      const pa = curves.a.find((p) => p.step === st);
      const pb = curves.b.find((p) => p.step === st);
      ui.acc.addDataPoint(st, { a: pa?.acc, b: pb?.acc });
      ui.loss.addDataPoint(st, { a: pa?.loss, b: pb?.loss });
    }
    this.showCounters();
  }

  /** @param {'a'|'b'} side */
  sideSummary(side) {
    const recs = this.models.filter((r) => r.side === side);
    const acc = summarize(recs.map(finalAcc));
    const learned = recs.filter((r) => r.status === 'learned');
    const out = recs.filter((r) => r.status === 'budget');
    const errors = recs.filter((r) => r.status === 'error');
    const done = recs.length > 0 && learned.length + out.length + errors.length === recs.length;
    return { recs, acc, learned, out, errors, done };
  }

  /** The sentence that says what happened to one side. @param {'a'|'b'} side @param {string} name */
  sideWords(side, name) {
    const { s, tr, lang } = this;
    const { recs, acc, learned, out, errors, done } = this.sideSummary(side);
    const n = recs.length;
    const who = tr('perm.who', { name });
    const target = `${Math.round(TARGET * 100)}%`;
    if (errors.length)
      return tr('perm.side.error', { who, seeds: ofSeeds(errors.length, n, lang), error: String(errors[0].error) });
    const at = summarize(learned.map((r) => r.learnedAt));
    const learnedWords = learned.length
      ? tr('perm.side.learned', {
          target,
          seeds: ofSeeds(learned.length, n, lang),
          at: at && at.min !== at.max ? `${at.min}–${at.max}` : String(at?.min),
        })
      : '';
    if (!done) {
      const live = recs.filter((r) => r.status !== 'learned').map((r) => r.step);
      const step = Math.min(...live, s.budget);
      return tr('perm.side.training', {
        who,
        learned: learnedWords ? `${learnedWords}${tr('perm.sep')}` : '',
        step,
        budget: s.budget,
      });
    }
    if (out.length === 0) return tr('perm.side.done', { who, learned: learnedWords, acc: pctSpread(acc) });
    const outAcc = summarize(out.map(finalAcc));
    const seeds = ofSeeds(out.length, n, lang);
    const also = learnedWords ? `${tr('perm.sep')}${learnedWords}` : '';
    return tr('perm.side.budget', { who, budget: s.budget, seeds, target, acc: pctSpread(outAcc), learned: also });
  }

  showCounters() {
    const { ui, s, models } = this;
    const a = this.sideSummary('a');
    const b = this.sideSummary('b');
    const live = models.filter((r) => r.status !== 'learned').map((r) => r.step);
    ui.counter.textContent = this.tr('perm.counter', {
      step: live.length ? Math.min(...live) : Math.max(0, ...models.map((r) => r.step)),
      budget: s.budget,
      seeds: seedWords(s.seeds, this.lang),
    });
    ui.scoreA.textContent = pctSpread(a.acc);
    ui.scoreB.textContent = pctSpread(b.acc);
    ui.outcomeA.textContent = this.sideWords('a', 'none');
    ui.outcomeB.textContent = this.sideWords('b', s.encoding);
    const d = ui.box.dataset;
    d.accNone = a.acc ? String(a.acc.mean) : '';
    d.accEncoding = b.acc ? String(b.acc.mean) : '';
    d.accNoneMin = a.acc ? String(a.acc.min) : '';
    d.accEncodingMin = b.acc ? String(b.acc.min) : '';
    d.accEncodingMax = b.acc ? String(b.acc.max) : '';
    d.seeds = s.seeds.join(',');
    d.budget = String(s.budget);
    d.outcomeNone = a.done ? (a.out.length ? 'budget' : 'learned') : '';
    d.outcomeEncoding = b.done ? (b.out.length ? 'budget' : 'learned') : '';
    d.learnedEncoding = String(b.learned.length);
    d.learnedNone = String(a.learned.length);
  }

  /** The goal at the current budget. */
  #goal() {
    return { until: this.s.budget, target: TARGET, every: 5 };
  }

  /** Models that can still train within the budget. */
  trainable() {
    this.set.goal = this.#goal();
    return this.set.trainable();
  }

  stateChanged() {
    const { ui, s, models, tr } = this;
    const playing = this.set.playing;
    s.playing = playing;
    const canTrain = this.trainable().length > 0;
    const allLearned = models.length > 0 && models.every((r) => r.status === 'learned');
    ui.play.textContent = playing
      ? tr('perm.pause')
      : canTrain
        ? tr('perm.play')
        : allLearned
          ? tr('perm.learned')
          : tr('perm.trainLonger', { n: s.extra });
    ui.play.disabled = !playing && allLearned;
    ui.play.title = allLearned ? tr('perm.allLearnedTitle') : '';
    ui.box.dataset.playing = String(playing);
    ui.box.dataset.canTrain = String(canTrain);
    ui.playNote.textContent =
      playing || canTrain
        ? ''
        : allLearned
          ? tr('perm.allLearned')
          : tr('perm.doneNote', { budget: s.budget, extra: s.extra });
    this.set.schedule();
    this.onPlaying(playing);
    const finished = ['learned', 'budget', 'error'];
    this.complete(!playing && !canTrain && models.length > 0 && models.every((r) => finished.includes(r.status)));
  }

  /** The charts and the names for the current encoding and seeds. */
  #label() {
    const { ui, s } = this;
    for (const chart of [ui.acc, ui.loss]) {
      chart.reset();
      chart.series[1].color = colorOf(s.encoding);
      const n = s.seeds.length;
      chart.setLabels({
        b: this.tr('perm.meanOf', { name: s.encoding, n }),
        a: this.tr('perm.meanOf', { name: 'none', n }),
      });
    }
    ui.nameB.textContent = s.encoding;
    ui.nameB.style.color = colorOf(s.encoding);
  }

  /** New models for the current encoding and seeds (the old ones are disposed); false when overtaken. */
  async build() {
    const { s } = this;
    s.models = { a: null, b: null };
    await this.set.clear();
    this.#label();
    for (const side of /** @type {('a'|'b')[]} */ (['a', 'b']))
      for (const seed of s.seeds) {
        /** @type {PairModel} */
        const rec = /** @type {any} */ ({ side, seed, evals: [], step: 0, status: 'building' });
        rec.run = this.set.add(
          { ...this.base, seed, position: side === 'a' ? 'none' : s.encoding },
          { key: `${side}|${seed}`, data: rec },
        );
      }
    const mine = this.set.runs;
    await this.set.built();
    if (this.set.runs !== mine || s.disposed || mine.some((r) => !r.ctl.model)) return false;
    s.models = {
      a: mine[0].ctl.model,
      b: /** @type {PairModel} */ (this.models.find((r) => r.side === 'b')).run.ctl.model,
    };
    this.stateChanged();
    return true;
  }

  /** Train what can still train; when nothing can, raise the budget first ("Train longer"). */
  async play() {
    const { s } = this;
    if (this.trainable().length === 0) {
      if (this.models.every((r) => r.status === 'learned')) return;
      s.budget += s.extra;
    }
    await this.set.play(this.#goal());
  }

  pause() {
    return this.set.pause();
  }

  dispose() {
    return this.set.dispose();
  }

  /** Per model: side, seed, status, the step it stopped at, its final accuracy. */
  results() {
    const { s } = this;
    return this.models.map((r) => ({
      position: r.side === 'a' ? 'none' : s.encoding,
      seed: r.seed,
      status: r.status,
      step: r.step,
      learnedAt: r.learnedAt,
      accuracy: finalAcc(r),
    }));
  }
}

/** The final held-out accuracy of a model (its last evaluation). @param {PairModel} r */
const finalAcc = (r) => r.evals[r.evals.length - 1]?.acc;
