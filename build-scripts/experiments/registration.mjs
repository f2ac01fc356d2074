// build-scripts/experiments/registration.mjs — claims are written before their results. When
// `npm run experiments` runs an experiment it records, in <id>.registration.json, the sha256 of
// the claims it was run against (their text, better and worse: what is judged; a provenance note
// is not part of it), the date and the commit. tests/node/experiments.test.mjs fails when a
// definition's claims differ from those its committed results were run against: a claim changed
// after its results must be re-run, not re-judged (--reports-only does not register).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The sha256 of what a definition's claims assert. @param {{claims?: any[]}} def
 * @returns {string}
 */
export function claimsHash(def) {
  const claims = (def.claims ?? []).map((c) => ({
    text: c.text,
    better: c.better,
    worse: c.worse,
    ...(c.metric ? { metric: c.metric } : {}), // absent for claims on the headline metric
  }));
  return createHash('sha256').update(JSON.stringify(claims)).digest('hex');
}

/** The commit of the checkout (with "-dirty" when it has changes), or "unknown". */
function commit() {
  try {
    const root = join(import.meta.dirname, '../..');
    const head = execFileSync('git', ['-C', root, 'rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain', '--', 'core', 'docs/experiments'], {
      encoding: 'utf8',
    }).trim();
    return dirty ? `${head}-dirty` : head;
  } catch {
    return 'unknown';
  }
}

/**
 * Records the claims an experiment is about to be run against.
 * @param {string} id @param {any} def @param {string} dir
 */
export function register(id, def, dir) {
  const r = {
    claims_sha256: claimsHash(def),
    date: new Date().toISOString().slice(0, 10),
    commit: commit(),
    note: '',
  };
  writeFileSync(join(dir, `${id}.registration.json`), JSON.stringify(r, null, 1) + '\n');
}

/**
 * @param {string} dir @param {string} id
 * @returns {{claims_sha256: string, date: string, commit: string, note: string}|null}
 */
export function readRegistration(dir, id) {
  const f = join(dir, `${id}.registration.json`);
  return existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : null;
}
