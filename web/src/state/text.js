// The text task's `text` field: the engine's limits on it (core/tasks/text.hpp), checked here
// first so that the page can say in words what is wrong before anything is sent, and what '' (the
// bundled corpus) is. Data and words only: the state, the panels and run/text-source.js (which
// fetches the corpus) all read it. No DOM.

/** The bundled corpus: its file (relative to the page) and what the page says about it. */
export const CORPUS = {
  url: 'corpus/jargon.txt',
  title: 'The Jargon File 4.4.7',
  about: 'English prose: the hacker lexicon of 2003, public domain (Debian package jargon-text)',
};
/** The engine's limit on a text (bytes of UTF-8): 2 MiB. */
export const MAX_TEXT_BYTES = 2 * 1024 * 1024;
/** A text longer than this stays out of the page's link (state/hash.js): a link is not a file. */
export const LINK_TEXT_MAX = 2000;

const encoder = new TextEncoder();
/** The engine counts characters as bytes of UTF-8. @param {string} text */
export const textBytes = (text) => encoder.encode(text).length;
/** The shortest text for seq_len: 10·seq_len + 1 characters (the last 10% holds seq_len + 1). @param {number} seqLen */
export const minChars = (seqLen) => 10 * seqLen + 1;
const n = (/** @type {number} */ x) => x.toLocaleString('en-US');

/**
 * Why a text cannot train at seq_len, in words; null when it can.
 * @param {string} text
 * @param {number} seqLen
 * @returns {string|null}
 */
export function lengthProblem(text, seqLen) {
  const bytes = textBytes(text);
  if (bytes > MAX_TEXT_BYTES) return sizeProblem(bytes, 'The text');
  const need = minChars(seqLen);
  if (bytes >= need) return null;
  const held = bytes - Math.floor((bytes * 9) / 10);
  const lower = bytes > 10 ? ` or lower seq_len to ${Math.floor((bytes - 1) / 10)}` : '';
  return (
    `Your text is too short: ${n(bytes)} characters. With seq_len ${seqLen} it needs at least ${n(need)} characters: ` +
    `the last 10% (here ${n(held)} characters) is held out to measure the model, and it must hold a whole window of ` +
    `seq_len + 1 = ${n(seqLen + 1)} characters. Add ${n(need - bytes)} more characters${lower}.`
  );
}

/**
 * The sentence for a text or file above the limit.
 * @param {number} bytes
 * @param {string} what 'The text', or a file's name
 */
export function sizeProblem(bytes, what) {
  return `${what} is too large: ${n(bytes)} bytes; the limit is ${n(MAX_TEXT_BYTES)} bytes (2 MiB). Use a part of it.`;
}

/**
 * What the page says about a text that can train: its size and the held-out part.
 * @param {string} text
 */
export function describeText(text) {
  const bytes = textBytes(text);
  const held = bytes - Math.floor((bytes * 9) / 10);
  return `${n(bytes)} characters: the model trains on the first ${n(bytes - held)} and is measured on the last ${n(held)}.`;
}
