// A tiny static file server on 127.0.0.1 for the browser tests of the built folder (dist/): it
// proves that the build works from any static host, with no special headers (no COOP/COEP;
// `isolate` adds them, as docs/threads.md asks of a host for the threaded build). It
// counts requests per path, can serve extra in-memory pages (test fixtures), and allows
// cross-origin reads as a CDN does.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { resolve, extname, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.md': 'text/markdown; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.png': 'image/png',
};

/**
 * Serve `dir` (and `extra` {path: html}) on a free port.
 * @param {{isolate?: boolean, cors?: boolean}} [opts] isolate: send COOP/COEP (the pages become
 *   crossOriginIsolated); cors: false leaves out Access-Control-Allow-Origin (a host that was not set up for it)
 * @returns {Promise<{url: string, hits: Map<string, number>, extra: Map<string, string>, close(): Promise<void>}>}
 */
export async function serveStatic(dir, extra = {}, { isolate = false, cors = true } = {}) {
  const isolation = isolate
    ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' }
    : {};
  const root = resolve(dir);
  const hits = new Map();
  const pages = new Map(Object.entries(extra));
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (pages.has(path)) {
      res.writeHead(200, { 'content-type': TYPES['.html'], ...isolation });
      return res.end(pages.get(path));
    }
    const file = resolve(root, `.${path.endsWith('/') ? `${path}index.html` : path}`);
    if (file !== root && !file.startsWith(root + sep)) return res.writeHead(403).end();
    try {
      const info = await stat(file);
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'last-modified': info.mtime.toUTCString(),
        ...(cors ? { 'access-control-allow-origin': '*' } : {}), // as a CDN serves an npm package
        ...isolation,
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    hits,
    extra: pages,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
}
