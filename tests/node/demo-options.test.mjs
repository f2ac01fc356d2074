// The demos' options take the config's own names (position, normalization, rope_scaling,
// rope_factor), in a URL (web/src/demos/option-names.js demoConfig) and as widget attributes
// (presets.js `options`/`lists`, read by widgets/attributes.js); the old names (encodings=,
// positions=, scaling= ...) still read, so old links and embeds keep working.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule } from './load.mjs';
import { demoConfig, OLD_OPTION_NAMES } from '../../web/src/demos/option-names.js';
import { buildProperties } from '../../web/src/state/properties.js';
import { readAttributes } from '../../web/src/widgets/attributes.js';
import { PRESETS } from '../../web/src/widgets/presets.js';

let engine;
before(async () => {
  const m = await loadModule('simd');
  const registry = JSON.parse(m.registry());
  engine = { registry, props: buildProperties(registry) };
});

test('a URL: the old names read as the config names; the config name wins when both are given', () => {
  assert.deepEqual(demoConfig('extrapolation', { encodings: 'rope,alibi', scaling: 'ntk', factor: '3', steps: '9' }), {
    encodings: 'rope,alibi',
    scaling: 'ntk',
    factor: '3',
    steps: '9',
    position: 'rope,alibi',
    rope_scaling: 'ntk',
    rope_factor: '3',
  });
  assert.equal(demoConfig('probe', { positions: 'none', position: 'rope' }).position, 'rope');
  assert.equal(demoConfig('probe', { normalizations: 'l2' }).normalization, 'l2');
  assert.equal(demoConfig('permutation', { encoding: 'rope' }).position, 'rope');
  assert.deepEqual(demoConfig('permutation', { check_position: 'alibi' }), { check_position: 'alibi' });
});

test("every demo preset declares the config's names and, after them, the old ones", () => {
  for (const [demo, names] of Object.entries(OLD_OPTION_NAMES)) {
    const options = PRESETS[demo].options ?? [];
    for (const [old, name] of Object.entries(names)) {
      assert.ok(options.includes(name), `${demo}: ${name}`);
      assert.ok(options.indexOf(old) > options.indexOf(name), `${demo}: ${old} after ${name}`);
    }
  }
});

test('a widget: a list of values under the config name is checked value by value; the old names pass as before', () => {
  const read = (attrs) => readAttributes(attrs, engine);
  const probe = read([
    ['preset', 'probe'],
    ['position', 'none,learned'],
    ['normalization', 'softmax,l2'],
  ]);
  assert.deepEqual(probe.errors, []);
  assert.equal(probe.overrides.position, 'none,learned');
  assert.equal(probe.overrides.normalization, 'softmax,l2');
  const old = read([
    ['preset', 'probe'],
    ['positions', 'none,learned'],
    ['normalizations', 'softmax'],
  ]);
  assert.deepEqual(old.errors, []);
  assert.equal(old.overrides.positions, 'none,learned');
  const bad = read([
    ['preset', 'extrapolation'],
    ['position', 'rope,bogus'],
  ]);
  assert.equal(bad.errors.length, 1);
  assert.match(bad.errors[0], /^position="rope,bogus": not one of none, learned, /);
  const scaled = read([
    ['preset', 'extrapolation'],
    ['rope-scaling', 'ntk,yarn'],
    ['rope-factor', '3'],
  ]);
  assert.deepEqual(scaled.errors, []);
  assert.equal(scaled.overrides.rope_scaling, 'ntk,yarn');
});
