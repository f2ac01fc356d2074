// The npm package, as a user gets it: `npm pack` of this repository (dist/ built first), installed
// into a fresh project in a temporary folder with `npm install ./attention-playground-*.tgz
// --offline` (the package has no dependencies: nothing is fetched), then loaded through Vite (this
// repository's) as docs/widgets.md tells a Vite user to: the one recipe, the package's plugin in
// vite.config.js and a script tag, under `vite dev` and from `vite build`; and `import
// 'attention-playground'` with `attention-playground/embed-host.js` under the dev server. Checked:
// the tarball holds what a widget needs and nothing else (no pages, no .gz/.br copies, under
// 2 MB), every `exports` entry resolves in the fresh project, a widget from the installed package
// trains in Chromium in each case (a build that bundles the entry into its own chunk says so in the box).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer, build } from 'vite';
import { ROOT, RESULTS, launchBrowser } from './harness.mjs';
import { ensureDist } from './dist.mjs';
import { serveStatic } from './static-server.mjs';

const npm = (args, cwd) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
  });
// As in docs/widgets.md: Vite must not pre-bundle the package (its worker and wasm are found
// relative to its own modules, with new URL(..., import.meta.url)).
const VITE = { optimizeDeps: { exclude: ['attention-playground'] }, logLevel: 'warn' };

let dir;
let browser;
let manifest;
before(async () => {
  await ensureDist();
  dir = mkdtempSync(join(tmpdir(), 'ap-package-'));
  const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], ROOT));
  manifest = packed;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fresh-site', private: true, type: 'module' }));
  npm(['install', `./${packed.filename}`, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], dir);
  writeFileSync(
    join(dir, 'main.js'),
    `import 'attention-playground';
import { connectFrame } from 'attention-playground/embed-host.js';
window.__host = typeof connectFrame;
`,
  );
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="./main.js"></script></head><body>
<attention-playground id="w" preset="sinusoidal" steps="30" view="chart" autoplay></attention-playground>
</body></html>`,
  );
  // The recipe of docs/widgets.md, as written: the plugin and one script tag.
  writeFileSync(
    join(dir, 'vite.config.js'),
    `import attentionPlayground from 'attention-playground/vite';
