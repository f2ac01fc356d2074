// The experiments page's readers without a browser: the strict RFC 4180 CSV reader and writer
// (quoted commas, quotes and line breaks; every malformed input refused with its line), the
// definition and verdict files (unknown keys, wrong types, limits), and the grid builder's link
// (every part known, bounded) and native command line. web/src/pages/experiments/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCsv, toCsv } from '../../web/src/common/csv.js';
import { safeText, restoredText } from '../../web/src/common/csv-safe.js';
import { parseDefinition, parseVerdict, parseLimited } from '../../web/src/pages/experiments/definitions.js';
import { hashToSpec, specToHash, nativeCommand, DEFAULT_SPEC } from '../../web/src/pages/experiments/grid-state.js';

test('CSV: RFC 4180 fields round-trip through the writer and the reader', () => {
  const rows = [
    ['a,b', 'say "hi"', 'two\nlines', ''],
    ['1', '', '3', 'x'],
  ];
  const text = toCsv(['p', 'q', 'r', 's'], rows);
  assert.deepEqual(parseCsv(text), { header: ['p', 'q', 'r', 's'], rows });
  assert.deepEqual(parseCsv('a,b\n1,\n').rows, [['1', '']]);
  assert.deepEqual(parseCsv('a,b\r\n1,2').rows, [['1', '2']]);
});

test('CSV: formula-like cells are written safe and read back exactly; numbers stay numbers', () => {
  for (const s of ['=1+1', '+5', '-', '-1+2', '-inf', '@SUM(A1)', '\tx', '\rx', "'=x", "''-1"])
    assert.equal(safeText(s), `'${s}`);
  for (const n of ['-0.5', '-1e-05', '-3', '-.5', '1E+10', 'abc', "'abc", '']) assert.equal(safeText(n), n);
  assert.equal(restoredText("'-0.5"), '-0.5');
  // The class: every cell of up to 4 characters over those that matter, through the writer and the reader.
  const alphabet = ["'", '=', '+', '-', '@', '\t', '\r', '0', '.', 'e', ',', '"', '\n', 'a'];
  /** @type {string[]} */
  let cells = [''];
  for (let len = 0; len < 4; len++)
    cells = [...new Set([...cells, ...cells.flatMap((c) => alphabet.map((a) => c + a))])];
  const width = 8,
    rows = []; // within the reader's row limit
  while (cells.length % width) cells.push('');
  for (let i = 0; i < cells.length; i += width) rows.push(cells.slice(i, i + width));
  const header = rows[0].map((_, k) => `c${k}`);
  assert.deepEqual(parseCsv(toCsv(header, rows)), { header, rows });
  for (const c of cells) {
    const held = safeText(c);
    assert.ok(
      !/^[=+\-@\t\r]/.test(held) || Number.isFinite(Number(held)),
      `${JSON.stringify(c)} is held as ${JSON.stringify(held)}`,
    );
  }
});

test('CSV: malformed input is refused with its line', () => {
  assert.throws(() => parseCsv('a,b\n1,x"y\n'), /line 2: a quote inside an unquoted field/);
  assert.throws(() => parseCsv('a,b\n"1"x,2\n'), /line 2: text after a closing quote/);
  assert.throws(() => parseCsv('a,b\n"1,2\n'), /line 2: a quoted field is never closed/);
  assert.throws(() => parseCsv('a,b\n1,2,3\n'), /row 2: 3 fields where the header has 2/);
  assert.throws(() => parseCsv('a,a\n1,2\n'), /"a" appears twice/);
  assert.throws(() => parseCsv('a\r1\n'), /carriage return without a line feed/);
  assert.throws(() => parseCsv(''), /empty/);
  const limits = { chars: 100, rows: 2, columns: 3, field: 5 };
  assert.throws(() => parseCsv('x'.repeat(101), 'f', limits), /at most 100/);
  assert.throws(() => parseCsv('a\n1\n2\n3\n', 'f', limits), /more than 2 rows/);
  assert.throws(() => parseCsv('a,b,c,d\n', 'f', limits), /more than 3 columns/);
  assert.throws(() => parseCsv('a\n123456\n', 'f', limits), /longer than 5/);
});

