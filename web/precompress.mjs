// Precompressed copies for static hosts that serve them (nginx gzip_static / brotli_static, Caddy
// `precompressed`, the preview server below): `npm run build` writes `<file>.gz` (gzip -9) and
// `<file>.br` (brotli, quality 11) beside every .wasm, .js, .css and .html file of dist/ over 1 KB.
// The wasm matters most: 850–910 KB as sent by a host that does not compress it, about 300 KB gzipped.
// precompressedMiddleware() serves those copies to a client that accepts them (Content-Encoding,
// Vary: Accept-Encoding); web/vite.config.mjs adds it to `vite preview`, whose own compression
// leaves application/wasm alone.
import { brotliCompress, gzip, constants } from 'node:zlib';
import { promisify } from 'node:util';
import { readdir, readFile, writeFile, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { resolve, join, extname, sep } from 'node:path';

const COMPRESS = /\.(wasm|js|mjs|css|html)$/;
const TYPES = {
  '.wasm': 'application/wasm',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};
// Preferred first: brotli is about 15 % smaller than gzip on the wasm.
const ENCODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
];

/** Every file under `dir` (paths). @param {string} dir @returns {Promise<string[]>} */
async function files(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await files(p)));
    else out.push(p);
  }
  return out;
}

/**
 * Write the .gz and .br of every compressible file of `dir`.
 * @param {string} dir
 * @returns {Promise<{file: string, bytes: number, gzip: number, brotli: number}[]>} what was written
 */
export async function precompress(dir) {
  const list = (await files(dir)).filter((f) => COMPRESS.test(f));
  return Promise.all(
    list.map(async (file) => {
      const bytes = await readFile(file);
      if (bytes.length < 1024) return null;
      const [gz, br] = await Promise.all([
        promisify(gzip)(bytes, { level: 9 }),
        promisify(brotliCompress)(bytes, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
        }),
      ]);
      await Promise.all([writeFile(`${file}.gz`, gz), writeFile(`${file}.br`, br)]);
      return { file, bytes: bytes.length, gzip: gz.length, brotli: br.length };
    }),
  ).then((r) => r.filter((x) => x !== null));
}

/**
 * Connect middleware: answer a GET for a file of `dir` with its precompressed copy when the client
 * accepts that encoding, else pass on. `headers` are added to each answer (the server's own).
 * @param {string} dir
 * @param {Record<string, string>} [headers]
 */
export function precompressedMiddleware(dir, headers = {}) {
  const root = resolve(dir);
  return async (/** @type {any} */ req, /** @type {any} */ res, /** @type {() => void} */ next) => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      const type = TYPES[extname(path)];
      if (!type) return next();
      const file = resolve(root, `.${path}`);
      if (!file.startsWith(root + sep)) return next();
      const accept = String(req.headers['accept-encoding'] ?? '');
      for (const [encoding, ext] of ENCODINGS) {
        if (!new RegExp(`\\b${encoding}\\b`).test(accept)) continue;
        const info = await stat(file + ext).catch(() => null);
        if (!info?.isFile()) continue;
        res.writeHead(200, {
          ...headers,
          'content-type': type,
          'content-encoding': encoding,
          'content-length': info.size,
          vary: 'Accept-Encoding',
          'cache-control': 'no-cache',
        });
        if (req.method === 'HEAD') return res.end();
        return createReadStream(file + ext).pipe(res);
      }
      next();
    } catch {
      next();
    }
  };
}

/**
 * The Vite plugin: `vite preview` serves the precompressed copies of its build folder.
 * @returns {import('vite').Plugin}
 */
export function precompressedPreview() {
  return {
    name: 'attention-playground-precompressed',
    configurePreviewServer(server) {
      const { build, root, preview } = server.config;
      server.middlewares.use(
        precompressedMiddleware(
          resolve(root, build.outDir),
          /** @type {Record<string, string>} */ (preview.headers ?? {}),
        ),
      );
    },
  };
}
