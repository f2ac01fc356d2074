// build-scripts/check-web-layers.mjs [ROOT] — the web side's layers, as check-layers.sh keeps the
// core's. Every import (static, dynamic with a literal, `export … from`) of web/src/**/*.js and
// build-scripts/**/*.mjs is resolved, and an edge the layout forbids is reported:
//   common/       the lowest leaf (csv, csv-safe, simd-support, nearest: no DOM): imports nothing of
//                 web/src outside common/; every layer and the build scripts may use it
//   state/        a leaf: it imports nothing of web/src outside state/ and common/ (one field reader,
//                 one hash owner; the fields' limits, e.g. text.js)
//   panels/       views only: never run/, client/ or worker/
//   charts/       drawing only: never run/, client/, worker/, panels/ or pages/
//   worker/       owns the module: never client/, run/, panels/ or pages/
//   pages/, demos/, widgets/  talk to the client, never to the worker
//   build-scripts never import a page (web/src/pages/)
// Exit code 1 when an edge is forbidden, naming the file, the line and the rule.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export const RULES = [
  { from: 'web/src/common/', allowOnly: ['web/src/common/'], why: 'common/ is the lowest leaf' },
  { from: 'web/src/state/', allowOnly: ['web/src/state/', 'web/src/common/'], why: 'state/ is a leaf' },
  {
    from: 'web/src/panels/',
    deny: ['web/src/run/', 'web/src/client/', 'web/src/worker/'],
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
  { from: 'web/src/widgets/', deny: ['web/src/worker/'], why: 'widgets talk to the client, never to the worker' },
  { from: 'build-scripts/', deny: ['web/src/pages/'], why: 'build scripts import no page' },
];

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;(=])import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

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
    // JSDoc type imports (`@type {import('…')}`) are no runtime edge: comments are blanked first,
    // keeping their newlines so that line numbers stay true.
    const text = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
      .replace(/^\s*\/\/.*$/gm, '');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec.startsWith('.')) continue; // packages and bare names are not layers
      const target = relative(root, resolve(dirname(file), spec))
        .split(sep)
        .join('/');
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
