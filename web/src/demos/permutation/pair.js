// The permutation demo's training pair: position = none (side a) and the chosen encoding (side b)
// learn `order`, each on several seeds (seeds.js), every model through its own run controller
// (run/run-controller.js). A model trains until it has learned the task (held-out accuracy ≥
// TARGET) or the step budget runs out, whichever comes first; the page says which happened for
// each side, and "Train longer" raises the budget for the models that ran out. The charts show
// the mean over seeds (a model that stopped keeps its last value), the scores mean and min–max.
import { RunController, STOP_REASONS } from '../../run/run-controller.js';
import { pct, colorOf } from '../common.js';
import { summarize, pctSpread, ofSeeds, seedWords } from '../seeds.js';

/** Held-out accuracy at which a model has learned `order` and stops. */
export const TARGET = 0.95;

/**
 * One model of the pair: its side, seed, controller and what it measured.
 * @typedef {{side: 'a'|'b', seed: number, ctl: RunController, evals: {step: number, acc: number, loss: number}[],
 *   step: number, status: 'building'|'idle'|'training'|'learned'|'budget'|'error', learnedAt?: number, error?: string}} PairModel
 */

/**
 * @param {import('./index.js').PermutationContext} ctx
 * @param {(playing: boolean) => void} onPlaying when the pair starts or stops
 */
