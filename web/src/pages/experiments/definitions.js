// The experiments' definition files (docs/experiments/<id>.json, the shared spec of issue 18) and
// their verdicts (<id>.verdict.json), read strictly: size and depth limits, every key known, every
// value of its type. An unknown key is an error that names it, so a typo in a definition shows on
// the page instead of being silently ignored. Nothing read here becomes markup. No DOM.

/** The largest definition or verdict file read (characters), and the deepest nesting. */
export const JSON_LIMITS = { chars: 64 * 1024, depth: 6 };
/** The verdicts a report may give (EXPERIMENTS-SPEC). */
export const VERDICTS = ['agrees', 'disagrees', 'inside the noise', 'undecided', 'does not reproduce at this scale'];

/**
 * @typedef {string|number|boolean} Scalar
 * @typedef {object} Definition
 * @property {string} id
 * @property {string} title
 * @property {string} source
 * @property {string} claim
 * @property {string} notes what to read the results with (''  : none)
 * @property {string} setting the setting its runs train in ('': ours, a causal character LM)
 * @property {number[]} budgets the step counts every grid point is trained at ([]: the set's steps)
 * @property {number} occasions how many separate sweeps judge the claims (2 for timing claims: a
 *   verdict that differs between them is "undecided")
 * @property {Record<string, Scalar>} set
 * @property {Record<string, Scalar[]>[]} grids
 * @property {number} seeds
 * @property {string} metric
 * @property {boolean} lower_is_better
 * @property {number[]} eval_at
 * @property {{steps?: number, seeds?: number}} quick
 * @property {Record<string, Scalar>} browser
 * @property {string} corpus the bundled text the runs train on ('' : the config's own)
 * @property {string[]} columns the report's columns (metrics), the headline first
 * @property {{steps: number, set: Record<string, Scalar>}|null} fine_tune the grid points whose axis
 *   fine_tune is true continue this many steps with `set` after training (null: none)
 * @property {{text: string, better: Record<string, Scalar>, worse: Record<string, Scalar>, provenance: Provenance|null}[]} claims the claims
 *   the report judges, each naming the grid point claimed better and the one claimed worse
 * @typedef {{kind: 'seed text'|'seed figure'|'our question', seed: string, line: number, quote: string, what: string,
 *   why: string}} Provenance where a claim comes from: a seed's sentence, a figure a seed reproduces, or our question
 * @typedef {{text: string, verdict: string, why: string, design: string, n: number|null, diff: number|null,
 *   ci: [number|null, number|null], df: number|null, p: number|null, q: number|null, notes: string[], stable: boolean,
 *   stability: string, budgets: {budget: number|null, occasion: 1|2|null, verdict: string, diff: number|null, q: number|null}[],
 *   provenance: {kind: string, seed: string, line: number|null}|null}} VerdictClaim
 * @typedef {{verdict: string, text: string, minutes: number|null, runs: number|null, models: number|null,
 *   engine: string, convergence: string, claims: VerdictClaim[],
 *   registration: {date: string, commit: string, note: string}|null, setting: string}} Verdict
 */

/**
 * JSON.parse with the size and depth limits.
 * @param {string} text
 * @param {string} name
 * @param {number} [maxChars]
 * @returns {unknown}
 */
