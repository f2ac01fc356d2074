// One owner of the address's hash (issue 46): only web/src/state/address.js reads location.hash,
// writes it (history.replaceState / pushState, location.hash =) or listens for hashchange; every
// page goes through it. web/public/first-layout.js, a classic script that lays out the first paint
// before any module loads, is the one listed exception. Comments are not code: they are skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './load.mjs';

const OWNER = 'web/src/state/address.js';
const EXCEPTIONS = new Set(['web/public/first-layout.js']);
const USE = /location\.hash|history\.(replaceState|pushState)|['"]hashchange['"]|onhashchange/;

/** @param {string} dir @returns {string[]} */
const files = (dir) =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.(m?js|html)$/.test(n) ? [p] : [];
  });

/** A file's code lines that touch the hash: line comments and JSDoc lines left out. @param {string} text */
const uses = (text) =>
  text
    .split('\n')
    .map((line, i) => [i + 1, line.replace(/\/\/.*$/, '')])
    .filter(([, line]) => !/^\s*\*/.test(String(line)) && USE.test(String(line)))
    .map(([n]) => n);

test('only state/address.js reads, writes or listens to the hash (first-layout.js, before any module, excepted)', () => {
  const found = [];
  for (const f of [...files(join(ROOT, 'web/src')), ...files(join(ROOT, 'web/public'))]) {
    const rel = relative(ROOT, f);
    if (rel === OWNER || EXCEPTIONS.has(rel)) continue;
    for (const n of uses(readFileSync(f, 'utf8'))) found.push(`${rel}:${n}`);
  }
  assert.deepEqual(
    found,
    [],
    'go through state/address.js (currentHash, hasHash, replaceHash, followHash, onHashChange)',
  );
  assert.ok(uses(readFileSync(join(ROOT, OWNER), 'utf8')).length >= 4, 'the owner itself is seen by the check');
});
