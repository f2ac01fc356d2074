// web/src/wasm-api.d.ts against the bindings (issue 45): the declaration is written by hand, so
// this checks it against both sources of truth. From core/bindings/bindings.cpp, every function,
// class function and method Embind exports is declared, and nothing is declared that is not
// exported; from the loaded module (wasm-simd under Node), each declared function exists and takes
// as many arguments as the declaration names (Embind's functions have one parameter per argument).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadModule, ROOT } from './load.mjs';

const DTS = readFileSync(resolve(ROOT, 'web/src/wasm-api.d.ts'), 'utf8');
const BINDINGS = readFileSync(resolve(ROOT, 'core/bindings/bindings.cpp'), 'utf8');

/**
 * The methods an interface of the declaration names, with their parameter counts.
 * @param {string} name
 * @returns {Map<string, {params: number, optional: boolean}>}
 */
function declared(name) {
  const body = new RegExp(`export interface ${name} \\{([\\s\\S]*?)\\n\\}`).exec(DTS)?.[1];
  assert.ok(body, `wasm-api.d.ts declares interface ${name}`);
  const clean = body.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const out = new Map();
  for (const m of clean.matchAll(/^\s*([a-zA-Z]\w*)(\?)?\(([^)]*)\)\s*:/gm)) {
    const params = m[3].trim() ? m[3].split(',').length : 0;
    out.set(m[1], { params, optional: Boolean(m[2]) });
  }
  return out;
}

/** The names bindings.cpp exports with `kind` ("emscripten::function", ".function", ".class_function"). */
function exported(kind) {
  const re = new RegExp(`${kind.replace('.', '\\.')}\\("(\\w+)"`, 'g');
  return new Set([...BINDINGS.matchAll(re)].map((m) => m[1]));
}

const SIDES = [
  { iface: 'AttnplayModule', kind: 'emscripten::function', on: (/** @type {any} */ m) => m },
  { iface: 'Session', kind: '.function', on: (/** @type {any} */ m) => m.Session.prototype },
  { iface: 'SessionConstructor', kind: '.class_function', on: (/** @type {any} */ m) => m.Session },
];
// Declared, not from a binding line: Embind's own delete() on every object, and unrefThreads (the
// threads build's pre-js, core/bindings/threads-pre.js; optional).
const NOT_BOUND = new Set(['delete', 'unrefThreads']);

test('every function the bindings export is declared in wasm-api.d.ts, and every declared one is exported', () => {
  for (const { iface, kind } of SIDES) {
    const names = new Set([...declared(iface).keys()].filter((n) => !NOT_BOUND.has(n)));
    const bound = exported(kind);
    assert.deepEqual(
      [...bound].filter((n) => !names.has(n)),
      [],
      `${iface}: exported by bindings.cpp (${kind}) but not declared in wasm-api.d.ts`,
    );
    assert.deepEqual(
      [...names].filter((n) => !bound.has(n)),
      [],
      `${iface}: declared in wasm-api.d.ts but not exported by bindings.cpp`,
    );
  }
});

test("each declared function takes the declaration's number of arguments in the loaded module", async () => {
  const m = await loadModule('simd');
  for (const { iface, on } of SIDES)
    for (const [name, { params, optional }] of declared(iface)) {
      const f = on(m)[name];
      if (optional && f === undefined) continue;
      assert.equal(typeof f, 'function', `${iface}.${name} exists in the module`);
      if (name === 'delete') continue; // Embind's own
      assert.equal(f.length, params, `${iface}.${name}: the module's function takes ${f.length} arguments`);
    }
});
