// build-scripts/experiments/tdist.mjs — Student's t distribution for the experiments' verdicts:
// the two-sided p-value of a t statistic and the quantile for a confidence interval, through the
// regularized incomplete beta function (continued fraction, as in Numerical Recipes §6.4), and
// Benjamini–Hochberg's adjusted p-values (q). Plain functions, tested in
// tests/node/experiments-stats.test.mjs against values scipy gives.

/** ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms: about 15 significant digits). @param {number} x */
export function lnGamma(x) {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  const z = x - 1;
  let a = c[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The continued fraction of I_x(a, b) (modified Lentz). */
function betaFraction(/** @type {number} */ x, /** @type {number} */ a, /** @type {number} */ b) {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 1000; m++) {
    const m2 = 2 * m;
    for (const num of [
      (m * (b - m) * x) / ((a + m2 - 1) * (a + m2)),
      (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1)),
    ]) {
      d = 1 + num * d;
      if (Math.abs(d) < tiny) d = tiny;
      c = 1 + num / c;
      if (Math.abs(c) < tiny) c = tiny;
      d = 1 / d;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-15) break;
  }
  return h;
}

/**
 * The regularized incomplete beta function I_x(a, b), 0 ≤ x ≤ 1, a, b > 0.
 * @param {number} x @param {number} a @param {number} b
 */
export function incompleteBeta(x, a, b) {
  if (!(x >= 0 && x <= 1) || !(a > 0) || !(b > 0)) return NaN;
  if (x === 0 || x === 1) return x;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(x, a, b)) / a : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

/**
 * Two-sided p-value of t with df degrees of freedom (df may be fractional: Welch): P(|T| ≥ |t|).
 * @param {number} t @param {number} df
 */
export function tTwoSided(t, df) {
  if (!Number.isFinite(t) || !(df > 0)) return Number.isNaN(t) || !(df > 0) ? NaN : 0;
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/**
 * The quantile of the t distribution: the t with P(T ≤ t) = prob (0 < prob < 1).
 * @param {number} prob @param {number} df
 */
export function tQuantile(prob, df) {
  if (!(prob > 0 && prob < 1) || !(df > 0)) return NaN;
  if (prob === 0.5) return 0;
  const tail = prob > 0.5 ? 2 * (1 - prob) : 2 * prob; // the two-sided p of |t|
  let lo = 0;
  let hi = 1;
  while (tTwoSided(hi, df) > tail) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (tTwoSided(mid, df) > tail) lo = mid;
    else hi = mid;
  }
  const t = (lo + hi) / 2;
  return prob > 0.5 ? t : -t;
}

/**
 * Benjamini–Hochberg adjusted p-values (q): the smallest false-discovery rate at which each
 * hypothesis would be rejected. NaN entries (claims not judged) stay NaN and do not count.
 * @param {number[]} ps
 * @returns {number[]}
 */
export function benjaminiHochberg(ps) {
  const idx = ps.map((p, i) => [p, i]).filter(([p]) => Number.isFinite(p));
  idx.sort((a, b) => a[0] - b[0]);
  const m = idx.length;
  const q = ps.map(() => NaN);
  let min = 1;
  for (let k = m - 1; k >= 0; k--) {
    min = Math.min(min, (idx[k][0] * m) / (k + 1));
    q[idx[k][1]] = min;
  }
  return q;
}
