// attention-playground/vite (dist/vite-plugin.mjs in the package): the one recipe for a Vite site,
// the same in `vite dev` and `vite build`:
//
//   // vite.config.js
//   import attentionPlayground from 'attention-playground/vite';
//   export default { plugins: [attentionPlayground()] };
//
//   <!-- any page of the site -->
//   <script type="module" src="/attention-playground/attention-playground.js"></script>
//   <attention-playground preset="rope" autoplay></attention-playground>
//
// The widget's entry finds its worker and wasm files relative to itself (new URL(...,
// import.meta.url)), so it must stay beside its assets/ folder, never bundled into the site's
// chunks. The dev server serves this package's folder under /attention-playground/ as it is; the
// build leaves the script's URL alone (external) and copies the folder into the output, without
// the .gz/.br copies and this file. `base` changes the folder's URL path.
import { cpSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = dirname(fileURLToPath(import.meta.url)); // the package's dist/
const TYPES = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};
const SKIP = /\.(gz|br)$|vite-plugin\.mjs$/;

/** The file of the package's folder at URL path `rest` ('/assets/x.js'), or null. */
function fileAt(rest) {
  const file = resolve(DIR, `.${rest}`);
  if (relative(DIR, file).startsWith('..') || SKIP.test(file)) return null;
  try {
    return statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

/** @param {{base?: string}} [options] base: the folder's URL path (default /attention-playground/) */
export default function attentionPlayground({ base = '/attention-playground/' } = {}) {
  const prefix = base.endsWith('/') ? base : `${base}/`;
  let outDir = '';
  let serving = false;
  return {
    name: 'attention-playground',
    // Built pages keep the URL (external); the dev server's own look-ahead (it pre-transforms the
    // pages' module scripts) finds the file, though the browser's request is answered below.
    resolveId(id) {
      if (!id.startsWith(prefix)) return null;
      return serving ? fileAt(id.slice(prefix.length - 1)) : { id, external: true };
    },
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      serving = config.command === 'serve';
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        let path = '';
        try {
          path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
        } catch {
          return next();
        }
        const file = path.startsWith(prefix) ? fileAt(path.slice(prefix.length - 1)) : null;
        if (!file) return next();
        res.setHeader('Content-Type', TYPES[extname(file)] ?? 'application/octet-stream');
        res.end(readFileSync(file));
      });
    },
    writeBundle() {
      cpSync(DIR, join(outDir, ...prefix.split('/').filter(Boolean)), {
        recursive: true,
        filter: (f) => !SKIP.test(f) && !f.split(sep).includes('.npmignore'),
      });
    },
  };
}
