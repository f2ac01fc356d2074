// A probe cell's verdict in words, from the outcome its seeds share (cells.js decides the outcome).
// No DOM, so that its words can be checked under Node.
import { pct } from '../percent.js';

/** @typedef {(key: string, params?: Record<string, string|number>) => string} Tr the demo's words */
/** @type {Record<string, (n: number, tr: Tr, best: number) => string>} the verdict of an outcome */
const VERDICTS = {
  collapsed: (n, tr) => tr('probe.verdict.collapsed'),
  mirror: mirrorVerdict,
  learns: (n, tr) => tr('probe.verdict.learns'),
  partial: (n, tr) => tr('probe.verdict.partial'),
};

/**
 * Mirror pairs equal: accuracy at most ⌈n/2⌉/n, which holds where h_i = h_(n−1−i) exactly. The
 * pairs are equal up to rounding, so a near tie between two classes can fall either way and a seed
 * can score above the bound: the verdict then says so instead of stating a bound its own range breaks.
 * @param {number} n @param {Tr} tr @param {number} best the highest seed's accuracy
 */
function mirrorVerdict(n, tr, best) {
  const bound = Math.ceil(n / 2) / n;
  const within = best <= bound + 1e-6; // accuracies are counts over n positions, in float32
  return tr(within ? 'probe.verdict.mirror' : 'probe.verdict.mirrorNear', { pct: pct(bound) });
}

/**
 * The verdict of an outcome that every seed of a cell shares.
 * @param {string} outcome collapsed | mirror | learns | partial
 * @param {number} n the training length
 * @param {Tr} tr
 * @param {number} best the highest seed's accuracy
 */
export function verdictOf(outcome, n, tr, best) {
  return VERDICTS[outcome](n, tr, best);
}
