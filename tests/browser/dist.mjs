// The built folder (dist/) for the browser tests of the widget: rebuilt (`npm run build`) when it
// is missing or older than a file under web/src or the build script (or always, with `force`), so
// that a suite run builds it once; ATTNPLAY_SKIP_BUILD=1 takes it as it is.
import assert from 'node:assert/strict';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { ROOT } from './harness.mjs';

export const DIST = resolve(ROOT, 'dist');

/** The newest modification time under `dir` (ms). */
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Build dist/ unless it is up to date (see the header); `force`: even when it looks up to date. */
export async function ensureDist({ force = false } = {}) {
  const script = resolve(DIST, 'attention-playground.js');
  if (process.env.ATTNPLAY_SKIP_BUILD && existsSync(script)) return;
  const sources = Math.max(newest(resolve(ROOT, 'web/src')), statSync(resolve(ROOT, 'web/build-widget.mjs')).mtimeMs);
  if (!force && existsSync(script) && statSync(script).mtimeMs >= sources) return;
  const { main } = await import('../../web/build-widget.mjs');
  await main({ quiet: true });
  assert.equal(process.exitCode ?? 0, 0, 'npm run build failed (see above)');
}
