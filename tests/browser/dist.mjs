// The built folder (dist/) for the browser tests: built (`npm run build`) once per suite run, by
// tests/browser/run.mjs before the first file (`node tests/browser/dist.mjs`, a process of its own:
// Vite's build sets NODE_ENV=production for the rest of its process, which a dev server started
// there would take for production), and by a file run alone only when dist/ is missing or older
// than a file under web/ (or always, with `force`). ATTNPLAY_SKIP_BUILD=1 takes it as it is.
import assert from 'node:assert/strict';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './harness.mjs';

export const DIST = resolve(ROOT, 'dist');
// Written last by web/build-widget.mjs: its time is the build's.
const STAMP = resolve(DIST, 'size.json');

/** The newest modification time under `dir` (ms), node_modules left out. */
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules') continue;
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Whether dist/ was built after every file under web/ (its sources, pages and build scripts) changed. */
export const distFresh = () => existsSync(STAMP) && newest(resolve(ROOT, 'web')) < statSync(STAMP).mtimeMs;

/** Build dist/ unless it is up to date (see the header); `force`: even when it looks up to date. */
export async function ensureDist({ force = false } = {}) {
  if (process.env.ATTNPLAY_SKIP_BUILD && existsSync(STAMP)) return;
  if (!force && distFresh()) return;
  const { main } = await import('../../web/build-widget.mjs');
  await main({ quiet: true });
  assert.equal(process.exitCode ?? 0, 0, 'npm run build failed (see above)');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await ensureDist();
