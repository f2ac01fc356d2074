// Vite serves and builds the pages under web/: the playground (index.html), the three demo
// pages, made from one shell by src/pages/demos/pages.mjs, and the course (course/*.html, made
// from the lesson files by src/pages/course/pages.mjs). The wasm files are imported as assets
// (`?url`) by the worker, so the dev server serves them and the build copies them. The text task's
// corpus is written into public/ before anything else (see the plugin below).
// Both servers send COOP/COEP, which make the pages crossOriginIsolated: the playground then runs
// the threaded build (SharedArrayBuffer; docs/threads.md gives the same headers for static hosts).
import { defineConfig } from 'vite';
import { resolve } from 'node:path';
import { realpathSync } from 'node:fs';
import { demoPagesPlugin, demoPageInputs } from './src/pages/demos/pages.mjs';
import { coursePagesPlugin, coursePageInputs } from './src/pages/course/pages.mjs';
import { ensureCorpus } from '../build-scripts/corpus.mjs';
import { precompressedPreview } from './precompress.mjs';

const root = resolve(import.meta.dirname);
// The dev server serves files from the clone and from node_modules where it really is (a git
// worktree may link it from another clone): KaTeX's fonts are requested from there.
const allow = [resolve(root, '..'), realpathSync(resolve(root, '../node_modules'))];

const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default defineConfig({
  root,
  // The text task's corpus (build-scripts/corpus.mjs) into public/corpus/: served and copied as a
  // file of its own, fetched only when the text task is chosen. precompressedPreview: `vite
  // preview` sends dist/'s .br / .gz copies (the wasm uncompressed is ~900 KB).
  plugins: [
    demoPagesPlugin(root),
    coursePagesPlugin(root),
    { name: 'attention-playground-corpus', config: () => void ensureCorpus() },
    precompressedPreview(),
  ],
  server: { port: 5173, strictPort: true, host: 'localhost', fs: { allow }, headers: isolation },
  preview: { port: 5173, strictPort: true, host: 'localhost', headers: isolation },
  worker: { format: 'es' },
  build: {
    outDir: resolve(root, '../dist'),
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: {
        index: resolve(root, 'index.html'),
        ...demoPageInputs(root),
        ...coursePageInputs(root),
      },
    },
  },
});