export function parseLimited(text, name, maxChars = JSON_LIMITS.chars) {
  if (text.length > maxChars) throw new Error(`${name}: ${text.length} characters; at most ${maxChars} are read`);
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') max = Math.max(max, ++depth);
    else if (c === '}' || c === ']') depth--;
  }
  if (max > JSON_LIMITS.depth) throw new Error(`${name}: nested ${max} deep; at most ${JSON_LIMITS.depth}`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${name}: not JSON (${/** @type {Error} */ (err).message})`);
  }
}

const FIELD = /^[a-z][a-z0-9_]{0,39}$/;
const isObject = (/** @type {unknown} */ v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isScalar = (/** @type {unknown} */ v) =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * A flat object of config fields (key = value, values JSON scalars).
 * @param {unknown} v
 * @param {string} where
 * @returns {Record<string, Scalar>}
 */
function fields(v, where) {
  if (!isObject(v)) throw new Error(`${where}: an object of config fields is expected`);
  const out = Object.create(null);
  for (const [k, x] of Object.entries(/** @type {object} */ (v))) {
    if (!FIELD.test(k)) throw new Error(`${where}: "${k.slice(0, 40)}" is not a config field name`);
    if (!isScalar(x)) throw new Error(`${where}.${k}: a string, number or boolean is expected`);
    out[k] = x;
  }
  return out;
}

const KEYS = [
  'id',
  'title',
  'source',
  'claim',
  'corpus',
  'set',
  'grids',
  'seeds',
  'metric',
  'lower_is_better',
  'columns',
  'claims',
  'eval_at',
  'quick',
  'browser',
  'notes',
  'fine_tune',
  'setting',
  'budgets',
  'occasions',
];
const REQUIRED = ['id', 'title', 'source', 'claim', 'set', 'grids', 'seeds', 'metric'];

/**
 * Read one definition file.
 * @param {string} text
 * @param {string} id its file name without .json
 * @returns {Definition}
 */
export function parseDefinition(text, id) {
  const name = `${id}.json`;
  const d = /** @type {Record<string, unknown>} */ (parseLimited(text, name));
  checkKeys(d, name);
  const text1 = (/** @type {string} */ k, max = 2000) => {
    if (typeof d[k] !== 'string' || !d[k] || /** @type {string} */ (d[k]).length > max)
      throw new Error(`${name}: ${k} must be a text of 1 to ${max} characters`);
    return /** @type {string} */ (d[k]);
  };
  if (d.id !== id || !/^[a-z0-9-]{1,60}$/.test(id))
    throw new Error(`${name}: id must equal the file name, in [a-z0-9-]`);
  const seeds = d.seeds;
  if (!Number.isInteger(seeds) || /** @type {number} */ (seeds) < 1 || /** @type {number} */ (seeds) > 20)
    throw new Error(`${name}: seeds must be a whole number from 1 to 20`);
  const evalAt = d.eval_at ?? [];
  if (!Array.isArray(evalAt) || evalAt.length > 8 || !evalAt.every((m) => Number.isInteger(m) && m >= 2 && m <= 64))
    throw new Error(`${name}: eval_at must be a list of whole multiples from 2 to 64`);
  if (d.lower_is_better !== undefined && typeof d.lower_is_better !== 'boolean')
    throw new Error(`${name}: lower_is_better must be true or false`);
  if (d.corpus !== undefined && (typeof d.corpus !== 'string' || !/^[a-z0-9-]{1,40}$/.test(d.corpus)))
    throw new Error(`${name}: corpus must be a bundled corpus's name, in [a-z0-9-]`);
  const budgets = d.budgets ?? [];
  if (
    !Array.isArray(budgets) ||
    budgets.length > 8 ||
    !budgets.every((b, k) => Number.isInteger(b) && b >= 1 && b <= 1e7 && (k === 0 || b > budgets[k - 1]))
  )
    throw new Error(`${name}: budgets must be a list of at most 8 rising whole step counts`);
  const occasions = d.occasions ?? 1;
  if (!Number.isInteger(occasions) || /** @type {number} */ (occasions) < 1 || /** @type {number} */ (occasions) > 2)
    throw new Error(`${name}: occasions must be 1 or 2 (a timing experiment is run on two separate occasions)`);
  const columns = d.columns ?? [];
  if (!Array.isArray(columns) || columns.length > 12 || !columns.every((c) => typeof c === 'string' && FIELD.test(c)))
    throw new Error(`${name}: columns must be a list of at most 12 metric names`);
  return {
    id,
    title: text1('title', 200),
    source: text1('source', 300),
    claim: text1('claim'),
    notes: d.notes === undefined ? '' : text1('notes'),
    setting: d.setting === undefined ? '' : text1('setting', 1000),
    budgets: /** @type {number[]} */ (budgets),
    occasions: /** @type {number} */ (occasions),
    set: fields(d.set, `${name} set`),
    grids: parseGrids(d.grids, name),
    seeds: /** @type {number} */ (seeds),
    metric: text1('metric', 60),
    lower_is_better: d.lower_is_better ?? true,
    eval_at: evalAt,
    quick: fields(d.quick ?? {}, `${name} quick`),
    browser: fields(d.browser ?? {}, `${name} browser`),
    corpus: /** @type {string} */ (d.corpus ?? ''),
    columns: /** @type {string[]} */ (columns),
    claims: parseClaims(d.claims ?? [], name),
    fine_tune: d.fine_tune === undefined ? null : parseFineTune(d.fine_tune, name),
  };
}

