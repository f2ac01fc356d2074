// The overfitting rule (web/src/run/overfit.js) on made-up curves: the text task's old failure
// (held-out loss 2.5 -> 4.5 while train loss falls) is flagged; a run that keeps improving, a
// single noisy evaluation, and a held-out rise while training stalls too are not. OverfitWatch,
// which the playground feeds its metrics events, words the notice the charts panel shows.
import test from 'node:test';
import assert from 'node:assert/strict';
import { OverfitDetector, OverfitWatch, overfitMessage } from '../../web/src/run/overfit.js';

/**
 * A run: train loss train(step) every step, held-out loss evalAt(step) every `every` steps.
 * @param {(s: number) => number} train
 * @param {(s: number) => number} evalAt
 */
function run(steps, train, evalAt, every = 50) {
  const d = new OverfitDetector();
  for (let s = 1; s <= steps; s++) {
    d.addTrain(s, train(s) + 0.05 * Math.sin(s * 1.7)); // step noise
    if (s % every === 0) d.addEval(s, evalAt(s));
  }
  return d;
}

test('memorising: held-out loss climbs from 2.5 to 4.5 after step 150 while train loss falls', () => {
  const d = run(
    600,
    (s) => 3 * Math.exp(-s / 150) + 0.2,
    (s) => (s <= 150 ? 3.5 - s / 150 : 2.5 + (2 * (s - 150)) / 450),
  );
  const v = d.verdict();
  assert.ok(v, 'flagged');
  assert.equal(v.minStep, 150);
  assert.ok(Math.abs(v.minLoss - 2.5) < 1e-9);
  assert.equal(v.step, 600);
  assert.ok(v.trainNow < v.trainThen);
  const text = overfitMessage(v, 'text');
  assert.match(text, /memorising the training text/);
  assert.match(text, /from its minimum 2\.50 \(step 150\) to 4\.50 \(step 600\)/);
  assert.match(text, /dropout, a smaller model \(d_model, layers\) or more text/);
  assert.match(overfitMessage(v, 'copy'), /memorising the training examples.*more data/);
});

test('a run whose held-out loss keeps falling is not flagged', () => {
  const d = run(
    3000,
    (s) => 2 * Math.exp(-s / 800) + 1.2,
    (s) => 2 * Math.exp(-s / 800) + 1.3,
  );
  assert.equal(d.verdict(), null);
});

test('one noisy evaluation above the bar is not enough; two in a row are', () => {
  const d = run(
    400,
    (s) => 3 - s / 200,
    (s) => (s === 400 ? 3.5 : 3 - s / 400),
  );
  assert.equal(d.verdict(), null, 'one high evaluation');
  const e = run(
    450,
    (s) => 3 - s / 200,
    (s) => (s >= 400 ? 3.5 : 3 - s / 400),
  );
  assert.ok(e.verdict(), 'two high evaluations');
});

test('a held-out rise while the training loss rises too (divergence) is not called memorising', () => {
  const d = run(
    600,
    (s) => (s < 300 ? 3 - s / 300 : 2 + (s - 300) / 100),
    (s) => (s < 300 ? 3 - s / 300 : 2 + (s - 300) / 100),
  );
  assert.equal(d.verdict(), null);
});

test('a small wobble below max(0.1 nats, 15%) is not flagged; reset() forgets the run', () => {
  const d = run(
    600,
    (s) => 3 * Math.exp(-s / 150),
    (s) => (s <= 200 ? 3 - s / 200 : 2 + 0.08),
  );
  assert.equal(d.verdict(), null);
  const e = run(
    600,
    (s) => 3 * Math.exp(-s / 150),
    (s) => (s <= 200 ? 3 - s / 200 : 2.5),
  );
  assert.ok(e.verdict());
  e.reset();
  assert.equal(e.verdict(), null);
  e.addEval(1, Number.NaN);
  assert.equal(e.evals.length, 0, 'NaN losses are not points');
});

test('OverfitWatch: metrics events in, the notice out; only evaluations at the training length count, a batch without one changes nothing', () => {
  const w = new OverfitWatch();
  w.reset(16, 'text');
  const train = (/** @type {number} */ s) => 3 * Math.exp(-s / 150) + 0.2;
  const held = (/** @type {number} */ s) => (s <= 150 ? 3.5 - s / 150 : 2.5 + (2 * (s - 150)) / 450);
  /** @type {(string|null|undefined)[]} */
  const said = [];
  for (let s0 = 1; s0 <= 600; s0 += 50) {
    const steps = Array.from({ length: 50 }, (_, k) => ({ step: s0 + k, loss: train(s0 + k) }));
    said.push(w.add({ steps, evals: [] }));
    const at = s0 + 49;
    // the longer evaluation (length 64) climbs much sooner: it must not decide
    said.push(
      w.add({
        steps: [],
        evals: [
          { step: at, length: 16, loss: held(at) },
          { step: at, length: 64, loss: at > 60 ? 9 : 3 },
        ],
      }),
    );
  }
  assert.ok(
    said.filter((_, i) => i % 2 === 0).every((x) => x === undefined),
    'a batch without evaluations leaves the notice',
  );
  assert.equal(said[3], null, 'no notice early on');
  const last = said.at(-1);
  assert.equal(typeof last, 'string');
  assert.match(
    /** @type {string} */ (last),
    /^Overfitting: the held-out loss has risen from its minimum 2\.50 \(step 150\) to 4\.50 \(step 600\).*training text/,
  );
  w.reset(16, 'copy');
  assert.equal(w.add({ steps: [], evals: [{ step: 1, length: 16, loss: 3 }] }), null, 'reset forgets the run');
});
