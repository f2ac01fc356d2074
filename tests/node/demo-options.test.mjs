// The demos' options take the config's own names (position, normalization, rope_scaling,
// rope_factor), in a URL and as widget attributes, read by the one field reader (demos/options.js
// readDemoOptions, through state/fields.js applyField; presets.js `options`/`lists` come from its
// table, widgets/attributes.js refuses as it does); the old names (encodings=, positions=,
// scaling= ...) still read, so old links and embeds keep working.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule } from './load.mjs';
import { DEMO_OPTIONS, SECOND_TASKS, demoOptionNames, readDemoOptions } from '../../web/src/demos/options.js';
import { buildProperties } from '../../web/src/state/properties.js';
import { readAttributes } from '../../web/src/widgets/attributes.js';
import { PRESETS } from '../../web/src/widgets/presets.js';
import REGISTRY from '../../web/src/state/registry.gen.js';

let engine;
before(async () => {
  const m = await loadModule('simd');
  const registry = REGISTRY;
  engine = { registry, props: buildProperties(registry) };
});

test('a URL: the old names read as the config names; the config name wins when both are given', () => {
  const read = (demo, given) => readDemoOptions(demo, engine.registry, given).values;
  assert.deepEqual(read('extrapolation', { encodings: 'rope,alibi', scaling: 'ntk', factor: '3', steps: '9' }), {
    position: ['rope', 'alibi'],
    rope_scaling: ['ntk'],
    rope_factor: 3,
    steps: 9,
  });
  assert.deepEqual(read('probe', { positions: 'none', position: 'rope' }).position, ['rope']);
  assert.deepEqual(read('probe', { position: 'rope', positions: 'none' }).position, ['rope']);
  assert.deepEqual(read('probe', { normalizations: 'l2' }).normalization, ['l2']);
  assert.equal(read('permutation', { encoding: 'rope' }).position, 'rope');
  assert.deepEqual(read('permutation', { check_position: 'alibi' }), { check_position: 'alibi' });
});

test('every option is read by the field reader: its kind, range and boolean rule, refused with its name', () => {
  const read = (demo, given) => readDemoOptions(demo, engine.registry, given);
  // the same boolean rule as every field (true/1, false/0), typed values as given by an embedding
  assert.deepEqual(read('permutation', { check_causal: '1', seeds: '2', seed: '4' }).values, {
    check_causal: true,
    seeds: 2,
    seed: 4,
  });
  assert.deepEqual(read('probe', { causal: true, steps: 50 }).values, { causal: true, steps: 50 });
  const bad = read('permutation', { check_causal: 'yes', seeds: '9', check_position: 'bogus', steps: 'many' });
  assert.deepEqual(bad.values, {});
  assert.deepEqual(
    bad.refusals.map((r) => [r.field, r.why]),
    [
      ['check_causal', 'not true or false'],
      ['seeds', 'above the maximum 8'],
      ['check_position', `not one of ${engine.registry.positions.map((p) => p.name).join(', ')}`],
      ['steps', 'not a number'],
    ],
  );
  // a list keeps the values it can use and names the others; the page's own parameters pass unread
  const list = read('extrapolation', { position: 'rope,bogus', task2: 'sort', workers: '2' });
  assert.deepEqual(list.values, { position: ['rope'], task2: 'sort' });
  assert.deepEqual(
    list.refusals.map((r) => r.field),
    ['position'],
  );
  assert.equal(read('extrapolation', { task2: 'copy_back' }).refusals[0].why, `not one of ${SECOND_TASKS.join(', ')}`);
});

test("every demo preset declares the demo's own options and, after them, the old names", () => {
  for (const [demo, spec] of Object.entries(DEMO_OPTIONS)) {
    const options = PRESETS[demo].options ?? [];
    assert.deepEqual(options, demoOptionNames(demo));
    assert.deepEqual(PRESETS[demo].lists ?? [], spec.lists);
    for (const p of spec.own) assert.ok(options.includes(p.key), `${demo}: ${p.key}`);
    for (const [old, name] of Object.entries(spec.old)) {
      assert.ok(
        options.indexOf(old) > Math.max(...spec.own.map((p) => options.indexOf(p.key))),
        `${demo}: ${old} last`,
      );
      assert.ok(
        !options.includes(name) || options.indexOf(old) > options.indexOf(name),
        `${demo}: ${old} after ${name}`,
      );
    }
  }
});

test("a widget: a demo's own option goes to the demo as written, whose reader refuses it as a field is", () => {
  const read = (attrs) => readAttributes(attrs, engine);
  const ok = read([
    ['preset', 'permutation'],
    ['seeds', '2'],
    ['check-causal', 'true'],
  ]);
  assert.deepEqual(ok.errors, []);
  assert.deepEqual([ok.overrides.seeds, ok.overrides.check_causal], ['2', 'true']);
  const given = read([
    ['preset', 'permutation'],
    ['seeds', '0'],
  ]).overrides;
  const { refusals } = readDemoOptions('permutation', engine.registry, given);
  assert.deepEqual(
    refusals.map((r) => [r.field, r.why]),
    [['seeds', 'below the minimum 1']],
  );
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