/** "fine_tune": {"steps": N, "set": {fields}}. @param {unknown} f @param {string} name */
function parseFineTune(f, name) {
  if (!isObject(f) || Object.keys(/** @type {object} */ (f)).some((k) => !['steps', 'set'].includes(k)))
    throw new Error(`${name} fine_tune: an object of steps and set is expected`);
  const o = /** @type {Record<string, unknown>} */ (f);
  if (!Number.isInteger(o.steps) || /** @type {number} */ (o.steps) < 1)
    throw new Error(`${name} fine_tune.steps: a whole number of steps from 1 is expected`);
  return {
    steps: /** @type {number} */ (o.steps),
    set: fields(o.set ?? {}, `${name} fine_tune.set`),
  };
}

/** A definition is an object of known keys, with the required ones. @param {unknown} d @param {string} name */
function checkKeys(d, name) {
  if (!isObject(d)) throw new Error(`${name}: a JSON object is expected`);
  const unknown = Object.keys(/** @type {object} */ (d)).filter((k) => !KEYS.includes(k));
  if (unknown.length)
    throw new Error(
      `${name}: unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k.slice(0, 40)}"`).join(', ')}; the keys are ${KEYS.join(', ')}`,
    );
  const missing = REQUIRED.filter((k) => !(k in /** @type {object} */ (d)));
  if (missing.length) throw new Error(`${name}: ${missing.join(', ')} missing`);
}

/**
 * The grids: 1 to 16 objects of axes (field: [1 to 64 scalars]).
 * @param {unknown} grids @param {string} name
 * @returns {Record<string, Scalar[]>[]}
 */
function parseGrids(grids, name) {
  if (!Array.isArray(grids) || grids.length < 1 || grids.length > 16)
    throw new Error(`${name}: grids must be a list of 1 to 16 grids`);
  return grids.map((g, k) => {
    const where = `${name} grids[${k}]`;
    if (!isObject(g) || !Object.keys(g).length)
      throw new Error(`${where}: an object of axes (field: [values]) is expected`);
    return Object.fromEntries(
      Object.entries(g).map(([a, values]) => {
        if (!FIELD.test(a)) throw new Error(`${where}: "${a.slice(0, 40)}" is not a config field name`);
        if (!Array.isArray(values) || values.length < 1 || values.length > 64 || !values.every(isScalar))
          throw new Error(`${where}.${a}: a list of 1 to 64 scalars is expected`);
        return [a, /** @type {Scalar[]} */ (values)];
      }),
    );
  });
}

/**
 * The claims: at most 20, each {text, better, worse}.
 * @param {unknown} claims @param {string} name
 */
function parseClaims(claims, name) {
  if (!Array.isArray(claims) || claims.length > 20)
    throw new Error(`${name}: claims must be a list of at most 20 claims`);
  return claims.map((c, k) => {
    const where = `${name} claims[${k}]`;
    if (
      !isObject(c) ||
      Object.keys(c).some((x) => !['text', 'better', 'worse', 'provenance', 'rule', 'metric'].includes(x))
    )
      throw new Error(`${where}: an object of text, better, worse, provenance, rule and metric is expected`);
    if (c.rule !== undefined) parseRule(c.rule, `${where}.rule`);
    if (c.metric !== undefined && (typeof c.metric !== 'string' || !FIELD.test(c.metric)))
      throw new Error(`${where}.metric: a metric's name (a column of the results) is expected`);
    if (typeof c.text !== 'string' || !c.text || c.text.length > 500)
      throw new Error(`${where}.text: a text of 1 to 500 characters is expected`);
    return {
      text: c.text,
      better: fields(c.better, `${where}.better`),
      worse: fields(c.worse, `${where}.worse`),
      provenance: c.provenance === undefined ? null : parseProvenance(c.provenance, `${where}.provenance`),
    };
  });
}

/**
 * A claim's rule other than the difference test: {kind: "exact", metric, better, worse} (every
 * seed at a value, for claims settled by a proof) or {kind: "equivalence", margin} (two one-sided
 * tests, the margin a fraction of the worse side's mean). Checked, not kept: the page shows the
 * verdict file's result.
 * @param {unknown} r @param {string} where
 */
