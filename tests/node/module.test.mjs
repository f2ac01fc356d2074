// The wasm module under Node: both variants load, report their version and SIMD architecture.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadModule, ROOT } from './load.mjs';

const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8'));

test('the SIMD variant loads and uses xsimd sse4.1 (mapped to wasm SIMD128)', async () => {
  const m = await loadModule('simd');
  assert.equal(m.version(), pkg.version);
  assert.equal(m.simdArch(), 'sse4.1');
  assert.equal(m.simdEnabled(), true);
});

test('the scalar variant loads and has no SIMD', async () => {
  const m = await loadModule('scalar');
  assert.equal(m.version(), pkg.version);
  assert.equal(m.simdArch(), 'scalar');
  assert.equal(m.simdEnabled(), false);
});