const DEF = {
  id: 'x-1',
  title: 'T',
  source: 'S',
  claim: 'C',
  set: { task: 'copy', steps: 10 },
  grids: [{ position: ['none', 'rope'] }],
  seeds: 3,
  metric: 'eval_loss',
};

test('definitions: read strictly, unknown keys and bad values named', () => {
  const d = parseDefinition(JSON.stringify(DEF), 'x-1');
  assert.equal(d.lower_is_better, true);
  assert.deepEqual({ ...d.browser }, {});
  assert.deepEqual([d.corpus, d.columns, d.claims], ['', [], []]);
  assert.throws(() => parseDefinition(JSON.stringify({ ...DEF, colour: 1 }), 'x-1'), /unknown key "colour"/);
  assert.throws(() => parseDefinition(JSON.stringify(DEF), 'x-2'), /id must equal the file name/);
  assert.throws(() => parseDefinition(JSON.stringify({ ...DEF, seeds: 0 }), 'x-1'), /seeds must be/);
  assert.throws(
    () => parseDefinition(JSON.stringify({ ...DEF, set: { task: { a: 1 } } }), 'x-1'),
    /set.task: a string, number or boolean/,
  );
  assert.throws(
    () => parseDefinition(JSON.stringify({ ...DEF, grids: [{ __proto__x: [1] }] }), 'x-1'),
    /not a config field name/,
  );
  assert.equal(d.fine_tune, null);
  const tuned = { ...DEF, fine_tune: { steps: 100, set: { seq_len: 256 } } };
  const ft = parseDefinition(JSON.stringify(tuned), 'x-1').fine_tune;
  assert.deepEqual([ft?.steps, { ...ft?.set }], [100, { seq_len: 256 }]);
  assert.throws(
    () => parseDefinition(JSON.stringify({ ...DEF, fine_tune: { steps: 0 } }), 'x-1'),
    /fine_tune.steps: a whole number/,
  );
  assert.throws(
    () => parseDefinition(JSON.stringify({ ...DEF, fine_tune: { steps: 5, sets: {} } }), 'x-1'),
    /fine_tune: an object of steps and set/,
  );
  assert.throws(() => parseDefinition('{"id":', 'x-1'), /not JSON/);
  assert.throws(() => parseLimited('[[[[[[[[1]]]]]]]]', 'deep'), /nested 8 deep/);
  assert.deepEqual(parseVerdict('{"verdict":"agrees","text":"t"}', 'x'), {
    verdict: 'agrees',
    text: 't',
    minutes: null,
    runs: null,
    models: null,
    engine: '',
    convergence: '',
    claims: [],
    registration: null,
    setting: '',
  });
  // budgets, setting and each claim's provenance: read strictly
  const d2 = parseDefinition(
    JSON.stringify({
      ...DEF,
      budgets: [500, 1000, 2000],
      setting: 'bidirectional',
      claims: [
        {
          text: 'a',
          better: { position: 'rope' },
          worse: { position: 'none' },
          provenance: { kind: 'seed text', seed: '000', line: 3, quote: 'q' },
        },
      ],
    }),
    'x-1',
  );
  assert.deepEqual(
    [d2.budgets, d2.setting, d2.claims[0].provenance?.kind],
    [[500, 1000, 2000], 'bidirectional', 'seed text'],
  );
  assert.throws(() => parseDefinition(JSON.stringify({ ...DEF, budgets: [1000, 500] }), 'x-1'), /budgets must be/);
  const bad = (/** @type {any} */ provenance) =>
    parseDefinition(
      JSON.stringify({
        ...DEF,
        claims: [
          {
            text: 'a',
            better: { position: 'rope' },
            worse: { position: 'none' },
            provenance,
          },
        ],
      }),
      'x-1',
    );
  assert.throws(() => bad({ kind: 'seed text', seed: '000', line: 3 }), /provenance: one of/);
  assert.throws(() => bad({ kind: 'hearsay', why: 'x' }), /provenance: one of/);
  assert.throws(() => bad({ kind: 'our question', why: 'x', quote: 'y' }), /provenance: one of/);
  assert.throws(() => bad({ kind: 'seed figure', seed: '2', line: 3, what: 'w' }), /seed: a seed's number/);
  // a judged claim's numbers as the page shows them; a value of the wrong type reads as absent
  const v = parseVerdict(
    JSON.stringify({
      verdict: 'agrees',
      text: 't',
      models: 5,
      claims: [
        {
          text: 'a beats b',
          verdict: 'agrees',
          design: 'paired',
          n: 5,
          diff: 0.3,
          ci: [0.2, 0.4],
          df: 4,
          p: 0.001,
          q: 'x',
          notes: ['paired'],
        },
      ],
    }),
    'x',
  );
  assert.equal(v.models, 5);
  assert.deepEqual(v.claims[0], {
    text: 'a beats b',
    verdict: 'agrees',
    why: '',
    design: 'paired',
    n: 5,
    diff: 0.3,
    ci: [0.2, 0.4],
    df: 4,
    p: 0.001,
    q: null,
    notes: ['paired'],
    stable: false,
    stability: '',
    budgets: [],
    provenance: null,
  });
  assert.throws(() => parseVerdict('{"verdict":"agrees","text":"t","claims":[1]}', 'x'), /claims\[0\]: an object/);
  assert.equal(
    parseVerdict(
      '{"verdict":"partly agrees","text":"t","claims":[{"better":{"mean":1}}],"minutes":2.5,"runs":27,"engine":"e"}',
      'x',
    ).minutes,
    2.5,
  );
  assert.throws(
    () => parseVerdict('{"verdict":"<b>yes</b>","text":"t"}', 'x'),
    /verdict must be one line of lower-case words/,
  );
  assert.throws(() => parseVerdict('{"verdict":"agrees","text":"t","extra":1}', 'x'), /unknown key "extra"/);
  assert.throws(
    () =>
      parseDefinition(
        JSON.stringify({
          ...DEF,
          claims: [{ text: 'a', better: {}, worse: {}, why: 1 }],
        }),
        'x-1',
      ),
    /claims\[0\]: an object of text, better, worse, provenance, rule and metric/,
  );
});

test('grid links: a spec round-trips; unknown, repeated, oversized or malformed parts are refused in words', () => {
  assert.deepEqual(hashToSpec(specToHash(DEFAULT_SPEC)), {
    spec: DEFAULT_SPEC,
  });
  const h = specToHash(DEFAULT_SPEC);
  assert.match(/** @type {any} */ (hashToSpec(`${h}&x=1`)).error, /"x", which is not part of a grid/);
  assert.match(/** @type {any} */ (hashToSpec(`${h}&seeds=2`)).error, /gives seeds twice/);
  assert.match(
    /** @type {any} */ (hashToSpec(h.replace('seeds=1', 'seeds=9'))).error,
    /seeds "9" is not a whole number from 1 to 5/,
  );
  assert.match(/** @type {any} */ (hashToSpec(h.replace('steps=150', 'steps=1e3'))).error, /steps "1e3"/);
  assert.match(/** @type {any} */ (hashToSpec('#task=%E0%A4%A')).error, /not URL-encoded properly/);
  assert.match(/** @type {any} */ (hashToSpec('#task=copy')).error, /lacks a, av, b, bv, metric, seeds, steps/);
  assert.match(/** @type {any} */ (hashToSpec(`#${'a'.repeat(601)}`)).error, /at most 600/);
});

test('the native command line quotes what the shell would split', () => {
  assert.equal(
    nativeCommand(DEFAULT_SPEC),
    'attnplay sweep --set task=copy --set steps=150 --grid "position=none,rope seq_len=8,16" --seeds 1 --out grid.csv --summary grid.summary.csv',
  );
  const odd = {
    ...DEFAULT_SPEC,
    a: { field: 'position', values: ["it's"] },
    metric: 'acc4',
  };
  assert.equal(
    nativeCommand(odd),
    "attnplay sweep --set task=copy --set steps=150 --grid 'position=it'\\''s seq_len=8,16' --seeds 1 --eval-at 2,4 --out grid.csv --summary grid.summary.csv",
  );
});
