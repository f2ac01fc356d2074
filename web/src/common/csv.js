// CSV as RFC 4180 says it, both ways: a strict reader with size limits (the committed results of
// docs/experiments/, which the page only ever shows as text) and a writer for the grid builder's
// download. Reading: fields separated by commas, records by CRLF or LF, a field in double quotes
// may hold commas, line breaks and doubled quotes; anything else (a quote inside an unquoted
// field, text after a closing quote, an unclosed quote, a row of another width) is an error that
// names the line. A cell that a spreadsheet would run as a formula is written with a leading
// apostrophe and read without it (csv-safe.js, the rule of the sweep's C++ writer). No DOM.

import { safeText, restoredText } from './csv-safe.js';

/** The largest text read (characters), and the most rows, columns and characters in one field. */
export const CSV_LIMITS = { chars: 8 * 1024 * 1024, rows: 20000, columns: 256, field: 4.5 * 1024 * 1024 };

/**
 * Parse CSV text into its header and rows (every row as wide as the header).
 * @param {string} text
 * @param {string} [name] what the text is, for the errors ("tdlm-positions.csv")
 * @param {typeof CSV_LIMITS} [limits]
 * @returns {{header: string[], rows: string[][]}}
 */
export function parseCsv(text, name = 'the CSV', limits = CSV_LIMITS) {
  if (typeof text !== 'string') throw new Error(`${name}: not text`);
  if (text.length > limits.chars)
    throw new Error(`${name}: ${text.length} characters; at most ${limits.chars} are read`);
  const reader = new CsvReader(text, name, limits);
  if (text.length === 0) throw reader.fail('empty: a header row is needed');
  const [header, ...rows] = reader.records();
  if (header.some((h) => h === '')) throw new Error(`${name}, line 1: a column without a name`);
  const dup = header.find((h, k) => header.indexOf(h) !== k);
  if (dup !== undefined) throw new Error(`${name}, line 1: the column "${dup.slice(0, 40)}" appears twice`);
  rows.forEach((r, k) => {
    if (r.length !== header.length)
      throw new Error(`${name}, row ${k + 2}: ${r.length} fields where the header has ${header.length}`);
  });
  return { header, rows };
}

/** Whether a character ends an unquoted field (or follows a quoted one). @param {string|undefined} ch */
const endsField = (ch) => ch === ',' || ch === '\n' || ch === '\r';

/** One pass over CSV text: the position and line it has reached, and the records read. */
class CsvReader {
  /**
   * @param {string} text
   * @param {string} name what the text is, for the errors
   * @param {typeof CSV_LIMITS} limits
   */
  constructor(text, name, limits) {
    this.text = text;
    this.name = name;
    this.limits = limits;
    this.i = 0;
    this.line = 1;
  }

  /** An error naming the line (the current one by default). @param {string} why @param {number} [line] */
  fail(why, line = this.line) {
    return new Error(`${this.name}, line ${line}: ${why}`);
  }

  /** Every record, each an array of fields (widths not checked here). @returns {string[][]} */
  records() {
    const { text, limits } = this;
    const n = text.length;
    /** @type {string[][]} */
    const records = [];
    /** @type {string[]} */
    let record = [];
    while (this.i < n) {
      const field = text[this.i] === '"' ? this.#quoted() : this.#unquoted();
      if (field.length > limits.field) throw this.fail(`a field longer than ${limits.field} characters`);
      record.push(restoredText(field));
      if (record.length > limits.columns) throw this.fail(`more than ${limits.columns} columns`);
      if (text[this.i] === ',') {
        this.i++;
        if (this.i === n) record.push('');
        else continue;
      }
      this.#endOfRecord();
      records.push(record);
      record = [];
      this.line++;
      if (records.length > limits.rows + 1) throw this.fail(`more than ${limits.rows} rows`);
    }
    return records;
  }

  /** A quoted field from its opening quote: its text, with doubled quotes as one. */
  #quoted() {
    const { text, limits } = this;
    const n = text.length;
    const startLine = this.line;
    let field = '';
    this.i++;
    for (;;) {
      if (this.i >= n) throw this.fail('a quoted field is never closed', startLine);
      const q = text.indexOf('"', this.i);
      if (q < 0) throw this.fail('a quoted field is never closed', startLine);
      const part = text.slice(this.i, q);
      for (const ch of part) if (ch === '\n') this.line++;
      field += part;
      if (text[q + 1] !== '"') {
        this.i = q + 1;
        break;
      }
      field += '"';
      this.i = q + 2;
      if (field.length > limits.field) throw this.fail(`a field longer than ${limits.field} characters`);
    }
    if (this.i < n && !endsField(text[this.i]))
      throw this.fail('text after a closing quote (a quote inside a field is written "")');
    return field;
  }

  /** An unquoted field: the text up to a comma or a line end, with no quote in it. */
  #unquoted() {
    const { text } = this;
    let j = this.i;
    while (j < text.length && !endsField(text[j])) j++;
    const field = text.slice(this.i, j);
    if (field.includes('"'))
      throw this.fail('a quote inside an unquoted field (quote the whole field and double the quote)');
    this.i = j;
    return field;
  }

  /** Past the end of a record: CRLF or LF (a lone CR is an error), or the end of the text. */
  #endOfRecord() {
    const { text } = this;
    if (text[this.i] === '\r') {
      if (text[this.i + 1] !== '\n') throw this.fail('a carriage return without a line feed');
      this.i++;
    }
    if (this.i < text.length && text[this.i] === '\n') this.i++;
  }
}

/**
 * Rows as objects keyed by the header.
 * @param {{header: string[], rows: string[][]}} csv
 * @returns {Record<string, string>[]}
 */
export function csvObjects({ header, rows }) {
  return rows.map((r) => Object.fromEntries(header.map((h, k) => [h, r[k]])));
}

/**
 * One CSV field (safeText), quoted when it holds a comma, a quote or a line break, or was changed.
 * @param {unknown} v (null/undefined: an empty field)
 */
export function csvField(v) {
  const s = v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v)) ? '' : String(v);
  const safe = safeText(s);
  return /[",\r\n]/.test(safe) || safe !== s ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * CSV text of records, each ended by LF as core/cli/csv.cpp writes them (the one rule, pinned by
 * tests/data/csv-vectors.json for both sides; CRLF is read too).
 * @param {unknown[][]} records
 * @param {(v: unknown) => string} [field] how a value becomes a field (csvField)
 */
export const csvText = (records, field = csvField) => records.map((r) => r.map(field).join(',')).join('\n') + '\n';

/**
 * CSV text of a header and rows.
 * @param {string[]} header
 * @param {unknown[][]} rows
 */
export function toCsv(header, rows) {
  return csvText([header, ...rows]);
}