function parseRule(r, where) {
  const o = /** @type {Record<string, unknown>} */ (r);
  const finite = (/** @type {unknown} */ x) => typeof x === 'number' && Number.isFinite(x);
  const ok = !isObject(r)
    ? false
    : o.kind === 'exact'
      ? Object.keys(o).every((k) => ['kind', 'metric', 'better', 'worse'].includes(k)) &&
        typeof o.metric === 'string' &&
        FIELD.test(o.metric) &&
        finite(o.better) &&
        finite(o.worse)
      : o.kind === 'equivalence' &&
        Object.keys(o).every((k) => ['kind', 'margin'].includes(k)) &&
        finite(o.margin) &&
        /** @type {number} */ (o.margin) > 0 &&
        /** @type {number} */ (o.margin) < 1;
  if (!ok)
    throw new Error(
      `${where}: {kind: "exact", metric, better, worse} or {kind: "equivalence", margin (0 to 1)} is expected`,
    );
}

const PROVENANCE = {
  'seed text': ['kind', 'seed', 'line', 'quote'],
  'seed figure': ['kind', 'seed', 'line', 'what'],
  'our question': ['kind', 'why'],
};

/**
 * A claim's provenance: {kind: "seed text", seed, line, quote}, {kind: "seed figure", seed, line,
 * what} or {kind: "our question", why}.
 * @param {unknown} p @param {string} where
 * @returns {Provenance}
 */
function parseProvenance(p, where) {
  const o = /** @type {Record<string, unknown>} */ (p);
  const keys =
    isObject(p) && Object.hasOwn(PROVENANCE, String(o.kind))
      ? PROVENANCE[/** @type {keyof typeof PROVENANCE} */ (String(o.kind))]
      : null;
  if (!keys || Object.keys(o).some((k) => !keys.includes(k)) || keys.some((k) => o[k] === undefined))
    throw new Error(
      `${where}: one of ${Object.values(PROVENANCE)
        .map((k) => `{${k.join(', ')}}`)
        .join(', ')} is expected, with kind ${Object.keys(PROVENANCE).join(', ')}`,
    );
  const str = (/** @type {string} */ k) => {
    if (o[k] === undefined) return '';
    if (typeof o[k] !== 'string' || !o[k] || /** @type {string} */ (o[k]).length > 600)
      throw new Error(`${where}.${k}: a text of 1 to 600 characters is expected`);
    return /** @type {string} */ (o[k]);
  };
  if (o.line !== undefined && !(Number.isInteger(o.line) && /** @type {number} */ (o.line) >= 1))
    throw new Error(`${where}.line: a line number from 1 is expected`);
  if (o.seed !== undefined && !/^\d{3}$/.test(String(o.seed)))
    throw new Error(`${where}.seed: a seed's number, "000" to "999"`);
  return {
    kind: /** @type {Provenance['kind']} */ (o.kind),
    seed: str('seed'),
    line: /** @type {number} */ (o.line ?? 0),
    quote: str('quote'),
    what: str('what'),
    why: str('why'),
  };
}

/**
 * Read one verdict file, as `npm run experiments` writes it: {"verdict": "...", "text": "...",
 * and optionally "claims" (each claim's judgement, shown through `text`), "minutes", "runs", "engine"}.
 * The verdict is one line of words (the spec's four, or a mixture such as "partly agrees").
 * @param {string} text
 * @param {string} id
 * @returns {Verdict}
 */
