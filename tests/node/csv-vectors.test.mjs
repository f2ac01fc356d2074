// The one CSV rule, from the vectors both sides read (tests/data/csv-vectors.json; the engine's side:
// tests/native/test_csv_vectors.cpp): the page writes each field and each line as core/cli/csv.cpp
// does, reads the same records back, and refuses the same malformed texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from './load.mjs';
import { csvField, parseCsv, toCsv } from '../../web/src/common/csv.js';

const V = JSON.parse(readFileSync(resolve(ROOT, 'tests/data/csv-vectors.json'), 'utf8'));

test('each field is written as the shared vectors say, and a line ends in line_end', () => {
  for (const [text, written] of V.fields) assert.equal(csvField(text), written, JSON.stringify(text));
  const cells = V.fields.map((/** @type {string[]} */ f) => f[0]);
  const line = V.fields.map((/** @type {string[]} */ f) => f[1]).join(',') + V.line_end;
  const header = cells.map((/** @type {string} */ _, /** @type {number} */ k) => `c${k}`);
  assert.equal(toCsv(header, [cells]), `${header.join(',')}${V.line_end}${line}`);
  assert.deepEqual(parseCsv(toCsv(header, [cells])).rows, [cells], 'every field reads back as it was');
});

test('records are read as the shared vectors say; the malformed ones are refused', () => {
  for (const { text, rows } of V.records) {
    const { header, rows: body } = parseCsv(text, 'vectors');
    assert.deepEqual([header, ...body], rows, JSON.stringify(text));
  }
  for (const { text, why } of V.errors) assert.throws(() => parseCsv(text, 'vectors'), /vectors, line \d+/, why);
});
