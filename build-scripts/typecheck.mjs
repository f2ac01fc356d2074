// build-scripts/typecheck.mjs [tsconfig] — npm test's type check: tsc --checkJs over the web
// sources listed in tsconfig.json, against the hand-written contract web/src/wasm-api.d.ts.
// Prints tsc's errors and exits non-zero when there are any. TypeScript comes from the npm
// registry (devDependencies, pinned); NODE_PATH is searched too.
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const project = resolve(root, process.argv[2] ?? 'tsconfig.json');
let tsc;
try {
  tsc = createRequire(resolve(root, 'package.json')).resolve('typescript/bin/tsc');
} catch {
  console.error('typecheck: the typescript package is missing: run npm ci (or build-scripts/setup.sh)');
  process.exit(2);
}
const r = spawnSync(process.execPath, [tsc, '--project', project, '--pretty', 'false'], {
  cwd: root,
  encoding: 'utf8',
});
process.stdout.write(r.stdout ?? '');
process.stderr.write(r.stderr ?? '');
const errors = (r.stdout.match(/error TS\d+/g) ?? []).length;
console.log(
  r.status === 0 ? `typecheck: no errors (${project.slice(root.length + 1)})` : `typecheck: ${errors} error(s)`,
);
process.exit(r.status === 0 ? 0 : 1);