export function parseVerdict(text, id) {
  const name = `${id}.verdict.json`;
  const v = /** @type {Record<string, unknown>} */ (parseLimited(text, name));
  if (!isObject(v)) throw new Error(`${name}: a JSON object is expected`);
  const keys = [
    'verdict',
    'text',
    'claims',
    'convergence',
    'minutes',
    'runs',
    'models',
    'engine',
    'registration',
    'setting',
    'gaps',
  ];
  const unknown = Object.keys(v).filter((k) => !keys.includes(k));
  if (unknown.length)
    throw new Error(`${name}: unknown key "${unknown[0].slice(0, 40)}"; the keys are ${keys.join(', ')}`);
  if (typeof v.verdict !== 'string' || !/^[a-z][a-z ,()\-]{0,99}$/.test(v.verdict))
    throw new Error(
      `${name}: verdict must be one line of lower-case words (e.g. ${VERDICTS.map((x) => `"${x}"`).join(', ')})`,
    );
  if (typeof v.text !== 'string' || v.text.length > 8000)
    throw new Error(`${name}: text must be a text of at most 8000 characters`);
  const count = (/** @type {unknown} */ x) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : null);
  return {
    verdict: v.verdict,
    text: v.text,
    minutes: count(v.minutes),
    runs: count(v.runs),
    models: count(v.models),
    engine: typeof v.engine === 'string' ? v.engine.slice(0, 200) : '',
    convergence: typeof v.convergence === 'string' ? v.convergence.slice(0, 500) : '',
    claims: Array.isArray(v.claims) ? v.claims.slice(0, 20).map((c, k) => verdictClaim(c, `${name} claims[${k}]`)) : [],
    registration: registrationOf(v.registration),
    setting: typeof v.setting === 'string' ? v.setting.slice(0, 200) : '',
  };
}

/**
 * When and at which commit the claims were registered (before their results, or, for results
 * older than the rule, after them: its note says so); null when absent.
 * @param {unknown} r
 * @returns {{date: string, commit: string, note: string}|null}
 */
function registrationOf(r) {
  if (!isObject(r)) return null;
  const o = /** @type {Record<string, unknown>} */ (r);
  const str = (/** @type {unknown} */ x, max = 400) => (typeof x === 'string' ? x.slice(0, max) : '');
  return {
    date: str(o.date, 10),
    commit: str(o.commit, 40),
    note: str(o.note),
  };
}

/**
 * One judged claim of a verdict file: its text and verdict, and where judged its difference, 95%
 * confidence interval, test, p and q (numbers, or null when absent).
 * @param {unknown} c @param {string} where
 * @returns {VerdictClaim}
 */
function verdictClaim(c, where) {
  if (!isObject(c)) throw new Error(`${where}: an object is expected`);
  const o = /** @type {Record<string, unknown>} */ (c);
  const num = (/** @type {unknown} */ x) => (typeof x === 'number' && Number.isFinite(x) ? x : null);
  const str = (/** @type {unknown} */ x, max = 500) => (typeof x === 'string' ? x.slice(0, max) : '');
  const ci = Array.isArray(o.ci) && o.ci.length === 2 ? [num(o.ci[0]), num(o.ci[1])] : [null, null];
  return {
    text: str(o.text),
    verdict: str(o.verdict, 60),
    why: str(o.why),
    design: ['paired', 'exact', 'equivalence'].includes(/** @type {string} */ (o.design))
      ? /** @type {string} */ (o.design)
      : 'welch',
    n: num(o.n),
    diff: num(o.diff),
    ci: /** @type {[number|null, number|null]} */ (ci),
    df: num(o.df),
    p: num(o.p),
    q: num(o.q),
    notes: Array.isArray(o.notes) ? o.notes.slice(0, 8).map((x) => str(x)) : [],
    stable: o.stable === true,
    stability: str(o.stability),
    budgets: Array.isArray(o.budgets)
      ? o.budgets.slice(0, 8).map((b) => {
          const x = /** @type {Record<string, unknown>} */ (isObject(b) ? b : {});
          return {
            budget: num(x.budget),
            occasion: x.occasion === 1 || x.occasion === 2 ? x.occasion : null,
            verdict: str(x.verdict, 60),
            diff: num(x.diff),
            q: num(x.q),
          };
        })
      : [],
    provenance: isObject(o.provenance)
      ? {
          kind: str(/** @type {Record<string, unknown>} */ (o.provenance).kind, 20),
          seed: str(/** @type {Record<string, unknown>} */ (o.provenance).seed, 3),
          line: num(/** @type {Record<string, unknown>} */ (o.provenance).line),
        }
      : null,
  };
}

/**
 * A run's config from the `config` column of a per-run CSV: a flat JSON object of config fields
 * (a training text may make it large: the engine's own limit on a config is 4 MiB).
 * @param {string} text
 * @param {string} name
 * @returns {Record<string, Scalar>}
 */
export function parseConfig(text, name) {
  return fields(parseLimited(text, name, 4.5 * 1024 * 1024), name);
}
