// The browser tests wait for facts, never for a time (the developers' guide): no file of
// tests/browser/ holds a fixed sleep (page.waitForTimeout, a promise around a bare setTimeout, a
// sleep() helper) or a swallowed wait (a waitFor…/until whose failure is caught and dropped, as
// `.catch(() => {})` or an empty catch block). A test waits with until() (tests/browser/until.mjs),
// which fails naming the fact. A line may be let through only with a comment on it that says why:
// `// no-sleeps: <reason>` (until.mjs's own polling interval is the one such line). Timing belongs
// to `npm run bench`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const DIR = resolve(import.meta.dirname, '../browser');
const ALLOWED = /\/\/ no-sleeps: \S/; // an exception names its reason

const WAIT = /\b(?:waitFor\w*|until)\(/;
const RULES = [
  { name: 'a fixed sleep (waitForTimeout)', find: /\bwaitForTimeout\(/g },
  { name: 'a fixed sleep (sleep())', find: /\bsleep\(/g },
  // setTimeout(r, 100), setTimeout(resolve, ms): a promise that resolves after a time
  { name: 'a fixed sleep (a promise around setTimeout)', find: /\bsetTimeout\(\s*[A-Za-z_$][\w$]*\s*,/g },
  {
    name: 'a fixed sleep (a promise around setTimeout)',
    find: /\bsetTimeout\(\s*\(\)\s*=>\s*(?:resolve|res|r|done)\(\s*(?:null|undefined)?\s*\)\s*,/g,
  },
  // a wait whose failure is dropped: .catch(() => {}), .catch(() => null), .catch(() => false)…
  {
    name: 'a swallowed wait (.catch dropping its failure)',
    find: /\.catch\(\s*(?:\(\s*\w*\s*\)|\w+)\s*=>\s*(?:\{\s*\}|null|undefined|false|true|0)\s*\)/g,
    wait: 'statement',
  },
  { name: 'a swallowed wait (an empty catch block)', find: /\bcatch\s*(?:\(\s*\w*\s*\))?\s*\{\s*\}/g, wait: 'try' },
];

/** The text of the statement that ends at `at` (back to the previous `;`, or the file's start). */
function statementBefore(text, at) {
  const start = text.lastIndexOf(';', at - 1);
  return text.slice(start + 1, at);
}

/** The body of the try block whose catch starts at `at`. */
function tryBefore(text, at) {
  const start = text.lastIndexOf('try', at);
  return start < 0 ? '' : text.slice(start, at);
}

/**
 * Every rule broken in `text`: [{line, rule, code}], lines with a `// no-sleeps: reason` let through.
 * @param {string} text
 */
function findSleeps(text) {
  const lines = text.split('\n');
  const lineAt = (i) => text.slice(0, i).split('\n').length;
  const found = [];
  for (const rule of RULES) {
    for (const m of text.matchAll(rule.find)) {
      if (rule.wait === 'statement' && !WAIT.test(statementBefore(text, m.index))) continue;
      if (rule.wait === 'try' && !WAIT.test(tryBefore(text, m.index))) continue;
      const line = lineAt(m.index);
      if (ALLOWED.test(lines[line - 1])) continue;
      found.push({ line, rule: rule.name, code: lines[line - 1].trim() });
    }
  }
  return found;
}

test('the guard finds each kind of sleep and swallowed wait, and lets a fact-based wait through', () => {
  const bad = [
    'await page.waitForTimeout(300);',
    'await sleep(500);',
    'await new Promise((r) => setTimeout(r, 100));',
    'await new Promise((resolve) => setTimeout(() => resolve(), 100));',
    'await page.waitForFunction(() => ok(), null, { timeout: 5000 }).catch(() => {});',
    "await page.locator('#x').waitFor({ timeout: 5000 })\n    .catch(() => null);",
    "await until(page, () => ok(), 'ok').catch((e) => {});",
    "try {\n  await page.waitForSelector('#x');\n} catch {}",
  ];
  for (const code of bad) assert.equal(findSleeps(code).length, 1, code);
  const good = [
    "await until(page, () => ok(), 'the fact');",
    "await page.evaluate(() => window.client.call('trap').catch(() => {}));", // a call expected to fail, not a wait
    "const pending = new Promise((resolve) => setTimeout(() => resolve('still pending after 30 s'), 30000));", // a bound that reports
    "setTimeout(() => reject(new Error('no checkpoint within 30 s')), 30000);",
    'await new Promise((r) => { setTimeout(r, every); }); // no-sleeps: the polling interval of until() itself',
  ];
  for (const code of good) assert.deepEqual(findSleeps(code), [], code);
});

test('no browser test sleeps or swallows a wait', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.mjs'));
  assert.ok(files.length > 20, `the browser tests are in ${DIR}`);
  const all = files.flatMap((f) =>
    findSleeps(readFileSync(resolve(DIR, f), 'utf8')).map((x) => `${f}:${x.line}: ${x.rule}: ${x.code}`),
  );
  assert.deepEqual(all, [], `wait for the fact instead (tests/browser/until.mjs):\n${all.join('\n')}`);
});
