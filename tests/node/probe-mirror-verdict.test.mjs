// A probe cell's verdict agrees with its own numbers (issue 44): "mirror pairs equal (≤ 50.0%)" is
// printed only when no seed scored above ⌈n/2⌉/n. Mirror pairs equal up to rounding can still split
// a near tie, so a seed above the bound gets a verdict that says the bound holds only for exact
// equality, never the bare bound beside a range that breaks it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { verdictOf } from '../../web/src/demos/probe/verdict.js';
import { loadMessages, translator } from '../../web/src/common/messages.js';

before(async () => {
  await loadMessages('en', ['probe']);
  await loadMessages('zh', ['probe']);
});

/** The bound a verdict states ("≤ 50.0%"), as a fraction; null when it states none. @param {string} v */
const statedBound = (v) => {
  const m = /≤ ([\d.]+)%[)）]$/.exec(v);
  return m ? Number(m[1]) / 100 : null;
};

test('every seed within ⌈n/2⌉/n: the verdict states the bound', () => {
  assert.equal(verdictOf('mirror', 8, translator('en'), 0.5), 'mirror pairs equal (≤ 50.0%)');
});

test('a seed above ⌈n/2⌉/n (54.2%, 50.0–62.5%): no bare bound that the range breaks', () => {
  for (const lang of /** @type {const} */ (['en', 'zh'])) {
    const verdict = verdictOf('mirror', 8, translator(lang), 0.625); // seeds 50.0, 50.0, 62.5%
    const bound = statedBound(verdict);
    assert.ok(bound === null || bound >= 0.625, `${lang}: "${verdict}" states a bound below the best seed, 62.5%`);
    assert.match(verdict, /50\.0%/, `${lang}: the verdict still names the exact-tie bound`);
    assert.notEqual(
      verdict,
      verdictOf('mirror', 8, translator(lang), 0.5),
      `${lang}: the same words as within the bound`,
    );
  }
});

test('odd n: the bound is ⌈n/2⌉/n (5 of 9 = 55.6%), and a seed at it is within', () => {
  assert.equal(verdictOf('mirror', 9, translator('en'), 5 / 9), 'mirror pairs equal (≤ 55.6%)');
});
