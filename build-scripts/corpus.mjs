// build-scripts/corpus.mjs — the text task's bundled corpus: the Jargon File 4.4.7 (public domain,
// Debian package jargon-text, see docs/corpus.md) turned into plain English prose.
//   node build-scripts/corpus.mjs [OUT]   writes the corpus (default: web/public/corpus/jargon.txt)
//                                         when it is missing or older than this script; prints its path
// The cleaning: the table of contents, the alphabetical index of the lexicon and the box-drawn
// tables are dropped, and so are the per-letter lists of headwords (short lines without a stop); every paragraph becomes one line; cross-reference braces {word} and the
// entry markers :word: lose their punctuation; typographic characters become ASCII ("“" -> '"',
// "—" -> "--", accents dropped), so the model's vocabulary is about 95 printable characters.
// The result is cut at a paragraph boundary at MAX_BYTES: large enough to learn language from
// (≥ MIN_BYTES), small enough to fetch once and to fit the engine's text limit (core/tasks/text.cpp).
import { gunzipSync } from 'node:zlib';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SOURCE = '/usr/share/doc/jargon-text/jargon.txt.gz';
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_OUT = resolve(ROOT, 'web/public/corpus/jargon.txt');
export const MIN_BYTES = 500_000;
export const MAX_BYTES = 700_000;

/** @type {Record<string, string>} typographic characters and their ASCII spelling */
const ASCII = {
  '\u00a0': ' ',
  '\u201c': '"',
  '\u201d': '"',
  '\u2018': "'",
  '\u2019': "'",
  '\u00b4': "'",
  '\u2014': '--',
  '\u2013': '-',
  '\u2212': '-',
  '\u00b7': '-',
  '\u00d7': 'x',
  '\u2022': '*',
  '\u2192': '->',
  '\u00a9': '(c)',
  '\u2122': '(TM)',
  '\u00b1': '+/-',
  '\u00b5': 'u',
  '\u00e6': 'ae',
  '\u00d8': 'O',
  '\u00f8': 'o',
  '\u00a3': 'L',
};
const BOX = /[\u2500-\u257f]/;

/**
 * The prose of the Jargon File's text edition.
 * @param {string} raw the text of jargon.txt (UTF-8)
 * @param {number} [maxBytes]
 * @returns {string} paragraphs, one per line, ASCII only
 */
export function cleanJargon(raw, maxBytes = MAX_BYTES) {
  const lines = raw.split('\n');
  // The body starts at the second "Welcome" (the first is in the table of contents); the lexicon's
  // entries start at the first ":headword:" line (the alphabetical index before it is dropped).
  const welcome = lines.findIndex((l, i) => i > 20 && l.trim() === 'Welcome to the Jargon File');
  const part2 = lines.findIndex((l) => l.replace(/\s+/g, ' ').trim() === 'Part II. The Jargon Lexicon');
  const entries = lines.findIndex((l, i) => i > part2 && /^ {3}:\S/.test(l));
  if (welcome < 0 || part2 < welcome || entries < part2)
    throw new Error(`corpus: ${SOURCE} does not have the layout of the Jargon File 4.4.7`);
  const kept = [...lines.slice(welcome, part2), '', ...lines.slice(entries)];
  const paragraphs = [];
  for (const block of kept.join('\n').split(/\n\s*\n/)) {
    if (BOX.test(block)) continue; // a drawn table
    if (!block.includes(':') && !/[.?!)"\u201d]\s*$/.test(block) && block.trim().split(/\s+/).length <= 6) continue; // an index entry
    let p = block
      .split('\n')
      .map((l) => l.trim())
      .join(' ');
    p = [...p]
      .map((c) => ASCII[c] ?? c)
      .join('')
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '');
    p = p
      .replace(/\{([^{}]*)\}/g, '$1')
      .replace(/^:([^:]+):/, '$1:')
      .replace(/\s+/g, ' ')
      .trim();
    if (p.length < 2) continue; // section letters
    paragraphs.push(p);
  }
  let out = '';
  for (const p of paragraphs) {
    if (out.length + p.length + 1 > maxBytes) break;
    out += `${p}\n`;
  }
  out = out.replace(/\n[^\n]*:\n$/, '\n'); // a headword whose entry was cut off
  if (out.length < MIN_BYTES)
    throw new Error(`corpus: only ${out.length} bytes of prose came out of ${SOURCE}; expected at least ${MIN_BYTES}`);
  return out;
}

/**
 * The packaged jargon.txt.gz: installed, or else taken from the package file itself (apt-get
 * download; no root needed), for systems that leave /usr/share/doc out (slim container images).
 */
function sourceBytes() {
  if (existsSync(SOURCE)) return readFileSync(SOURCE);
  const dir = mkdtempSync(resolve(tmpdir(), 'jargon-'));
  try {
    execFileSync('apt-get', ['download', '-qq', 'jargon-text'], { cwd: dir, stdio: 'ignore' });
    const deb = readdirSync(dir).find((f) => f.endsWith('.deb'));
    if (!deb) throw new Error('no .deb');
    execFileSync('dpkg-deb', ['-x', deb, 'x'], { cwd: dir, stdio: 'ignore' });
    return readFileSync(resolve(dir, 'x', SOURCE.slice(1)));
  } catch {
    throw new Error(
      `corpus: ${SOURCE} is missing and the package could not be downloaded: install the Debian package jargon-text (build-scripts/setup.sh does, as root)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Write the corpus to `out` unless it is there and newer than this script; returns its path.
 * @param {string} [out]
 */
export function ensureCorpus(out = DEFAULT_OUT) {
  const script = fileURLToPath(import.meta.url);
  if (existsSync(out) && statSync(out).mtimeMs >= statSync(script).mtimeMs) return out;
  const text = cleanJargon(gunzipSync(sourceBytes()).toString('utf8'));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(ensureCorpus(process.argv[2] ? resolve(process.argv[2]) : undefined));
  } catch (err) {
    console.error(/** @type {Error} */ (err).message);
    process.exit(1);
  }
}
