// tests/node/npm-scripts.test.mjs — every npm script works on a fresh clone: it sets up what is
// missing first (build-scripts/setup.sh, in its command or in the script file it runs), or, for a
// tool that only checks, says which command to run (format.sh: "npm run setup"). Issue 44: `npm
// run build` on a fresh clone failed with ERR_MODULE_NOT_FOUND: vite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;

/** The text of the first `bash FILE` the command runs, or ''. @param {string} cmd */
function firstFile(cmd) {
  const m = /^bash (\S+)/.exec(cmd);
  return m && existsSync(join(ROOT, m[1])) ? readFileSync(join(ROOT, m[1]), 'utf8') : '';
}

test('every npm script sets up what is missing first, or names the command that does', () => {
  const bad = Object.entries(scripts)
    .filter(([name]) => name !== 'setup')
    .filter(([, cmd]) => {
      if (cmd.startsWith('bash build-scripts/setup.sh')) return false;
      const file = firstFile(cmd);
      return !/^bash build-scripts\/setup\.sh/m.test(file) && !file.includes('(npm run setup)');
    })
    .map(([name, cmd]) => `${name}: ${cmd}`);
  assert.deepEqual(bad, [], `these scripts fail on a fresh clone before npm ci:\n${bad.join('\n')}`);
});
