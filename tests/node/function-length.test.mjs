// No function in web/src longer than MAX_LINES: a simple scan blanks strings, comments and the
// text of template literals, then takes every `{` that opens a function body (a `function`, a
// method `name(…) {`, an arrow `=> {`) to its matching `}`. The length counts the lines between the
// braces. The functions that are longer today, outside the demos (which were split into classes),
// are listed below as explicit exceptions, each to be split when its file is next worked on; an
// exception that is no longer needed fails the test too, so the list only shrinks.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'web/src');
/** The longest function body, in lines. */
const MAX_LINES = 60;
/** Generated or vendored code, not scanned. */
const SKIP = ['web/src/wasm/'];

/**
 * Known offenders, by `file#function` (to be split; none in web/src/demos).
 * @type {Set<string>}
 */
const EXCEPTIONS = new Set([
]);

/**
 * The text with strings, comments, regex-free template text blanked (newlines kept), so that
 * braces and parentheses are code only.
 * @param {string} src
 */
export function blank(src) {
  const out = [...src];
  /** @type {number[]} brace depth at each open `${` of a template literal */
  const tpl = [];
  let depth = 0;
  let i = 0;
  const wipe = (/** @type {number} */ a, /** @type {number} */ b) => {
    for (let k = a; k < b; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  /** Skip template text from i (just after ` or }) to its end or to `${`. */
  const templateText = () => {
    const start = i;
    while (i < src.length && src[i] !== '`' && !(src[i] === '$' && src[i + 1] === '{')) i += src[i] === '\\' ? 2 : 1;
    wipe(start, i);
    if (src[i] === '`') i++;
    else if (i < src.length) {
      tpl.push(depth);
      i += 2;
    }
  };
  while (i < src.length) {
    const c = src[i];
    const d = src[i + 1];
    if (c === '/' && d === '/') {
      const end = src.indexOf('\n', i);
      wipe(i, end < 0 ? src.length : end);
      i = end < 0 ? src.length : end;
    } else if (c === '/' && d === '*') {
      const end = src.indexOf('*/', i + 2);
      wipe(i, end < 0 ? src.length : end + 2);
      i = end < 0 ? src.length : end + 2;
    } else if (c === '"' || c === "'") {
      let k = i + 1;
      while (k < src.length && src[k] !== c && src[k] !== '\n') k += src[k] === '\\' ? 2 : 1;
      wipe(i + 1, k);
      i = k + 1;
    } else if (c === '`') {
      i++;
      templateText();
    } else if (c === '{') {
      depth++;
      i++;
    } else if (c === '}') {
      if (tpl.length && tpl[tpl.length - 1] === depth) {
        tpl.pop();
        i++;
        templateText();
      } else {
        depth--;
        i++;
      }
    } else i++;
  }
  return out.join('');
}

const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'return', 'typeof', 'await', 'new']);

/**
 * Every function body in `src`: its name (or `(anonymous)`), first line and length in lines.
 * @param {string} src
 * @returns {{name: string, line: number, lines: number}[]}
 */
export function functionsOf(src) {
  const text = blank(src);
  const lineAt = (/** @type {number} */ i) => text.slice(0, i).split('\n').length;
  const found = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '{') continue;
    const name = headerName(text, i);
    if (name === null) continue;
    const end = matching(text, i);
    if (end < 0) continue;
    found.push({ name, line: lineAt(i), lines: lineAt(end) - lineAt(i) - 1 });
  }
  return found;
}

/** The `}` that closes the `{` at i (-1: none). @param {string} text @param {number} i */
function matching(text, i) {
  let depth = 0;
  for (let k = i; k < text.length; k++) {
    if (text[k] === '{') depth++;
    else if (text[k] === '}' && --depth === 0) return k;
  }
  return -1;
}

/**
 * The name of the function whose body the `{` at i opens, or null when it opens no function.
 * @param {string} text @param {number} i
 */
function headerName(text, i) {
  let j = i - 1;
  while (j >= 0 && /\s/.test(text[j])) j--;
  const lineStart = (/** @type {number} */ k) => text.lastIndexOf('\n', k) + 1;
  if (text[j] === '>' && text[j - 1] === '=') {
    const before = text.slice(lineStart(j), j);
    const m = /(?:const|let|var)\s+([\w$]+)\s*=|([\w$#]+)\s*[:=]\s*(?:async\s*)?(?:\(|[\w$]+\s*=>|[\w$]+\s*$)/.exec(
      before,
    );
    return m ? (m[1] ?? m[2]) : '(anonymous)';
  }
  if (text[j] !== ')') return null;
  let depth = 0;
  let k = j;
  for (; k >= 0; k--) {
    if (text[k] === ')') depth++;
    else if (text[k] === '(' && --depth === 0) break;
  }
  if (k < 0) return null;
  const before = text.slice(lineStart(k), k);
  const fn = /\bfunction\s*\*?\s*([\w$]*)\s*$/.exec(before);
  if (fn) return fn[1] || '(anonymous)';
  const method = /^\s*(?:(?:static|async|get|set)\s+|\*\s*)*(#?[\w$]+)\s*$/.exec(before);
  if (method && !KEYWORDS.has(method[1])) return method[1];
  return null;
}

/** @param {string} dir @returns {string[]} */
function jsFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsFiles(path);
    return /\.(m?js|ts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

test('the scan finds functions, methods and arrows, and ignores braces in strings, comments and templates', () => {
  const src = [
    'export function outer(a) {', // 1
    "  const s = '{'; // {",
    '  const t = `${a ? `{${a}}` : "}"} }`;',
    '  if (a) {',
    '    return 1;',
    '  }',
    '  const inner = (x) => {',
    '    return x;',
    '  };',
    '}',
    'class A {',
    '  async #m(',
    '    p,',
    '  ) {',
    '    /* } */',
    '  }',
    '}',
  ].join('\n');
  const fns = functionsOf(src);
  assert.deepEqual(
    fns.map((f) => [f.name, f.line, f.lines]),
    [
      ['outer', 1, 8],
      ['inner', 7, 1],
      ['#m', 14, 1],
    ],
  );
});

test(`no function in web/src is longer than ${MAX_LINES} lines (but the listed exceptions)`, () => {
  const over = [];
  const seen = new Set();
  for (const path of jsFiles(SRC)) {
    const file = relative(ROOT, path).split('\\').join('/');
    if (SKIP.some((s) => file.startsWith(s))) continue;
    for (const f of functionsOf(readFileSync(path, 'utf8'))) {
      if (f.lines <= MAX_LINES) continue;
      const key = `${file}#${f.name}`;
      seen.add(key);
      if (!EXCEPTIONS.has(key)) over.push(`${file}:${f.line} ${f.name} (${f.lines} lines)`);
    }
  }
  assert.deepEqual(over, [], `functions longer than ${MAX_LINES} lines: split them into smaller functions or classes`);
  const stale = [...EXCEPTIONS].filter((k) => !seen.has(k));
  assert.deepEqual(stale, [], 'exceptions no longer needed: remove them from the list');
});
