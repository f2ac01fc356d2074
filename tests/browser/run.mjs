// The browser suite (`npm test` runs it): what its files share is made once, then
// `node --test --test-concurrency=1` runs them, each in its own process: dist/ is built if stale
// (dist.mjs; the files then take it as it is, ATTNPLAY_SKIP_BUILD=1), one Vite dev server serves
// web/ to every file (ATTNPLAY_DEV_URL) and one Chromium runs their pages (ATTNPLAY_BROWSER_WS; each
// test's pages in browser contexts of their own: harness.mjs). A file run on its own
// (`node --test tests/browser/x.test.mjs`) builds, serves and launches for itself.
//   node tests/browser/run.mjs [node --test options and files; default: tests/browser/]
// Exit code: node --test's.
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startDevServer, CHROMIUM_FLAGS } from './harness.mjs';

const args = process.argv.slice(2);
if (!args.some((a) => !a.startsWith('-'))) args.push('tests/browser/');
const t0 = Date.now();
// dist/ in a process of its own (dist.mjs says why).
const built = spawnSync(process.execPath, [resolve(import.meta.dirname, 'dist.mjs')], { stdio: 'inherit' });
if (built.status !== 0) {
  console.error('browser suite: building dist/ failed (see above)');
  process.exit(1);
}
const dev = await startDevServer();
const browser = await chromium.launchServer({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
console.log(`browser suite: dist/, the dev server and Chromium ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
const child = spawn(process.execPath, ['--test', '--test-concurrency=1', ...args], {
  stdio: 'inherit',
  env: {
    ...process.env,
    ATTNPLAY_DEV_URL: dev.url,
    ATTNPLAY_BROWSER_WS: browser.wsEndpoint(),
    ATTNPLAY_SKIP_BUILD: '1',
  },
});
const code = await new Promise((done) => child.on('exit', (c, signal) => done(c ?? (signal ? 1 : 0))));
await browser.close();
await dev.close();
process.exit(code);
