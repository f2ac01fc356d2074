// web/src/wasm-api.d.ts against the bindings' declaration (core/bindings/bindings.cpp): every
// function, method and class function that EMSCRIPTEN_BINDINGS exports is declared in the types
// under its JS name with as many parameters as its C++ definition takes, and the types declare
// nothing the module lacks (the optional, build-dependent members excepted), so a binding added,
// renamed or given a parameter fails here until the types say so. The module is checked too: each
// name is a function on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadModule, ROOT } from './load.mjs';

const CPP = readFileSync(resolve(ROOT, 'core/bindings/bindings.cpp'), 'utf8');
const DTS = readFileSync(resolve(ROOT, 'web/src/wasm-api.d.ts'), 'utf8');
const block = CPP.slice(CPP.indexOf('EMSCRIPTEN_BINDINGS('));

/** Parameters in a list's text ('' → 0). @param {string} list */
const count = (list) => (list.trim() ? list.split(',').length : 0);

/** The C++ parameter count of `name`'s definition (a member of Session or a free function). @param {string} name */
function cppArity(name) {
  const def = new RegExp(`[\\w>&*]\\s+${name}\\(([^)]*)\\)\\s*(?:const\\s*)?\\{`).exec(CPP);
  assert.ok(def, `bindings.cpp: no definition of ${name}`);
  return count(def[1]);
}

/** [js name, C++ name] of each binding, by kind. */
const bound = {
  module: [...block.matchAll(/emscripten::function\("(\w+)", &(\w+)\)/g)].map((m) => [m[1], m[2]]),
  session: [...block.matchAll(/\.function\("(\w+)", &Session::(\w+)\)/g)].map((m) => [m[1], m[2]]),
  constructor: [...block.matchAll(/\.class_function\("(\w+)", &Session::(\w+)/g)].map((m) => [m[1], m[2]]),
};

/** {name: parameter count} of an interface's methods in the types (optional ones marked). @param {string} name */
function declared(name) {
  const start = DTS.indexOf(`export interface ${name} {`);
  assert.ok(start >= 0, `wasm-api.d.ts: no interface ${name}`);
  const body = DTS.slice(start, DTS.indexOf('\n}', start));
  /** @type {Record<string, {n: number, optional: boolean}>} */
  const out = {};
  for (const m of body.matchAll(/^ {2}(\w+)(\??)\(([^)]*)\)/gm)) out[m[1]] = { n: count(m[3]), optional: m[2] === '?' };
  return out;
}

const cases = /** @type {const} */ ([
  ['module', 'AttnplayModule'],
  ['session', 'Session'],
  ['constructor', 'SessionConstructor'],
]);

for (const [kind, iface] of cases) {
  test(`wasm-api.d.ts ${iface} declares the bindings' ${kind} functions with their parameters`, () => {
    const types = declared(iface);
    assert.ok(bound[kind].length >= 2, `found the ${kind} bindings`);
    for (const [js, cpp] of bound[kind]) {
      assert.ok(types[js], `${iface}.${js} (bindings.cpp: ${cpp}) is not declared in wasm-api.d.ts`);
      // a static load(bytes) in the bindings takes the same parameters as its JS form
      assert.equal(types[js].n, cppArity(cpp), `${iface}.${js}: parameters in wasm-api.d.ts vs ${cpp} in bindings.cpp`);
    }
    const names = new Set(bound[kind].map(([js]) => js));
    const extra = Object.entries(types)
      .filter(([k, v]) => !names.has(k) && !v.optional && k !== 'delete')
      .map(([k]) => k);
    assert.deepEqual(extra, [], `declared in wasm-api.d.ts ${iface} but not bound`);
  });
}

test('new Session(...) takes as many parameters as the bound constructor', () => {
  const ctor = /\.constructor<([^>]*)>\(\)/.exec(block);
  const dts = /^ {2}new \(([^)]*)\): Session;/m.exec(DTS);
  assert.ok(ctor && dts, 'the constructor in bindings.cpp and in wasm-api.d.ts');
  assert.equal(count(dts[1]), count(ctor[1]));
});

test('the module has every bound name as a function', async () => {
  const m = await loadModule('simd');
  for (const [js] of bound.module) assert.equal(typeof m[js], 'function', js);
  for (const [js] of bound.constructor) assert.equal(typeof m.Session[js], 'function', `Session.${js}`);
  for (const [js] of bound.session) assert.equal(typeof m.Session.prototype[js], 'function', `Session#${js}`);
});