export default { plugins: [attentionPlayground()] };
`,
  );
  writeFileSync(
    join(dir, 'recipe.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="/attention-playground/attention-playground.js"></script>
</head><body><attention-playground id="w" preset="sinusoidal" steps="30" view="chart" autoplay></attention-playground></body></html>`,
  );
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('npm pack: the tarball holds what a widget needs, no pages, no compressed copies, no sources', () => {
  const files = manifest.files.map((f) => f.path);
  for (const f of [
    'package.json',
    'dist/attention-playground.js',
    'dist/embed-host.js',
    'dist/embed.html',
    'dist/vite-plugin.mjs',
    'dist/corpus/jargon.txt',
    'docs/widgets.md',
  ])
    assert.ok(files.includes(f), `${f} is in the tarball`);
  assert.equal(files.filter((f) => /^dist\/assets\/attnplay-.*\.wasm$/.test(f)).length, 2, 'the SIMD and scalar wasm');
  assert.deepEqual(
    files.filter((f) => /^(web|core|tests|node_modules|build)\//.test(f)),
    [],
    'no sources',
  );
  assert.deepEqual(
    files.filter((f) => /\.(gz|br)$|^dist\/[^/]+\.html$|^dist\/examples\/|KaTeX/.test(f) && f !== 'dist/embed.html'),
    [],
    'no pages, examples, page fonts or .gz/.br copies',
  );
  assert.ok(manifest.size < 2_000_000, `the tarball is ${(manifest.size / 1e6).toFixed(2)} MB (< 2 MB)`);
});

test('every export of the installed package resolves in a fresh project', () => {
  const pkg = join(dir, 'node_modules/attention-playground');
  assert.ok(existsSync(join(pkg, 'package.json')), 'installed');
  const { exports } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
  const req = createRequire(join(dir, 'package.json'));
  for (const [key, target] of Object.entries(exports)) {
    const spec = `attention-playground${key.slice(1)}`.replace('*', 'attention-playground.js');
    const file = req.resolve(spec);
    assert.ok(existsSync(file), `${spec} -> ${target}`);
  }
});

/** Open `url`; the widget must train to 20 steps (and, with `host`, the page imported embed-host.js). */
async function trains(url, name, { host = true } = {}) {
  const p = await browser.newPage({ viewport: { width: 900, height: 900 } });
  const errors = [];
  p.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  p.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  await p.goto(url);
  await p.waitForFunction(
    () => {
      const w = document.getElementById('w');
      if (w.status === 'error') throw new Error(w.error);
      return w.status === 'ready' && w.currentStep >= 20;
    },
    null,
    { timeout: 60000, polling: 250 },
  );
  if (host) assert.equal(await p.evaluate(() => window.__host), 'function', 'embed-host.js exports connectFrame');
  assert.equal(await p.evaluate(() => document.getElementById('w').step(3)), true, 'the API is there');
  await p.screenshot({ path: resolve(RESULTS, `package-${name}.png`) });
  assert.deepEqual(errors, []);
  await p.close();
}

test("the installed package loads and trains through Vite's dev server", async () => {
  const server = await createServer({ root: dir, configFile: false, server: { port: 0, host: '127.0.0.1' }, ...VITE });
  await server.listen();
  try {
    await trains(server.resolvedUrls.local[0], 'dev');
  } finally {
    await server.close();
  }
});

test('the one recipe (the plugin and a script tag) trains under vite dev and from vite build', async () => {
  const config = join(dir, 'vite.config.js');
  const server = await createServer({
    root: dir,
    configFile: config,
    server: { port: 0, host: '127.0.0.1' },
    logLevel: 'warn',
  });
  await server.listen();
  try {
    await trains(`${server.resolvedUrls.local[0]}recipe.html`, 'recipe-dev', { host: false });
  } finally {
    await server.close();
  }
  const out = join(dir, 'out-recipe');
  await build({
    root: dir,
    configFile: config,
    logLevel: 'warn',
    build: { outDir: out, emptyOutDir: true, rollupOptions: { input: { recipe: join(dir, 'recipe.html') } } },
  });
  assert.ok(existsSync(join(out, 'attention-playground/attention-playground.js')), 'the build copied the folder');
  assert.ok(!existsSync(join(out, 'attention-playground/attention-playground.js.gz')), 'without the .gz copies');
  const built = await serveStatic(out);
  try {
    await trains(`${built.url}/recipe.html`, 'recipe-build', { host: false });
  } finally {
    await built.close();
  }
});

test("a Vite production build: the package's dist/ folder served as it is trains; bundled into the app, each box says why it cannot", async () => {
  // The documented route: the folder copied into public/ (Vite copies it untouched), one script tag.
  cpSync(join(dir, 'node_modules/attention-playground/dist'), join(dir, 'public/attention-playground'), {
    recursive: true,
  });
  writeFileSync(
    join(dir, 'copied.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="/attention-playground/attention-playground.js"></script>
</head><body><attention-playground id="w" preset="sinusoidal" steps="30" view="chart" autoplay></attention-playground></body></html>`,
  );
  const out = join(dir, 'out');
  await build({
    root: dir,
    configFile: false,
    build: {
      outDir: out,
      emptyOutDir: true,
      rollupOptions: { input: { index: join(dir, 'index.html'), copied: join(dir, 'copied.html') } },
    },
    ...VITE,
  });
  const server = await serveStatic(out);
  try {
    await trains(`${server.url}/copied.html`, 'build', { host: false });
    // `import 'attention-playground'` bundled: the module cannot find its assets; the box says so.
    const p = await browser.newPage();
    await p.goto(`${server.url}/index.html`);
    const note = p.locator('attention-playground [role="alert"]');
    await note.waitFor({ timeout: 20000 });
    assert.match(await note.textContent(), /must stay beside its assets\/ folder.*dist\/ folder as it is/);
    await p.close();
  } finally {
    await server.close();
  }
});
