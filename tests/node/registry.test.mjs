// The registry as data (web/src/state/registry.gen.js, build-scripts/registry.mjs): the page's copy
// is the native build's registry, and the module's registry has the same structure without the
// prose (core/common/doc.hpp leaves it out of the wasm data segment).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadModule } from './load.mjs';
import { REGISTRY_FILE, nativeRegistry, registryModule } from '../../build-scripts/registry.mjs';
import registry from '../../web/src/state/registry.gen.js';

const PROSE = new Set(['title', 'formula', 'where', 'note', 'description', 'example', 'help']);

/** A copy of a registry with every prose field emptied. @param {any} x @returns {any} */
function withoutProse(x) {
  if (Array.isArray(x)) return x.map(withoutProse);
  if (x === null || typeof x !== 'object') return x;
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, PROSE.has(k) ? '' : withoutProse(v)]));
}

test('the page imports the native build registry, byte for byte', () => {
  const want = registryModule(nativeRegistry());
  assert.ok(
    readFileSync(REGISTRY_FILE, 'utf8') === want,
    `${REGISTRY_FILE} is not the native build's registry: run node build-scripts/registry.mjs and commit it`,
  );
});

test('the page has every entry with its prose', () => {
  for (const family of ['positions', 'normalizations']) {
    assert.ok(registry[family].length >= 10, family);
    for (const e of registry[family]) {
      assert.ok(e.title.length > 2 && e.formula.length > 2 && e.note.length > 20, `${family} ${e.name}`);
      for (const o of e.options) assert.ok(o.help.length > 5, `${e.name}: ${o.key}`);
    }
  }
  for (const t of registry.tasks) assert.match(t.example, /^in: /, t.name);
  assert.deepEqual(registry.live_keys, ['lr', 'clip', 'warmup', 'schedule', 'weight_decay', 'steps']);
});

for (const variant of /** @type {const} */ (['simd', 'scalar', 'threads'])) {
  test(`the ${variant} module has the same registry without its prose`, async () => {
    const m = await loadModule(variant, variant === 'threads' ? { pthreadPoolSize: 1 } : {});
    const own = JSON.parse(m.registry());
    assert.deepEqual(own, withoutProse(registry));
    const rope = own.positions.find((/** @type {{name: string}} */ e) => e.name === 'rope');
    assert.equal(rope.note, '', 'the prose is left out of the module');
    if (variant === 'threads') m.unrefThreads?.(); // let Node exit while the pthread workers idle
  });
}
