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
