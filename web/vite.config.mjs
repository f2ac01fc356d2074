// Vite serves and builds the pages under web/. The wasm files are imported as assets (`?url`)
// by the worker, so the dev server serves them and the build copies them.
import { defineConfig } from 'vite';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname);

export default defineConfig({
  root,
  server: { port: 5173, strictPort: true, host: 'localhost' },
  preview: { port: 5173, strictPort: true, host: 'localhost' },
  worker: { format: 'es' },
  build: {
    outDir: resolve(root, '../dist'),
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: {
        index: resolve(root, 'index.html'),
        permutation: resolve(root, 'permutation.html'),
        probe: resolve(root, 'probe.html'),
        extrapolation: resolve(root, 'extrapolation.html'),
      },
    },
  },
});
