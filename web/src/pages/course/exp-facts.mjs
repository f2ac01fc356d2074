// The numbers a lesson quotes from the committed experiments, read at build time from
// docs/experiments/ (never typed into the prose). A lesson writes
//
//   {{exp:probe-grid.summary.csv?position=rope&normalization=softmax&anchors=none&causal=false#eval_accuracy_mean|pct}}
//   {{exp:probe-grid.verdict.json#claims.0.p|p}}
//
// FILE (a CSV of runs or summary, or a verdict JSON of docs/experiments/), for a CSV the row's
// column values after `?` (exactly one row must match), after `#` the column (CSV) or the path of
// keys and indexes (JSON), and after `|` how to write it (FORMATS). Anything that does not resolve
// fails the build, naming the lesson file and the reference. Runs under Node (the Vite config).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseCsv, csvObjects } from '../../common/csv.js';
import { t } from './messages.mjs';

export const EXPERIMENTS = resolve(import.meta.dirname, '../../../../docs/experiments');
/** Text as HTML text or an attribute's value (the course's build writes every generated text through it). @param {string} s */
export const escapeHtml = (s) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A reference as written in a lesson. */
export const EXP_REF = /\{\{exp:([^}]{1,300})\}\}/g;
const FILE = /^[a-z0-9-]+(?:\.summary|\.wasm\.summary)?\.csv$|^[a-z0-9-]+\.verdict\.json$/;
const MAX_DEPTH = 8;

/** How a value is written: the formats a reference may name. @type {Record<string, (v: unknown, lang: import('../../common/messages.js').Lang) => string>} */
export const FORMATS = {
  pct: (v) => `${Math.round(100 * num(v))}%`,
  pct1: (v) => `${(100 * num(v)).toFixed(1)}%`,
  num: (v) => String(Number(num(v).toPrecision(3))),
  fix2: (v) => num(v).toFixed(2),
  fix3: (v) => num(v).toFixed(3),
  int: (v) => String(Math.round(num(v))),
  p: (v) => (num(v) < 1e-4 ? '< 0.0001' : String(Number(num(v).toPrecision(2)))),
  verdict: (v, lang) => t(lang, `verdict.${String(v).replaceAll(' ', '_')}`),
  claim: (v, lang) => claimPhrase(v, lang),
  setting: (v, lang) => t(lang, String(v).startsWith('seed') ? 'setting.seed' : 'setting.ours'),
  provenance: (v, lang) => t(lang, `provenance.${String(v).replaceAll(' ', '_')}`),
};

/**
 * A judged claim of a verdict file (its path, e.g. claims.0) in one phrase of the lesson's
 * language: the verdict, whether it is stable across budgets, and its numbers. The lesson's
 * sentence states the claim and leaves the verdict to this phrase, so that a new verdict cannot
 * leave a false sentence.
 * @param {unknown} v @param {import('../../common/messages.js').Lang} lang
 */
function claimPhrase(v, lang) {
  if (v === null || typeof v !== 'object') throw new Error('the path must lead to a claim object');
  const c = /** @type {any} */ (v);
  const word = (/** @type {string} */ x) => t(lang, `verdict.${String(x).replaceAll(' ', '_')}`);
  if (c.verdict === 'not judged') return t(lang, 'claim.not_judged', { why: String(c.why ?? '') });
  const at = (c.budgets ?? []).filter((/** @type {any} */ b) => b.budget !== null);
  const stability = c.stable
    ? t(lang, 'claim.stable', {
        budgets: at.map((/** @type {any} */ b) => b.budget).join(', '),
      })
    : at.length > 1
      ? t(lang, 'claim.provisional_budgets', {
          verdicts: at
            .map((/** @type {any} */ b) =>
              t(lang, 'claim.at', {
                budget: b.budget,
                verdict: word(b.verdict),
              }),
            )
            .join(', '),
        })
      : t(lang, 'claim.provisional_one');
  return t(lang, 'claim.judged', {
    verdict: word(c.verdict),
    stability,
    diff: num(c.diff).toFixed(3),
    lo: num(c.ci?.[0]).toFixed(3),
    hi: num(c.ci?.[1]).toFixed(3),
    test: t(lang, c.design === 'paired' ? 'claim.paired' : 'claim.welch'),
    q: FORMATS.p(c.q, lang),
    n: String(c.n),
  });
}

/** @param {unknown} v */
function num(v) {
  const n = typeof v === 'number' ? v : Number(v);
  if (typeof v === 'string' && v.trim() === '') throw new Error('an empty cell is no number');
  if (!Number.isFinite(n)) throw new Error(`"${String(v).slice(0, 40)}" is no number`);
  return n;
}

/** file name -> its parsed content, read once per build. @type {Map<string, unknown>} */
const cache = new Map();

/** @param {string} file */
export function load(file) {
  if (!FILE.test(file)) throw new Error(`"${file}" is no result file of docs/experiments/ (a .csv or .verdict.json)`);
  if (!cache.has(file)) {
    const text = readFileSync(resolve(EXPERIMENTS, file), 'utf8');
    cache.set(file, file.endsWith('.csv') ? csvObjects(parseCsv(text, file)) : JSON.parse(text));
  }
  return cache.get(file);
}

/** @param {Record<string, string>[]} rows @param {string} query @param {string} file */
function oneRow(rows, query, file) {
  const want = [...new URLSearchParams(query)];
  const hits = rows.filter((r) => want.every(([k, v]) => r[k] === v));
  if (hits.length !== 1) throw new Error(`${hits.length} rows of ${file} match "${query}" (exactly one must)`);
  return hits[0];
}

/** @param {unknown} root @param {string} path */
function walk(root, path) {
  const keys = path.split('.');
  if (keys.length > MAX_DEPTH) throw new Error(`the path "${path}" is deeper than ${MAX_DEPTH}`);
  let v = root;
  for (const k of keys) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, k)) throw new Error(`no "${k}" in the path "${path}"`);
    v = /** @type {any} */ (v)[k];
  }
  return v;
}

/**
 * The text of one reference (the part between `{{exp:` and `}}`) in `lang`.
 * @param {string} ref
 * @param {import('../../common/messages.js').Lang} lang
 */
export function expFact(ref, lang) {
  const m = /^([^?#|]+)(?:\?([^#|]*))?#([^|]+)\|([a-z0-9]+)$/.exec(ref);
  if (!m) throw new Error('write it as FILE[?column=value&...]#FIELD|FORMAT');
  const [, file, query, field, format] = m;
  if (!Object.hasOwn(FORMATS, format))
    throw new Error(`no format "${format}": one of ${Object.keys(FORMATS).join(', ')}`);
  const data = load(file);
  let value;
  if (file.endsWith('.csv')) {
    const row = oneRow(/** @type {Record<string, string>[]} */ (data), query ?? '', file);
    if (!Object.hasOwn(row, field)) throw new Error(`${file} has no column "${field}"`);
    value = row[field];
  } else value = walk(data, field);
  return FORMATS[format](value, lang);
}

/**
 * `text` with every {{exp:...}} replaced by its value (as text; the caller escapes it).
 * @param {string} text
 * @param {import('../../common/messages.js').Lang} lang
 * @param {string} where the lesson file, for the errors
 */
export function fillExpFacts(text, lang, where) {
  return text.replace(EXP_REF, (all, ref) => {
    try {
      return expFact(ref, lang);
    } catch (err) {
      throw new Error(`${where}: ${all}: ${/** @type {Error} */ (err).message}`);
    }
  });
}
