// The text task's sources: the bundled corpus that build-scripts/corpus.mjs makes from Debian's
// jargon-text (size, characters, no markup left), and the page's checks of a text
// (web/src/state/text.js; the corpus's loading: web/src/run/text-source.js): too short for seq_len (in words, with the characters needed),
// too large, and the corpus put into the config only for the text task without a text.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ensureCorpus, MIN_BYTES, MAX_BYTES } from '../../build-scripts/corpus.mjs';
import { lengthProblem, minChars, describeText, MAX_TEXT_BYTES, sizeProblem } from '../../web/src/state/text.js';
import { withCorpus, loadCorpus } from '../../web/src/run/text-source.js';

test('the bundled corpus: 500 KB to 700 KB of printable ASCII prose, one paragraph a line, no markup', () => {
  const text = readFileSync(ensureCorpus(), 'utf8');
  assert.ok(text.length >= MIN_BYTES && text.length <= MAX_BYTES, `${text.length} bytes`);
  assert.match(text, /^[\x20-\x7e\n]+$/, 'printable ASCII and newlines only');
  assert.ok(
    !/[{}]/.test(text.slice(0, 200000)) || (text.match(/[{}]/g) ?? []).length < 100,
    'cross-reference braces are gone',
  );
  assert.ok(!/^:/m.test(text), 'entry markers are gone');
  assert.ok(!/^ /m.test(text), 'no indented lines');
  assert.match(text, /^This is the Jargon File, a comprehensive compendium of hacker slang/);
  assert.ok(!/:\n$/.test(text), 'it ends with an entry, not a dangling headword');
  assert.match(text, /\nhacker: n\.\n/, 'a lexicon entry');
  const lines = text.trim().split('\n');
  const long = lines.filter((l) => l.split(' ').length >= 12).length;
  assert.ok(long / lines.length > 0.5, `most lines are sentences (${long} of ${lines.length})`);
  const alphabet = new Set(text);
  assert.ok(alphabet.size < 100, `${alphabet.size} distinct characters`);
});

test('a text too short for seq_len is explained in words, with how many characters it needs', () => {
  const s49 = 'The order of words carries meaning, said the book';
  assert.equal(s49.length, 49);
  const m = lengthProblem(s49, 64);
  assert.ok(m);
  assert.match(m, /^Your text is too short: 49 characters\. With seq_len 64 it needs at least 641 characters/);
  assert.match(m, /the last 10% \(here 5 characters\) is held out/);
  assert.match(m, /seq_len \+ 1 = 65 characters\. Add 592 more characters or lower seq_len to 4\.$/);
  // the bound is the engine's (core/tasks/text.hpp): 10 seq_len + 1
  for (const T of [1, 16, 64, 4096]) {
    assert.equal(minChars(T), 10 * T + 1);
    assert.equal(lengthProblem('x'.repeat(minChars(T)), T), null);
    assert.ok(lengthProblem('x'.repeat(minChars(T) - 1), T));
  }
  // characters are bytes of UTF-8, as the engine counts them
  assert.ok(lengthProblem('é'.repeat(6), 1) === null, '12 bytes are enough for seq_len 1');
  assert.match(
    describeText('x'.repeat(1000)),
    /^1,000 characters: the model trains on the first 900 and is measured on the last 100\.$/,
  );
});

test('a text above 2 MiB is refused with the limit in words', () => {
  assert.match(
    lengthProblem('a'.repeat(MAX_TEXT_BYTES + 1), 16) ?? '',
    /too large: 2,097,153 bytes; the limit is 2,097,152 bytes \(2 MiB\)/,
  );
  assert.match(sizeProblem(3e6, 'book.txt'), /^book\.txt is too large: 3,000,000 bytes/);
});

test('withCorpus: the corpus goes into a text config without a text, and nowhere else', async () => {
  let calls = 0;
  const corpus = async () => (calls++, 'CORPUS');
  assert.deepEqual(await withCorpus({ task: 'text', text: '' }, corpus), {
    task: 'text',
    text: 'CORPUS',
  });
  assert.deepEqual(await withCorpus({ task: 'text', seq_len: 8 }, corpus), {
    task: 'text',
    seq_len: 8,
    text: 'CORPUS',
  });
  assert.deepEqual(await withCorpus({ task: 'text', text: 'mine' }, corpus), {
    task: 'text',
    text: 'mine',
  });
  assert.deepEqual(await withCorpus({ task: 'copy' }, corpus), {
    task: 'copy',
  });
  // any task whose registry entry declares the option text (the masked LM) gets it too
  assert.deepEqual(await withCorpus({ task: 'mlm', text: '' }, corpus), {
    task: 'mlm',
    text: 'CORPUS',
  });
  assert.deepEqual(await withCorpus({ task: 'mlm', text: 'mine' }, corpus), {
    task: 'mlm',
    text: 'mine',
  });
  assert.equal(calls, 3);
});

test('loadCorpus fetches once per URL, names the file on failure, and retries after one', async () => {
  const urls = [];
  let fail = true;
  const fetchFn = /** @type {any} */ (
    async (url) => {
      urls.push(url);
      if (fail) return { ok: false, status: 404 };
      return { ok: true, text: async () => 'TEXT' };
    }
  );
  await assert.rejects(
    loadCorpus('http://x.test/a/index.html', fetchFn),
    /the corpus \(corpus\/jargon\.txt\) could not be fetched: HTTP 404/,
  );
  fail = false;
  assert.equal(await loadCorpus('http://x.test/a/index.html', fetchFn), 'TEXT');
  assert.equal(await loadCorpus('http://x.test/a/index.html', fetchFn), 'TEXT');
  assert.deepEqual(urls, ['http://x.test/a/corpus/jargon.txt', 'http://x.test/a/corpus/jargon.txt']);
});
