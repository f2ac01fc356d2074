// Figures in the docs that a test measures: the test writes the sentence from what it measured,
// and the doc holds it between `<!-- figures:ID ... -->` and `<!-- /figures:ID -->`. A doc whose
// numbers differ from the measurement fails the test (by more than 0.5 percentage points, so that
// float rounding across builds does not); `UPDATE_DOCS=1` writes the measured sentence into it.
// So a figure in the docs is the figure the page shows at the settings the doc states.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from './harness.mjs';

const pct = (/** @type {number} */ x) => `${Number((100 * x).toFixed(1))}%`;
const NAMES = { 'rope+pi': 'rope + PI', 'rope+ntk': 'rope + NTK', 'rope+yarn': 'rope + YaRN' };

/**
 * The extrapolation demo's measured sentence for one task: each curve's accuracy at the longest
 * length, mean (lowest–highest seed; at L), best first; a curve that ends at L says so.
 * @param {Record<string, Record<string, {accuracy: number, accMin: number, accMax: number}|null>>} curves results()[task]
 * @param {number} L @param {number} far
 */
export function extrapolationSentence(curves, L, far) {
  const rows = Object.entries(curves).map(([key, pts]) => ({ name: NAMES[key] ?? key, at: pts[far], home: pts[L] }));
  const ok = rows.filter((r) => r.at).sort((a, b) => b.at.accuracy - a.at.accuracy || a.name.localeCompare(b.name));
  const ended = rows.filter((r) => !r.at).map((r) => `${r.name}: not defined past ${L}`);
  return [
    ...ok.map(
      (r) =>
        `${r.name} ${pct(r.at.accuracy)} (${pct(r.at.accMin)}–${pct(r.at.accMax)}; ${r.home ? pct(r.home.accuracy) : '–'})`,
    ),
    ...ended,
  ].join(', ');
}

/** Mean (lowest–highest) of accuracies, or one value when they agree. @param {number[]} xs */
const spanPct = (xs) => {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return lo === hi ? pct(mean) : `${pct(mean)} (${pct(lo)}–${pct(hi)})`;
};

/**
 * The permutation demo's measured sentence: per side (the encoding, then none), the seeds that
 * learned `order` and the step each first reached 95%, and those whose budget ran out, with their
 * final held-out accuracy.
 * @param {{position: string, seed: number, status: string, learnedAt?: number|null, accuracy: number}[]} runs demo.results()
 * @param {number} budget
 */
export function permutationSentence(runs, budget) {
  const sides = [...new Set(runs.map((r) => r.position))].sort((a, b) => (a === 'none') - (b === 'none'));
  return sides
    .map((pos) => {
      const mine = runs.filter((r) => r.position === pos).sort((a, b) => a.seed - b.seed);
      const learned = mine.filter((r) => r.status === 'learned');
      const out = mine.filter((r) => r.status !== 'learned');
      const parts = [];
      if (learned.length)
        parts.push(
          `learned on ${learned.length} of ${mine.length} seeds, first at ≥ 95% at steps ${learned.map((r) => r.learnedAt).join(', ')} (seeds ${learned.map((r) => r.seed).join(', ')})`,
        );
      if (out.length)
        parts.push(
          `the budget of ${budget} steps ran out on ${out.length} of ${mine.length} seeds, final held-out accuracy ${spanPct(out.map((r) => r.accuracy))}`,
        );
      return `${pos}: ${parts.join('; ')}`;
    })
    .join('. ')
    .concat('.');
}

const OUTCOMES = {
  collapsed: 'collapsed on every seed (all positions equal, Lemma 1)',
  mirror: 'mirror-limited on every seed (Lemma 2)',
  mixed: 'the seeds disagree',
  partial: 'partly on every seed',
  learns: 'learns on every seed (≥ 90%)',
};

/**
 * The probe demo's measured sentence: the cells of each outcome with their held-out accuracy,
 * mean (lowest–highest seed).
 * @param {{position: string, normalization: string, outcome: string, seeds: {accuracy: number}[]}[]} results demo.results()
 */
export function probeSentence(results) {
  return Object.entries(OUTCOMES)
    .map(([kind, words]) => {
      const cells = results.filter((r) => r.outcome === kind);
      if (!cells.length) return null;
      const list = cells.map((r) => `${r.position} × ${r.normalization} ${spanPct(r.seeds.map((sd) => sd.accuracy))}`);
      return `${words}: ${list.join(', ')}`;
    })
    .filter(Boolean)
    .join('; ')
    .concat('.');
}

/** The percentages of a text, in order. @param {string} s */
const numbers = (s) => [...s.matchAll(/(\d+(?:\.\d+)?)%/g)].map((m) => Number(m[1]));

/**
 * Check (or, with UPDATE_DOCS=1, write) the figures block `id` of `file` against `text`.
 * @param {string} file relative to the repository @param {string} id @param {string} text
 */
export function checkDocFigures(file, id, text) {
  const path = resolve(ROOT, file);
  const doc = readFileSync(path, 'utf8');
  const re = new RegExp(`(<!-- figures:${id}\\b[^>]*-->\\n)([\\s\\S]*?)(\\n<!-- /figures:${id} -->)`);
  const m = doc.match(re);
  assert.ok(m, `${file} has no block <!-- figures:${id} --> … <!-- /figures:${id} -->`);
  if (process.env.UPDATE_DOCS) {
    writeFileSync(
      path,
      doc.replace(re, (_, a, _old, b) => `${a}${text}${b}`),
    );
    return;
  }
  const have = numbers(m[2]);
  const want = numbers(text);
  const close = have.length === want.length && have.every((x, i) => Math.abs(x - want[i]) <= 0.5);
  assert.ok(
    close && m[2].replace(/\s+/g, ' ').replace(/[\d.]+%/g, '#') === text.replace(/\s+/g, ' ').replace(/[\d.]+%/g, '#'),
    `${file}, figures "${id}": the doc says\n  ${m[2]}\nbut the test measured\n  ${text}\n(UPDATE_DOCS=1 writes the measured text into the doc)`,
  );
}
