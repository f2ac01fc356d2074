// A verdict's per-seed points and its interval, for lesson 6: <figure data-seeds="ID#K"></figure>
// (experiment ID of docs/experiments/, its claim K) becomes, at build time, a figure whose rows
// are the claim's two sides (the side the claim says is worse, then the better) at each budget it
// was judged at, or only the largest (data-seeds="ID#K@last"), each with every seed's value of
// the experiment's metric, read from the committed runs; its caption gives, per budget, the
// difference, its 95% interval and the verdict, from the verdict file. The page draws the rows
// with the experiments page's spread chart (lesson-seeds.js). Runs under Node.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXPERIMENTS, escapeHtml, load } from './exp-facts.mjs';
import { t } from './messages.mjs';

/** A reference as written in a lesson. */
export const SEEDS_REF = /^([a-z0-9-]+)#(\d{1,2})(@last)?$/;

/**
 * The figure's rows and caption lines for claim `k` of experiment `id`.
 * @param {string} ref "ID#K" or "ID#K@last"
 * @param {import('../../common/messages.js').Lang} lang
 * @returns {{metric: string, rows: {label: string, seeds: number[]}[], lines: string[], claim: string}}
 */
export function seedsFigure(ref, lang) {
  const m = SEEDS_REF.exec(ref);
  if (!m) throw new Error(`write it as ID#K (an experiment of docs/experiments/ and its claim's index), not "${ref}"`);
  const [, id, k, last] = m;
  const def = JSON.parse(readFileSync(resolve(EXPERIMENTS, `${id}.json`), 'utf8'));
  const claim = def.claims?.[Number(k)];
  const judged = /** @type {any} */ (load(`${id}.verdict.json`)).claims?.[Number(k)];
  if (!claim || !judged) throw new Error(`${id} has no claim ${k}`);
  const runs = /** @type {Record<string, string>[]} */ (load(`${id}.csv`));
  const tests = (judged.budgets ?? []).filter((/** @type {any} */ b) => b.budget !== null);
  const at = last ? tests.slice(-1) : tests;
  // a side by its values alone when it sets one field (learned), else field=value pairs: short rows on a phone
  const side = (/** @type {Record<string, unknown>} */ sel) =>
    Object.keys(sel).length === 1
      ? String(Object.values(sel)[0])
      : Object.entries(sel)
          .map(([key, v]) => `${key}=${String(v)}`)
          .join(', ');
  const pick = (/** @type {Record<string, unknown>} */ sel, /** @type {number|null} */ budget) =>
    runs
      .filter((r) => !r.error && Object.entries(sel).every(([key, v]) => r[key] === String(v)))
      .filter((r) => budget === null || r.budget === String(budget))
      .map((r) => Number(r[def.metric]))
      .filter(Number.isFinite);
  const rows = (at.length ? at : [{ budget: null }]).flatMap((/** @type {any} */ b) =>
    [claim.worse, claim.better].map((sel) => ({
      label: b.budget === null ? side(sel) : t(lang, 'seeds.row', { side: side(sel), budget: b.budget }),
      seeds: pick(sel, b.budget),
    })),
  );
  if (rows.some((r) => r.seeds.length === 0)) throw new Error(`${ref}: a side has no runs in ${id}.csv`);
  const word = (/** @type {string} */ v) => t(lang, `verdict.${v.replaceAll(' ', '_')}`);
  const lines = (at.length ? at : [judged]).map((/** @type {any} */ b) =>
    t(lang, b.budget == null ? 'seeds.line1' : 'seeds.line', {
      budget: b.budget ?? '',
      diff: Number(b.diff).toFixed(3),
      lo: Number(b.ci[0]).toFixed(3),
      hi: Number(b.ci[1]).toFixed(3),
      verdict: word(String(b.verdict)),
    }),
  );
  return { metric: def.metric, rows, lines, claim: String(judged.text ?? '') };
}

/**
 * The figure's markup (its rows as JSON in data-rows, escaped; lesson-seeds.js reads and draws them).
 * @param {string} ref @param {import('../../common/messages.js').Lang} lang
 */
export function seedsFigureHtml(ref, lang) {
  const f = seedsFigure(ref, lang);
  const id = ref.split('#')[0];
  const caption = `<figcaption><code>${escapeHtml(id)}</code>: ${escapeHtml(f.claim)}<br>${f.lines.map(escapeHtml).join('<br>')}</figcaption>`;
  return `<figure class="seeds-figure" data-metric="${escapeHtml(f.metric)}" data-rows="${escapeHtml(JSON.stringify(f.rows))}"><div class="seeds-chart"></div>${caption}</figure>`;
}
