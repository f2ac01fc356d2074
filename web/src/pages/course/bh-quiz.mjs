// Lesson 6's check (<aside data-quiz="bh"></aside>): the reader reads the committed table as the
// Benjamini–Hochberg procedure does. Built here, at build time, from every verdict file of
// docs/experiments/: every test (each claim at each budget, or on each occasion) with a p-value,
// ranked by p; the quiz shows the tests of ranks around the last discovery (q below LEVEL), each
// with its rank k, its p and m, and asks which are discoveries. The answer is each test's committed
// q (build-scripts/experiments/summary-table.mjs addQ); the reader gets it from k, p and m alone,
// since a test is a discovery when m·p/k ≤ LEVEL for it or for a later rank, and every rank after
// the window has q ≥ LEVEL. The window holds a test whose p is below LEVEL and whose q is not
// whenever the table has one, so that "p below 5%" is not the answer (a node test checks that
// the committed table has one). Runs under Node.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXPERIMENTS, escapeHtml } from './exp-facts.mjs';
import { t } from './messages.mjs';

/** The false-discovery rate the verdicts are decided at. */
export const LEVEL = 0.05;
/** How many tests the quiz shows. */
const SHOWN = 6;

/**
 * @typedef {{id: string, claim: number, text: string, said: Said, budget: number|null, occasion: number|null,
 *   p: number, q: number, k: number}} QuizTest one test of the table: its experiment, the claim's
 *   index and English text, the claim said from its arms (claimSaid), its budget (null: one budget)
 *   or occasion (a timing claim), its p, its committed q and its rank k among all tests (1: the
 *   smallest p)
 * @typedef {{key: string, params: Record<string, string|number>}} Said
 */

/** `field=value` of each setting of an arm. @param {Record<string, unknown>} arm */
const armName = (arm) =>
  Object.entries(arm ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');

/**
 * A claim in words any language can say, from its arms (its English text is the definition's):
 * "better beats worse on metric", or "as good as, within margin" for an equivalence.
 * @param {any} claim a claim of a definition (docs/experiments/<id>.json)
 * @param {any} def its definition
 * @returns {Said}
 */
export function claimSaid(claim, def) {
  const params = {
    better: armName(claim.better),
    worse: armName(claim.worse),
    metric: String(claim.rule?.metric ?? claim.metric ?? def.metric ?? ''),
  };
  if (claim.rule?.kind === 'equivalence')
    return { key: 'quiz.claim.same', params: { ...params, margin: `${100 * claim.rule.margin}%` } };
  return { key: 'quiz.claim.beats', params };
}

/**
 * Every test of the committed verdicts, ranked by p (ties by experiment and claim).
 * @param {string} [dir] the folder of the verdict files
 * @returns {QuizTest[]}
 */
export function rankedTests(dir = EXPERIMENTS) {
  /** @type {Omit<QuizTest, 'k'>[]} */
  const tests = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.verdict.json'))
    .sort()) {
    const id = file.slice(0, -'.verdict.json'.length);
    const v = JSON.parse(readFileSync(resolve(dir, file), 'utf8'));
    const def = JSON.parse(readFileSync(resolve(dir, `${id}.json`), 'utf8'));
    (v.claims ?? []).forEach((/** @type {any} */ c, /** @type {number} */ claim) => {
      for (const b of c.budgets?.length ? c.budgets : [c]) {
        if (b.verdict === 'not judged' || !Number.isFinite(b.p) || !Number.isFinite(b.q)) continue;
        const budget = Number.isFinite(b.budget) ? b.budget : null;
        const occasion = Number.isFinite(b.occasion) ? b.occasion : null;
        const said = claimSaid(def.claims?.[claim] ?? {}, def);
        tests.push({ id, claim, text: String(c.text ?? ''), said, budget, occasion, p: b.p, q: b.q });
      }
    });
  }
  tests.sort((a, b) => a.p - b.p || a.id.localeCompare(b.id) || a.claim - b.claim);
  return tests.map((x, i) => ({ ...x, k: i + 1 }));
}

/**
 * The tests the quiz shows: SHOWN consecutive ranks, half of them the last discoveries and half
 * the first tests after them. (q never falls as the rank grows, and p never does either, so a test
 * with p < LEVEL ≤ q, if the table has one, is the first after the last discovery: shown.)
 * @param {QuizTest[]} ranked
 * @returns {{m: number, shown: QuizTest[]}}
 */
export function quizWindow(ranked) {
  const m = ranked.length;
  const last = ranked.filter((x) => x.q < LEVEL).length;
  const start = Math.max(0, Math.min(last - SHOWN / 2, m - SHOWN));
  return { m, shown: ranked.slice(start, start + SHOWN) };
}

/**
 * A test's claim in `lang`, escaped: the definition's own sentence in English; in another language
 * the claim said from its arms (the English sentences are the definitions').
 * @param {import('../../common/messages.js').Lang} lang @param {QuizTest} x
 */
const claimText = (lang, x) => (lang === 'en' ? escapeHtml(x.text) : escapeHtml(t(lang, x.said.key, x.said.params)));

const p4 = (/** @type {number} */ p) => (p < 1e-4 ? p.toExponential(1) : p.toFixed(4));

/**
 * The quiz's markup in `lang` (every text escaped; the answers as data-q, read by lesson-quiz.js).
 * @param {import('../../common/messages.js').Lang} lang
 * @param {string} [dir]
 */
export function bhQuizHtml(lang, dir) {
  const { m, shown } = quizWindow(rankedTests(dir));
  const e = (/** @type {string} */ key, /** @type {Record<string, string|number>} */ p = {}) =>
    escapeHtml(t(lang, key, p));
  const items = shown.map((x) => {
    const at =
      x.budget != null
        ? ` ${e('quiz.atBudget', { budget: x.budget })}`
        : x.occasion != null
          ? ` ${e('quiz.onOccasion', { n: x.occasion })}`
          : '';
    const id = `quiz-k${x.k}`;
    return `<li data-k="${x.k}" data-p="${x.p}" data-q="${x.q}"><input type="checkbox" id="${id}"><label for="${id}"><span class="quiz-rank">${e('quiz.rank', { k: x.k, p: p4(x.p) })}</span> <code>${escapeHtml(x.id)}</code>${at}${e('quiz.colon')}${claimText(lang, x)}</label><span class="quiz-mark" aria-live="polite"></span></li>`;
  });
  return (
    `<aside class="course-check course-quiz" data-quiz="bh" data-m="${m}" data-level="${LEVEL}">` +
    `<h3>${e('check.title')}</h3><p>${e('quiz.bh.ask', { m, level: `${100 * LEVEL}%`, n: shown.length })}</p>` +
    `<ol class="quiz-items">${items.join('')}</ol>` +
    `<p><button type="button" class="quiz-submit">${e('quiz.submit')}</button></p>` +
    `<p class="check-status quiz-status" role="status" aria-live="polite"></p><p class="check-result"></p></aside>`
  );
}
