// build-scripts/bench-size.mjs — the bench's download rows: the widget's wasm module (wasm-simd, as
// web/src/wasm/simd/ holds it: attnplay.wasm, what a first view runs, and attnplay.deferred.wasm,
// loaded on demand) in bytes, gzip -9 and brotli; what one widget downloads (gzipped, dist/size.json
// from `npm run build`); and the built playground's first step: from the page's start to the
// module being ready, and from Play to the step counter's first step.
//   node build-scripts/bench-size.mjs [--json]
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { gzipSize } from '../web/build-widget.mjs';
import { withBuiltPage } from './bench-tab.mjs';

const ROOT = resolve(import.meta.dirname, '..');

/** @param {string} file */
function sizes(file) {
  if (!existsSync(file)) return null;
  const bytes = readFileSync(file);
  const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  return { bytes: bytes.length, gzip: gzipSize(bytes), brotli };
}

/** The module's parts and one widget's download (from dist/size.json; null before `npm run build`). */
export function measureDownload() {
  const dir = resolve(ROOT, 'web/src/wasm/simd');
  const size = resolve(ROOT, 'dist/size.json');
  const widget = existsSync(size) ? JSON.parse(readFileSync(size, 'utf8')) : null;
  return {
    module: sizes(resolve(dir, 'attnplay.wasm')),
    deferred: sizes(resolve(dir, 'attnplay.deferred.wasm')),
    widget_gzip: widget?.worst ?? null,
    widget_budget: widget?.budget ?? null,
  };
}

/** The playground's default page: ms from navigation to the module ready, and from Play to step 1. */
export async function measureFirstStep() {
  return withBuiltPage({}, '', async (page) => {
    const ready = await page.evaluate(() => performance.now());
    const click = await page.evaluate(() => {
      const out = /** @type {HTMLElement} */ (document.getElementById('step-counter'));
      const t0 = performance.now();
      Object.assign(window, { benchFirst: null });
      new MutationObserver(() => {
        if (window.benchFirst === null && Number(out.textContent) >= 1) window.benchFirst = performance.now() - t0;
      }).observe(out, { childList: true, characterData: true, subtree: true });
      /** @type {HTMLElement} */ (document.getElementById('play')).click();
      return t0;
    });
    await page.waitForFunction(() => window.benchFirst !== null, null, { timeout: 60000 });
    const firstStepMs = await page.evaluate(() => window.benchFirst);
    return { ready_ms: Math.min(ready, click), first_step_ms: firstStepMs };
  });
}

const kb = (/** @type {number} */ n) => `${(n / 1000).toFixed(1)} KB`;

/** @param {ReturnType<typeof measureDownload>} d */
export function downloadRows(d) {
  const part = (name, s) =>
    s ? `${name}: ${kb(s.bytes)}, ${kb(s.gzip)} gzipped, ${kb(s.brotli)} brotli` : `${name}: not built`;
  return [
    part('wasm-simd module (attnplay.wasm, loaded first)', d.module),
    part('its deferred part (attnplay.deferred.wasm, on demand)', d.deferred),
    d.widget_gzip === null
      ? 'one widget downloads: dist/size.json is missing (npm run build)'
      : `one widget downloads ${kb(d.widget_gzip)} gzipped (budget ${kb(d.widget_budget)})`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const d = measureDownload();
  const first = await measureFirstStep();
  if (process.argv.includes('--json')) console.log(JSON.stringify({ ...d, first }));
  else {
    for (const row of downloadRows(d)) console.log(row);
    console.log(first);
  }
}
