// build-scripts/check-web-layers.mjs [ROOT] — the web side's layers, as check-layers.sh keeps the
// core's. Every import (static, dynamic with a literal, `export … from`) of web/src/**/*.js and
// build-scripts/**/*.mjs is resolved, and an edge the layout forbids is reported:
//   common/       the lowest leaf (csv, csv-safe, simd-support, nearest: no DOM): imports nothing of
//                 web/src outside common/; every layer and the build scripts may use it
//   state/        a leaf: it imports nothing of web/src outside state/ and common/ (one field reader,
//                 one hash owner; the fields' limits, e.g. text.js)
//   panels/       views only: never run/, client/, worker/, demos/, pages/ or widgets/ (not even
//                 a type: a panel declares the shape of the model it is handed)
//   charts/       drawing only: never run/, client/, worker/, panels/ or pages/
//   worker/       owns the module: never client/, run/, panels/ or pages/
//   pages/, demos/, widgets/  talk to the client, never to the worker; a demo (demos/) is a layer
//                 of its own, which the widget and the demo pages load and which loads neither
// A JSDoc type import (`{import('…')}`) and Vite's import.meta.glob (an edge to the folder before
// its first wildcard) are edges too; the engine's declaration (wasm-api.d.ts) is every layer's.
//   build-scripts never import a page (web/src/pages/)
// Exit code 1 when an edge is forbidden, naming the file, the line and the rule.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export const RULES = [
  { from: 'web/src/common/', allowOnly: ['web/src/common/'], why: 'common/ is the lowest leaf' },
  { from: 'web/src/state/', allowOnly: ['web/src/state/', 'web/src/common/'], why: 'state/ is a leaf' },
  {
    from: 'web/src/panels/',
    deny: [
      'web/src/run/',
      'web/src/client/',
      'web/src/worker/',
      'web/src/demos/',
      'web/src/pages/',
      'web/src/widgets/',
    ],
    why: 'panels/ are views only',
  },
  {
    from: 'web/src/charts/',
    deny: ['web/src/run/', 'web/src/client/', 'web/src/worker/', 'web/src/panels/', 'web/src/pages/'],
    why: 'charts/ only draw',
  },
  {
    from: 'web/src/worker/',
    deny: ['web/src/client/', 'web/src/run/', 'web/src/panels/', 'web/src/pages/'],
    why: 'the worker uses no client',
  },
  { from: 'web/src/pages/', deny: ['web/src/worker/'], why: 'pages talk to the client, never to the worker' },
  { from: 'web/src/demos/', deny: ['web/src/worker/'], why: 'demos talk to the client, never to the worker' },
  {
    from: 'web/src/demos/',
    deny: ['web/src/pages/', 'web/src/widgets/'],
    why: 'a demo is a layer of its own: the widget and the demo pages load it, it loads neither',
  },
  { from: 'web/src/widgets/', deny: ['web/src/worker/'], why: 'widgets talk to the client, never to the worker' },
  { from: 'build-scripts/', deny: ['web/src/pages/'], why: 'build scripts import no page' },
];

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;(=])import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

// Vite's import.meta.glob('../demos/*/index.js') (or a list of patterns: each is read): an edge to
// the folder before the pattern's first wildcard.
const GLOB = /import\.meta\.glob\(\s*(\[[^\]]*\]|['"][^'"]+['"])/g;
/** @param {string|undefined} pattern */
const globBase = (pattern) => {
  const wild = pattern.search(/[*?{[]/);
  return wild < 0 ? pattern : pattern.slice(0, wild);
};

// The engine's contract as types (wasm-api.d.ts, the bindings' declaration) and the vendored
// packages' types: every layer may name them.
const DECLARATIONS = ['web/src/wasm-api', 'web/src/wasm-api.d.ts', 'web/src/vendor.d.ts'];

function files(dir, exts) {
  let out = [];
  let names = [];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const n of names) {
    if (n === 'node_modules' || n === 'wasm') continue;
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out = out.concat(files(p, exts));
    else if (exts.some((e) => n.endsWith(e))) out.push(p);
  }
  return out;
}

/** @param {string} root @returns {string[]} one message per forbidden edge */
export function checkWebLayers(root) {
  const problems = [];
  const sources = [
    ...files(join(root, 'web/src'), ['.js', '.mjs']),
    ...files(join(root, 'build-scripts'), ['.mjs', '.js']),
  ];
  for (const file of sources) {
    const rel = relative(root, file).split(sep).join('/');
    const rules = RULES.filter((r) => rel.startsWith(r.from));
    if (!rules.length) continue;
    // Comments are blanked first (their newlines kept, so that line numbers stay true), but a JSDoc
    // type import (`@type {import('…')}`) in them is kept: a type is an edge too.
    const text = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, (c) =>
        c.replace(/import\(\s*['"][^'"]+['"]\s*\)|[^\n]/g, (x) => (x.length > 1 ? x : ' ')),
      )
      .replace(/^\s*\/\/.*$/gm, '');
    const found = [
      ...[...text.matchAll(IMPORT)].map((m) => ({ m, spec: m[1] ?? m[2] ?? m[3] })),
      ...[...text.matchAll(GLOB)].flatMap((m) =>
        [...m[1].matchAll(/['"]([^'"]+)['"]/g)].map((q) => ({ m, spec: globBase(q[1].replace(/^!/, '')) })),
      ),
    ];
    for (const { m, spec } of found) {
      if (!spec.startsWith('.')) continue; // packages and bare names are not layers
      const target =
        relative(root, resolve(dirname(file), spec))
          .split(sep)
          .join('/') + (spec.endsWith('/') ? '/' : '');
      if (DECLARATIONS.includes(target)) continue;
      const line = text.slice(0, m.index).split('\n').length + (m[0].startsWith('\n') ? 1 : 0);
      for (const r of rules) {
        const bad = r.allowOnly
          ? target.startsWith('web/src/') && !r.allowOnly.some((a) => target.startsWith(a))
          : r.deny.some((d) => target.startsWith(d));
        if (bad) problems.push(`${rel}:${line} imports ${target}: ${r.why}`);
      }
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));
  const problems = checkWebLayers(root);
  for (const p of problems) console.error(`check-web-layers: ${p}`);
  if (problems.length) process.exit(1);
  console.log(`check-web-layers: web/ layering holds (${RULES.length} rules)`);
}
