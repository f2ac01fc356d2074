// What a new user read that was not true (issue 33, items 12, 13 and 16), checked without a
// browser: the page states the induction label's rule (the engine applies it); the held-out
// summary counts distinct examples; and the docs stay in step with the code: the Heads view in
// widgets, the pinned runs' line style, and every reference to a docs file's section by its title
// (a file name, a comma, the title in quotes) names a heading that exists.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadMessages, t } from '../../web/src/common/messages.js';
import { distinct } from '../../web/src/panels/predictions-panel.js';
import { PINNED_DASH } from '../../web/src/charts/line-chart-base.js';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (/** @type {string} */ p) => readFileSync(resolve(ROOT, p), 'utf8');

test('induction: the page states the rule the engine applies (tests/node/heads.test.mjs, test_head_stats.cpp)', async () => {
  await loadMessages('en', ['panels']);
  assert.match(t('en', 'heads.inductionNeeds'), /previous-token head in an earlier layer/);
});

test('predictions: a batch that repeats one held-out pair counts it once', () => {
  const ex = (inputs, correct) => ({ inputs, target: ['', 'b'], prediction: ['', 'b'], confidence: [1, 1], correct });
  const list = [ex(['a', 'b'], true), ex(['a', 'b'], true), ex(['a', 'b'], true)];
  assert.equal(distinct(list).length, 1, 'the same pair three times is one example');
  assert.equal(distinct([...list, ex(['b', 'a'], false)]).length, 2);
  const src = read('web/src/panels/predictions-panel.js');
  assert.match(src, /const examples = distinct\(pred\.examples\);/, 'the summary counts the distinct examples');
});

test('docs/heads.md says widgets show the Heads view (view="heads"), as lazy-views.js does', () => {
  const views = read('web/src/widgets/lazy-views.js');
  const doc = read('docs/heads.md');
  assert.match(views, /^ {2}heads: \{/m, "the widget's heads view");
  assert.match(doc, /view="heads"/, 'heads.md names the widget view');
  assert.doesNotMatch(doc, /widget does not show it/i);
  assert.match(doc, /previous-token head in an earlier layer/, "heads.md states the induction label's requirement");
});

test("docs/playground.md describes pinned runs as the charts draw them (dotted, in the series' colour)", () => {
  const doc = read('docs/playground.md');
  const pin = doc.slice(doc.indexOf('**Pin this run**'), doc.indexOf('**Pin this run**') + 300);
  // The legend draws a dash pattern whose first dash is ≤ 3 px as dotted (line-chart.js).
  const style = PINNED_DASH[0] <= 3 ? 'dotted' : 'dashed';
  assert.match(pin, new RegExp(`\\b${style}\\b`), `playground.md: pinned runs are ${style}`);
  assert.match(pin, /series' colour/);
  assert.doesNotMatch(pin, /orange|dashed/, 'no colour or style the charts do not use');
});

/** Every file that may name a docs section: sources, docs, tests, scripts. */
function sources() {
  const out = ['README.md'];
  const walk = (d) => {
    for (const e of readdirSync(resolve(ROOT, d))) {
      const p = join(d, e);
      if (/(^|\/)(node_modules|wasm|build|dist|experiments)(\/|$)/.test(p)) continue;
      if (statSync(resolve(ROOT, p)).isDirectory()) walk(p);
      else if (/\.(js|mjs|cpp|hpp|md|html|sh)$/.test(p)) out.push(p);
    }
  };
  for (const d of ['web', 'core', 'docs', 'tests', 'build-scripts']) walk(d);
  return out;
}

test('every reference to a docs section by its title names a heading that exists', () => {
  const re = /([\w-]+\.md)\)?, *["“]([^"”\n]{3,80})["”]/g;
  const seen = [];
  for (const file of sources())
    for (const [, md, title] of read(file).matchAll(re)) {
      const path = md === 'README.md' ? 'README.md' : `docs/${md}`;
      const headings = read(path)
        .split('\n')
        .filter((l) => /^#{1,4} /.test(l))
        .map((l) => l.replace(/^#+ /, ''));
      assert.ok(
        headings.some((h) => h === title || h.startsWith(`${title}:`)),
        `${file} points to ${path}, "${title}", which has no such heading (it has: ${headings.join(' | ')})`,
      );
      seen.push(`${file}: ${md}, ${title}`);
    }
  assert.ok(seen.length >= 5, `the references found: ${seen.join('; ')}`);
  assert.ok(
    seen.some((s) => s.startsWith('web/attention-playground.js')),
    "the widget loader's error message is checked",
  );
});
