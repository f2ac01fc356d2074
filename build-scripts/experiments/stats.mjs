// build-scripts/experiments/stats.mjs — reading the sweep's CSVs and judging an experiment's
// claims (docs/experiments/<id>.json "claims") against its summary: Welch's standard error of the
// difference of two grid points' means. A claim agrees when the difference favours it by more than
// two standard errors, disagrees when it goes against it by as much, and is inside the noise
// otherwise. Plain functions, tested in tests/node/experiments.test.mjs.

const MAX_CSV = 16 << 20;

/**
 * RFC 4180 CSV (quoted fields, "" escapes, CRLF or LF) into rows of objects keyed by the header.
 * @param {string} text
 * @returns {Record<string, string>[]}
 */
export function parseCsv(text) {
  if (text.length > MAX_CSV) throw new Error(`CSV: ${text.length} characters, at most ${MAX_CSV}`);
  const rows = [];
  let row = [], field = '', quoted = false, i = 0;
  for (; i < text.length; ++i) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; ++i; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') { row.push(field); field = ''; } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') ++i;
      row.push(field); field = ''; rows.push(row); row = [];
    } else field += c;
  }
  if (quoted) throw new Error('CSV: a quoted field is not closed');
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  const [head, ...body] = rows.filter((r) => r.length > 1 || r[0] !== '');
  if (!head) return [];
  return body.map((r, n) => {
    if (r.length !== head.length) throw new Error(`CSV: row ${n + 2} has ${r.length} fields, the header ${head.length}`);
    return Object.fromEntries(head.map((h, k) => [h, r[k]]));
  });
}

/**
 * The summary rows a selector picks: every key equal (as text) to the row's column.
 * @param {Record<string, string>[]} rows @param {Record<string, string|number|boolean>} sel
 */
export const pick = (rows, sel) => rows.filter((r) => Object.entries(sel).every(([k, v]) => r[k] === String(v)));

/**
 * @param {{claims?: {text: string, better: Record<string, any>, worse: Record<string, any>}[], metric: string, lower_is_better: boolean}} def
 * @param {Record<string, string>[]} summary rows of <id>.summary.csv
 */
export function judge(def, summary) {
  const m = def.metric;
  return (def.claims ?? []).map((c) => {
    const [a, b] = [pick(summary, c.better), pick(summary, c.worse)];
    if (a.length !== 1 || b.length !== 1)
      return { text: c.text, verdict: 'not judged', why: `the claim picks ${a.length} and ${b.length} grid points; it must pick one each` };
    const stat = (/** @type {Record<string, string>} */ r) => ({ mean: Number(r[`${m}_mean`]), sd: Number(r[`${m}_sd`] || NaN), n: Number(r.n) });
    const [x, y] = [stat(a[0]), stat(b[0])];
    const diff = def.lower_is_better ? y.mean - x.mean : x.mean - y.mean; // > 0: as claimed
    const se = Math.sqrt(x.sd ** 2 / x.n + y.sd ** 2 / y.n);
    const verdict = !(x.n >= 2 && y.n >= 2 && Number.isFinite(se)) ? 'not judged' :
      diff > 2 * se ? 'agrees' : diff < -2 * se ? 'disagrees' : 'inside the noise';
    return { text: c.text, verdict, better: x, worse: y, diff, se, why: verdict === 'not judged' && !Number.isFinite(diff) ? 'no result' : '' };
  });
}

/** One word for the whole experiment. @param {{verdict: string}[]} claims */
export function overall(claims) {
  const v = new Set(claims.map((c) => c.verdict));
  if (!claims.length || v.has('not judged')) return 'not judged';
  return v.size === 1 ? [...v][0] : v.has('agrees') ? 'partly agrees' : v.has('disagrees') ? 'disagrees in part, otherwise inside the noise' : 'inside the noise';
}
