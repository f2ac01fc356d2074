// The config field `layernorm` (LayerNorm before or after each sublayer) was `norm_position`:
// the old name still reads everywhere a config comes in (a config object, --set / the URL hash's
// text values, a model file's metadata, load overrides) and only the new one is written.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, sessionWith } from './load.mjs';
import REGISTRY from '../../web/src/state/registry.gen.js';

let m;
before(async () => {
  m = await loadModule('simd');
});

const TINY = { task: 'copy', seq_len: 6, d_model: 8, heads: 2, layers: 1, ffn: 8, batch: 2, eval_every: 0, seed: 3 };

/** A model file with its metadata's config rewritten by `edit` (what an older version wrote). */
function rewriteConfig(bytes, edit) {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  header.__metadata__.config = JSON.stringify(edit(JSON.parse(header.__metadata__.config)));
  let text = JSON.stringify(header);
  while ((8 + new TextEncoder().encode(text).length) % 8) text += ' ';
  const head = new TextEncoder().encode(text);
  const out = new Uint8Array(8 + head.length + bytes.length - 8 - n);
  new DataView(out.buffer).setBigUint64(0, BigInt(head.length), true);
  out.set(head, 8);
  out.set(bytes.subarray(8 + n), 8 + head.length);
  return out;
}

test('the registry names the field layernorm; a config under the old name reads, the new is written', () => {
  const { config: schema } = REGISTRY;
  assert.ok(schema.some((f) => f.key === 'layernorm'));
  assert.ok(!schema.some((f) => f.key === 'norm_position'));
  const check = JSON.parse(m.checkConfig(JSON.stringify({ ...TINY, norm_position: 'post' })));
  assert.equal(check.ok, true);
  assert.equal(check.config.layernorm, 'post');
  assert.equal('norm_position' in check.config, false);
  const bad = JSON.parse(m.checkConfig(JSON.stringify({ ...TINY, norm_position: 'middle' })));
  assert.match(bad.error, /^layernorm: 'middle' is not allowed; expected one of pre, post/);
});

test('a model file written with norm_position loads as the same model, and saves layernorm', () => {
  const config = { ...TINY, layernorm: 'post' };
  const [bytes, before] = sessionWith(m, config, (s) => {
    s.trainChunk(3);
    return [s.save(), JSON.parse(s.evaluate(0)).loss];
  });
  const old = rewriteConfig(bytes, ({ layernorm, ...rest }) => ({ ...rest, norm_position: layernorm }));
  assert.notEqual(
    new TextDecoder().decode(old.subarray(0, 2000)).indexOf('norm_position'),
    -1,
    'the rewritten file has the old name',
  );
  const s = m.Session.load(old);
  try {
    const info = JSON.parse(s.info());
    assert.equal(info.config.layernorm, 'post');
    assert.equal(JSON.parse(s.evaluate(0)).loss, before, 'the same model');
    const again = new TextDecoder().decode(s.save().subarray(0, 4000));
    assert.match(again, /layernorm/);
    assert.doesNotMatch(again, /norm_position/);
  } finally {
    s.delete();
  }
  // An override under the new name replaces the old file's field.
  const t = m.Session.loadWith(old, JSON.stringify({ layernorm: 'pre' }));
  try {
    assert.equal(JSON.parse(t.info()).config.layernorm, 'pre');
  } finally {
    t.delete();
  }
});

test('an old link (#norm_position=post) and an old saved config still set layernorm; links are written with the new name', async () => {
  const { buildProperties } = await import('../../web/src/state/properties.js');
  const { hashToState, configToState, stateToHash } = await import('../../web/src/state/hash.js');
  const registry = REGISTRY;
  const props = buildProperties(registry);
  const link = hashToState('#task=copy&norm_position=post', props, registry);
  assert.deepEqual(link.ignored, []);
  assert.equal(link.state.layernorm, 'post');
  assert.match(stateToHash(link.state), /layernorm=post/);
  assert.doesNotMatch(stateToHash(link.state), /norm_position/);
  const file = configToState({ task: 'copy', norm_position: 'post' }, props, registry);
  assert.deepEqual(file.ignored, []);
  assert.equal(file.state.layernorm, 'post');
  assert.equal(
    configToState({ task: 'copy', norm_position: 'post', layernorm: 'pre' }, props, registry).state.layernorm,
    'pre',
    'the new name wins',
  );
});

test('the table of renamed fields is the core one: the registry gives it, the web keeps no copy', async () => {
  const registry = REGISTRY;
  assert.deepEqual(registry.renamed, { norm_position: 'layernorm' });
  const keys = new Set(registry.config.map((f) => f.key));
  for (const [old, now] of Object.entries(registry.renamed)) {
    assert.ok(keys.has(now), `${now} (the new name of ${old}) is a field`);
    assert.ok(!keys.has(old), `${old} is no field any more`);
  }
  // No source under web/src names an old field: each reads the registry's table.
  const { readdirSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const root = new URL('../../web/src/', import.meta.url).pathname;
  // registry.gen.js is the core's registry as data (its `renamed` is the core's table)
  const files = readdirSync(root, { recursive: true }).filter(
    (f) => /\.(m?js|ts)$/.test(f) && !f.startsWith('wasm/') && !f.endsWith('registry.gen.js'),
  );
  assert.ok(files.length > 50, `${files.length} sources read`);
  for (const f of files)
    for (const old of Object.keys(registry.renamed))
      assert.ok(!readFileSync(join(root, f), 'utf8').includes(old), `web/src/${f} names ${old}`);
});
