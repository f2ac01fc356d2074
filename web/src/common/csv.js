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
  /** @type {string[][]} */
  const records = [];
  /** @type {string[]} */
  let record = [];
  let line = 1;
  let i = 0;
  const fail = (/** @type {string} */ why) => new Error(`${name}, line ${line}: ${why}`);
  const n = text.length;
  if (n === 0) throw fail('empty: a header row is needed');
  while (i < n) {
    let field = '';
    if (text[i] === '"') {
      const startLine = line;
      i++;
      for (;;) {
        if (i >= n) throw new Error(`${name}, line ${startLine}: a quoted field is never closed`);
        const q = text.indexOf('"', i);
        if (q < 0) throw new Error(`${name}, line ${startLine}: a quoted field is never closed`);
        const part = text.slice(i, q);
        for (const ch of part) if (ch === '\n') line++;
        field += part;
        if (text[q + 1] === '"') {
          field += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
        if (field.length > limits.field) throw fail(`a field longer than ${limits.field} characters`);
      }
      if (i < n && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r')
        throw fail('text after a closing quote (a quote inside a field is written "")');
    } else {
      let j = i;
      while (j < n && text[j] !== ',' && text[j] !== '\n' && text[j] !== '\r') j++;
      field = text.slice(i, j);
      if (field.includes('"'))
        throw fail('a quote inside an unquoted field (quote the whole field and double the quote)');
      i = j;
    }
    if (field.length > limits.field) throw fail(`a field longer than ${limits.field} characters`);
    record.push(restoredText(field));
    if (record.length > limits.columns) throw fail(`more than ${limits.columns} columns`);
    if (text[i] === ',') {
      i++;
      if (i === n) record.push('');
      else continue;
    }
    if (text[i] === '\r') {
      if (text[i + 1] !== '\n') throw fail('a carriage return without a line feed');
      i++;
    }
    if (i < n && text[i] === '\n') i++;
    records.push(record);
    record = [];
    line++;
    if (records.length > limits.rows + 1) throw fail(`more than ${limits.rows} rows`);
  }
  const [header, ...rows] = records;
  if (header.some((h) => h === '')) throw new Error(`${name}, line 1: a column without a name`);
  const dup = header.find((h, k) => header.indexOf(h) !== k);
  if (dup !== undefined) throw new Error(`${name}, line 1: the column "${dup.slice(0, 40)}" appears twice`);
  rows.forEach((r, k) => {
    if (r.length !== header.length)
      throw new Error(`${name}, row ${k + 2}: ${r.length} fields where the header has ${header.length}`);
  });
  return { header, rows };
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
 * CSV text (CRLF line ends, as RFC 4180 writes them) of a header and rows.
 * @param {string[]} header
 * @param {unknown[][]} rows
 */
export function toCsv(header, rows) {
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}
