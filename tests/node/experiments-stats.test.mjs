// The experiments' verdict rule (build-scripts/experiments/tdist.mjs, stats.mjs, convergence.mjs):
// the t distribution against values scipy gives, Welch's and the paired test, the refusals, the
// Benjamini–Hochberg q, and the convergence note.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tTwoSided, tQuantile, benjaminiHochberg, incompleteBeta } from '../../build-scripts/experiments/tdist.mjs';
import { judge, welch, paired } from '../../build-scripts/experiments/stats.mjs';
import { convergenceOf } from '../../build-scripts/experiments/convergence.mjs';

const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a}, expected ${b} ± ${tol}`);

test('t distribution: p-values and quantiles as scipy gives them', () => {
  near(tTwoSided(2, 10), 0.0733880347707404, 1e-10, '2·t.sf(2, 10)');
  near(tTwoSided(1, 1), 0.5, 1e-12, '2·t.sf(1, 1)');
  near(tTwoSided(3.4641016151377544, 2), 0.07417990022744853, 1e-9, '2·t.sf(√12, 2)');
  near(tTwoSided(0, 3), 1, 1e-12, 't = 0');
  near(tQuantile(0.975, 5), 2.5705818366147395, 1e-9, 't.ppf(0.975, 5)');
  near(tQuantile(0.975, 1), 12.706204736174707, 1e-7, 't.ppf(0.975, 1)');
  near(tQuantile(0.995, 30), 2.7499956535670305, 1e-9, 't.ppf(0.995, 30)');
  near(tQuantile(0.025, 5), -2.5705818366147395, 1e-9, 't.ppf(0.025, 5)');
  near(incompleteBeta(0.5, 2, 3), 0.6875, 1e-12, 'I_0.5(2, 3)');
  assert.ok(Number.isNaN(tTwoSided(1, 0)) && Number.isNaN(tQuantile(1, 5)));
});

test('Welch: the Welch–Satterthwaite df, p and the 95% interval; the paired test', () => {
  // scipy.stats.ttest_ind([1..5], [2,4,6,8,10], equal_var=False): t = -1.897, df = 5.882
  const w = welch({ mean: 3, sd: Math.sqrt(2.5), n: 5 }, { mean: 6, sd: Math.sqrt(10), n: 5 });
  near(w.t, -1.8973665961010275, 1e-12, 't');
  near(w.df, 6.25 / 1.0625, 1e-12, 'df');
  near(w.p, tTwoSided(w.t, w.df), 1e-15, 'p');
  assert.ok(w.p > 0.1 && w.p < 0.115, `p ${w.p}`);
  near(w.ci[1] - w.diff, tQuantile(0.975, w.df) * w.se, 1e-12, 'half width');
  const p = paired([1, 2, 3]); // scipy.stats.ttest_1samp([1, 2, 3], 0)
  near(p.t, 3.4641016151377544, 1e-12, 'paired t');
  near(p.p, 0.07417990022744853, 1e-9, 'paired p');
  assert.equal(p.df, 2);
});

test('Benjamini–Hochberg q, with claims not judged left out', () => {
  const q = benjaminiHochberg([0.01, 0.04, 0.03, 0.005, NaN]);
  [0.02, 0.04, 0.04, 0.02].forEach((x, i) => near(q[i], x, 1e-15, `q[${i}]`));
  assert.ok(Number.isNaN(q[4]));
  near(benjaminiHochberg([0.9, 0.5])[1], 0.9, 1e-15, 'monotone');
});

const def = (claims) => ({ metric: 'm', lower_is_better: true, claims });
const claim = { text: 'a < b', better: { p: 'a' }, worse: { p: 'b' } };
/** Runs of points a and b with these values per seed (and the same model when `sha` says so). */
function runs(a, b, sha = (p, s) => `${p}${s}`) {
  return [
    ...a.map((v, i) => ({
      p: 'a',
      seed: String(i + 1),
      m: String(v),
      weights_sha256: sha('a', i),
      error: '',
    })),
    ...b.map((v, i) => ({
      p: 'b',
      seed: String(i + 1),
      m: String(v),
      weights_sha256: sha('b', i),
      error: '',
    })),
  ];
}
const summaryOf = (rows) =>
  ['a', 'b'].map((p) => {
    const xs = rows.filter((r) => r.p === p).map((r) => Number(r.m));
    const mean = xs.reduce((x, y) => x + y, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((x, y) => x + (y - mean) ** 2, 0) / (xs.length - 1));
    return { p, n: String(xs.length), m_mean: String(mean), m_sd: String(sd) };
  });

test('judge: p < 0.05 agrees or disagrees, else inside the noise; provisional under 5 seeds', () => {
  const r = runs([1.0, 1.1, 0.9, 1.05, 0.95], [2.0, 2.1, 1.9, 2.05, 1.95]);
  const [c] = judge(def([claim]), summaryOf(r), r);
  assert.equal(c.verdict, 'agrees');
  assert.equal(c.design, 'welch');
  near(c.diff, 1, 1e-12, 'diff as claimed');
  assert.ok(c.ci[0] > 0 && c.ci[1] > c.ci[0] && c.p < 1e-6, JSON.stringify(c));
  assert.deepEqual(c.notes, []);
  const [d] = judge(def([{ ...claim, better: claim.worse, worse: claim.better }]), summaryOf(r), r);
  assert.equal(d.verdict, 'disagrees');
  const close = runs([1.0, 1.2, 0.9], [1.05, 1.1, 1.0]);
  const [e] = judge(def([claim]), summaryOf(close), close);
  assert.equal(e.verdict, 'inside the noise');
  assert.match(e.notes.join(), /provisional: 3 seeds, fewer than the 5/);
});

test('judge: refuses fewer than 3 runs, or an sd of 0 under 5 runs, saying why', () => {
  const two = runs([1, 2], [3, 4]);
  assert.match(judge(def([claim]), summaryOf(two), two)[0].why, /2 runs on a side; at least 3/);
  const flat = runs([1, 1, 1, 1], [2, 2.1, 2.2, 2.3]);
  const [c] = judge(def([claim]), summaryOf(flat), flat);
  assert.equal(c.verdict, 'not judged');
  assert.match(c.why, /sd of 0 with 4 runs/);
  const flat5 = runs([1, 1, 1, 1, 1], [2, 2.1, 2.2, 2.3, 2.4]);
  assert.equal(judge(def([claim]), summaryOf(flat5), flat5)[0].verdict, 'agrees');
});

test('judge: the same trained model on both sides is a paired test across seeds', () => {
  // one model per seed, scored two ways; the seeds differ a lot, the pairs little
  const r = runs([1.0, 2.0, 3.0, 4.0, 5.0], [1.1, 2.1, 3.12, 4.09, 5.1], (p, s) => `model${s}`);
  const [c] = judge(def([claim]), summaryOf(r), r);
  assert.equal(c.design, 'paired');
  assert.equal(c.df, 4);
  assert.equal(c.verdict, 'agrees'); // Welch would call this inside the noise
  assert.match(c.notes.join(), /paired across 5 seeds: both sides are the same 5 trained models/);
  const [w] = judge(def([claim]), summaryOf(r), runs([1.0, 2.0, 3.0, 4.0, 5.0], [1.1, 2.1, 3.12, 4.09, 5.1]));
  assert.equal(w.design, 'welch');
  assert.equal(w.verdict, 'inside the noise');
});

test('convergence: runs still falling by more than 1% over the last fifth say so', () => {
  assert.equal(convergenceOf([{ eval_loss: '2', error: '' }]).recorded, false);
  const flat = convergenceOf([{ eval_loss: '2', eval_loss_last_fifth: '-0.01', error: '' }]);
  assert.ok(flat.recorded && !flat.falling, flat.words);
  const falling = convergenceOf([
    { eval_loss: '2', eval_loss_last_fifth: '-0.01', error: '' },
    { eval_loss: '2', eval_loss_last_fifth: '-0.1', error: '' },
  ]);
  assert.ok(falling.falling);
  assert.match(falling.words, /still learning: .*-2\.8% on average \(down to -5\.0%\)/);
  const r = runs([1.0, 1.1, 0.9, 1.05, 0.95], [2.0, 2.1, 1.9, 2.05, 1.95]).map((x) => ({
    ...x,
    eval_loss: '2',
    eval_loss_last_fifth: '-0.2',
  }));
  assert.match(judge(def([claim]), summaryOf(r), r)[0].notes.join(), /still learning/);
});
