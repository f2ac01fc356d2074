// The web side's layering (build-scripts/check-web-layers.mjs), as tests/native/layers_test.sh
// checks the core's: the real tree holds it, and a synthetic tree with one forbidden edge is
// refused, naming the file and its line, for every folder each rule forbids: panels/ use neither
// run/ nor client/, state/ and common/ are leaves, the worker uses no client, pages talk to the
// client and never to the worker, a demo loads neither a page nor a widget, build scripts import no
// page. A JSDoc type import and Vite's import.meta.glob are edges too (since 2026-12-07: the
// panels named client/ and run/ types, and the widget loaded every demo by a glob, unseen).
// Allowed edges, the engine's declaration (wasm-api.d.ts) and packages are not reported.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkWebLayers, RULES } from '../../build-scripts/check-web-layers.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A tree of one file `from` whose line 3 imports `to` (written `how`), checked.
 * @param {string} from @param {string} to @param {(spec: string) => string} [how]
 */
function check(from, to, how = (spec) => `import { x } from '${spec}';`) {
  const root = mkdtempSync(join(tmpdir(), 'web-layers-'));
  try {
    let spec = posix.relative(posix.dirname(from), to);
    if (!spec.startsWith('.')) spec = `./${spec}`;
    for (const [file, text] of [
      [from, `// a file\nconst y = 1;\n${how(spec)}\nexport { y };\n`],
      [to, 'export const x = 1;\n'],
    ]) {
      mkdirSync(join(root, dirname(file)), { recursive: true });
      writeFileSync(join(root, file), text);
    }
    return checkWebLayers(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('the real tree holds its layering', () => {
  assert.deepEqual(checkWebLayers(ROOT), []);
});

// [the importing file, the file it imports]: one forbidden edge each.
const FORBIDDEN = [
  ['web/src/panels/p.js', 'web/src/run/run-controller.js'],
  ['web/src/panels/p.js', 'web/src/client/client.js'],
  ['web/src/panels/p.js', 'web/src/worker/protocol.js'],
  ['web/src/state/hash.js', 'web/src/run/text-source.js'],
  ['web/src/state/s.js', 'web/src/panels/dom.js'],
  ['web/src/common/c.js', 'web/src/state/text.js'],
  ['web/src/common/c.js', 'web/src/client/client.js'],
  ['web/src/charts/c.js', 'web/src/run/replay.js'],
  ['web/src/charts/c.js', 'web/src/client/client.js'],
  ['web/src/charts/c.js', 'web/src/worker/worker.js'],
  ['web/src/charts/c.js', 'web/src/panels/dom.js'],
  ['web/src/charts/c.js', 'web/src/pages/playground/main.js'],
  ['web/src/worker/load-module.js', 'web/src/client/simd-support.js'],
  ['web/src/worker/w.js', 'web/src/run/run-controller.js'],
  ['web/src/worker/w.js', 'web/src/panels/dom.js'],
  ['web/src/worker/w.js', 'web/src/pages/playground/main.js'],
  ['web/src/pages/playground/p.js', 'web/src/worker/protocol.js'],
  ['web/src/demos/probe/d.js', 'web/src/worker/session.js'],
  ['web/src/demos/probe/d.js', 'web/src/widgets/attributes.js'],
  ['web/src/demos/probe/d.js', 'web/src/pages/demos/pages.mjs'],
  ['web/src/panels/p.js', 'web/src/demos/probe/index.js'],
  ['web/src/panels/p.js', 'web/src/widgets/widget-app.js'],
  ['web/src/widgets/w.js', 'web/src/worker/protocol.js'],
  ['build-scripts/experiments/stats.mjs', 'web/src/pages/experiments/csv.js'],
  ['build-scripts/b.mjs', 'web/src/pages/demos/pages.mjs'],
];

test('every rule has a forbidden edge below that it refuses', () => {
  for (const r of RULES)
    assert.ok(
      FORBIDDEN.some(([from]) => from.startsWith(r.from)),
      `no case for ${r.from}`,
    );
});

for (const [from, to] of FORBIDDEN) {
  test(`${from} importing ${to} is refused, naming the file and line`, () => {
    const problems = check(from, to);
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.ok(problems[0].startsWith(`${from}:3 imports ${to}: `), problems[0]);
  });
}

test('every form of import is an edge: dynamic, re-export, bare, a multi-line import, a JSDoc type, a glob', () => {
  const to = 'web/src/run/replay.js';
  for (const how of [
    (/** @type {string} */ s) => `const m = () => import('${s}');`,
    (/** @type {string} */ s) => `export { x } from '${s}';`,
    (/** @type {string} */ s) => `import '${s}';`,
    (/** @type {string} */ s) => `import {\n  x,\n} from '${s}';`,
    (/** @type {string} */ s) => `/** @type {import('${s}').ReplayFrames} */ let f;`,
    (/** @type {string} */ s) => `/**\n * @param {import("${s}").ReplaySource} m */`.replace('/**\n', '/** '),
    (/** @type {string} */ s) => `const all = import.meta.glob('${s.replace('replay.js', '*.js')}');`,
    (/** @type {string} */ s) => `const all = import.meta.glob(['${s}', '../x/*.js']);`,
  ]) {
    const problems = check('web/src/panels/p.js', to, how);
    assert.equal(problems.length, 1, `${how('…')}: ${problems.join('\n')}`);
    // (a glob's edge is to the folder before its first wildcard)
    assert.match(
      problems[0],
      /^web\/src\/panels\/p\.js:3 imports web\/src\/run\/(replay\.js)?: panels\/ are views only/,
    );
  }
});

// What the layout allows: none of these is reported.
const ALLOWED = [
  ['web/src/panels/p.js', 'web/src/state/text.js'],
  ['web/src/panels/p.js', 'web/src/common/nearest.js'],
  ['web/src/panels/p.js', 'web/src/charts/heatmap.js'],
  ['web/src/state/hash.js', 'web/src/state/text.js'],
  ['web/src/state/s.js', 'web/src/common/csv.js'],
  ['web/src/worker/load-module.js', 'web/src/common/simd-support.js'],
  ['web/src/client/client.js', 'web/src/worker/protocol.js'],
  ['web/src/client/client.js', 'web/src/common/simd-support.js'],
  ['web/src/run/run-set.js', 'web/src/run/run-controller.js'],
  ['web/src/pages/playground/p.js', 'web/src/run/run-set.js'],
  ['web/src/widgets/w.js', 'web/src/panels/compare-view.js'],
  ['build-scripts/experiments/stats.mjs', 'web/src/common/csv.js'],
];

for (const [from, to] of ALLOWED) {
  test(`${from} importing ${to} is allowed`, () => {
    assert.deepEqual(check(from, to), []);
  });
}

test("a package and the engine's declaration (wasm-api.d.ts) are no edges", () => {
  assert.deepEqual(
    check('web/src/panels/p.js', 'web/src/run/replay.js', () => `import uPlot from 'uplot';`),
    [],
  );
  assert.deepEqual(
    check(
      'web/src/state/s.js',
      'web/src/wasm-api.d.ts',
      (spec) => `/** @type {import('${spec.replace('.d.ts', '')}').Registry} */`,
    ),
    [],
  );
});