export function trainingPair({ pool, base, ui, s }, onPlaying) {
  /** @type {PairModel[]} */
  let models = [];
  let redrawTimer = 0;

  /** @param {PairModel} rec @param {import('../../run/run-controller.js').MetricsBatch} batch */
  function metrics(rec, { evals, step }) {
    rec.step = step;
    // the engine also evaluates at other lengths (`length`): the task is learned at the training length
    for (const ev of evals.filter((e) => e.length === base.seq_len)) {
      rec.evals.push({ step: ev.step, acc: ev.token_accuracy, loss: ev.loss });
      if (ev.token_accuracy >= TARGET && rec.status !== 'learned') {
        rec.status = 'learned';
        rec.learnedAt = ev.step;
        rec.ctl.pause();
      }
    }
    scheduleRedraw();
  }

  /** @param {PairModel} rec @param {import('../../run/run-controller.js').RunState} st */
  function state(rec, { playing, step, reason }) {
    rec.step = step;
    if (playing) rec.status = rec.status === 'learned' ? 'learned' : 'training';
    else if (rec.status === 'learned') { /* stopped on reaching the target */ }
    else if (step >= s.budget) rec.status = 'budget';
    else if (!STOP_REASONS.includes(reason)) (rec.status = 'error'), (rec.error = reason);
    else rec.status = 'idle';
    stateChanged();
  }

  function scheduleRedraw() {
    if (redrawTimer) return;
    redrawTimer = window.setTimeout(() => {
      redrawTimer = 0;
      redraw();
    }, 150);
  }

  /**
   * The mean curve of one side: at each evaluated step, the mean over its seeds, once every seed
   * has a value there (a stopped model keeps its last one).
   * @param {'a'|'b'} side
   * @returns {{step: number, acc: number, loss: number}[]}
   */
  function meanCurve(side) {
    const recs = models.filter((r) => r.side === side);
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
      out.push({ step: st, acc: ok.reduce((x, e) => x + e.acc, 0) / ok.length, loss: ok.reduce((x, e) => x + e.loss, 0) / ok.length });
    }
    return out;
  }

  function redraw() {
    const curves = { a: meanCurve('a'), b: meanCurve('b') };
    const steps = [...new Set([...curves.a, ...curves.b].map((p) => p.step))].sort((x, y) => x - y);
    for (const chart of [ui.acc, ui.loss]) chart.reset();
    for (const st of steps) {
      const pa = curves.a.find((p) => p.step === st);
      const pb = curves.b.find((p) => p.step === st);
      ui.acc.addDataPoint(st, { a: pa?.acc, b: pb?.acc });
      ui.loss.addDataPoint(st, { a: pa?.loss, b: pb?.loss });
    }
    showCounters();
  }

  /** The final held-out accuracy of a model (its last evaluation). @param {PairModel} r */
  const finalAcc = (r) => r.evals[r.evals.length - 1]?.acc;

  /** @param {'a'|'b'} side */
  function sideSummary(side) {
    const recs = models.filter((r) => r.side === side);
    const acc = summarize(recs.map(finalAcc));
    const learned = recs.filter((r) => r.status === 'learned');
    const out = recs.filter((r) => r.status === 'budget');
    const errors = recs.filter((r) => r.status === 'error');
    const done = recs.length > 0 && learned.length + out.length + errors.length === recs.length;
    return { recs, acc, learned, out, errors, done };
  }

  /** The sentence that says what happened to one side. @param {'a'|'b'} side @param {string} name */
  function sideWords(side, name) {
    const { recs, acc, learned, out, errors, done } = sideSummary(side);
    const n = recs.length;
    const who = `position = ${name}`;
    if (errors.length) return `${who}: training stopped on ${ofSeeds(errors.length, n)}: ${errors[0].error}.`;
    const at = summarize(learned.map((r) => r.learnedAt));
    const learnedWords = learned.length
      ? `learned the task (held-out accuracy ≥ ${Math.round(TARGET * 100)}%) on ${ofSeeds(learned.length, n)}, at step ${at && at.min !== at.max ? `${at.min}–${at.max}` : at?.min}`
      : '';
    if (!done) {
      const live = recs.filter((r) => r.status !== 'learned').map((r) => r.step);
      return `${who}: ${learnedWords ? `${learnedWords}; ` : ''}training, step ${Math.min(...live, s.budget)} of ${s.budget}.`;
    }
    if (out.length === 0) return `${who}: ${learnedWords}. Held-out accuracy ${pctSpread(acc)}.`;
    const outAcc = summarize(out.map(finalAcc));
    return `${who}: the budget of ${s.budget} steps ran out on ${ofSeeds(out.length, n)} before held-out accuracy reached ${Math.round(TARGET * 100)}% (final ${pctSpread(outAcc)})${learnedWords ? `; ${learnedWords}` : ''}.`;
  }

  function showCounters() {
    const a = sideSummary('a');
    const b = sideSummary('b');
    const live = models.filter((r) => r.status !== 'learned').map((r) => r.step);
    ui.counter.textContent = `step ${live.length ? Math.min(...live) : Math.max(0, ...models.map((r) => r.step))} / ${s.budget} · ${seedWords(s.seeds)}`;
    ui.scoreA.textContent = pctSpread(a.acc);
    ui.scoreB.textContent = pctSpread(b.acc);
    ui.outcomeA.textContent = sideWords('a', 'none');
    ui.outcomeB.textContent = sideWords('b', s.encoding);
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

  /** Models that can still train within the budget. */
  const trainable = () => models.filter((r) => r.status !== 'learned' && r.status !== 'error' && r.step < s.budget);

  function stateChanged() {
    const playing = models.some((r) => r.ctl.playing);
    s.playing = playing;
    const canTrain = trainable().length > 0;
    const allLearned = models.length > 0 && models.every((r) => r.status === 'learned');
    ui.play.textContent = playing ? 'Pause' : canTrain ? 'Play' : allLearned ? 'Learned' : `Train longer (+${s.extra} steps)`;
    ui.play.disabled = !playing && allLearned;
    ui.play.title = allLearned ? 'Every model has learned the task; change the seed or the encoding to train again.' : '';
    ui.box.dataset.playing = String(playing);
    ui.box.dataset.canTrain = String(canTrain);
    ui.playNote.textContent = playing || canTrain ? ''
      : allLearned ? 'Every model has reached the target: nothing left to train. Change the seed or the encoding to train new models.'
        : `Done: each model has learned the task or used its budget of ${s.budget} steps. “Train longer” gives the models that ran out ${s.extra} more steps.`;
    scheduleRedraw();
    onPlaying(playing);
  }

  return {
    stateChanged,
    /** New models for the current encoding and seeds (the old ones are disposed); false when overtaken. */
    async build() {
      const old = models;
      s.models = { a: null, b: null };
      models = [];
      await Promise.all(old.map((r) => r.ctl.dispose()));
      for (const chart of [ui.acc, ui.loss]) {
        chart.reset();
        chart.series[1].color = colorOf(s.encoding);
        chart.setLabels({ b: `${s.encoding} (mean of ${s.seeds.length})`, a: `none (mean of ${s.seeds.length})` });
      }
      ui.nameB.textContent = s.encoding;
      ui.nameB.style.color = colorOf(s.encoding);
      const mine = [];
      for (const side of /** @type {('a'|'b')[]} */ (['a', 'b']))
        for (const seed of s.seeds) {
          /** @type {PairModel} */
          const rec = /** @type {any} */ ({ side, seed, evals: [], step: 0, status: 'building' });
          rec.ctl = new RunController(pool, { metrics: (d) => metrics(rec, d), state: (d) => state(rec, d) });
          mine.push(rec);
        }
      models = mine;
      const done = await Promise.all(mine.map((r) => r.ctl.apply({ ...base, seed: r.seed, position: r.side === 'a' ? 'none' : s.encoding }, { check: false })));
      if (models !== mine) return false;
      if (done.some((r) => r !== 'ready') || s.disposed) return false;
      for (const r of mine) r.status = 'idle';
      s.models = { a: mine[0].ctl.model, b: /** @type {PairModel} */ (mine.find((r) => r.side === 'b')).ctl.model };
      stateChanged();
      return true;
    },
    /** Train what can still train; when nothing can, raise the budget first ("Train longer"). */
    async play() {
      if (trainable().length === 0) {
        if (models.every((r) => r.status === 'learned')) return;
        s.budget += s.extra;
      }
      await Promise.all(trainable().map((r) => {
        r.status = 'training';
        return r.ctl.play({ until: s.budget, every: 5 });
      }));
    },
    pause: () => Promise.all(models.map((r) => r.ctl.pause())),
    dispose: () => {
      clearTimeout(redrawTimer);
      return Promise.all(models.map((r) => r.ctl.dispose()));
    },
    /** Per model: side, seed, status, the step it stopped at, its final accuracy. */
    results: () => models.map((r) => ({ position: r.side === 'a' ? 'none' : s.encoding, seed: r.seed, status: r.status, step: r.step, learnedAt: r.learnedAt, accuracy: finalAcc(r) })),
  };
}
