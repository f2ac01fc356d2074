// One field reader (web/src/state/fields.js applyField) behind every entry point that takes a
// config field as text: the playground's URL hash, a comparison spec, a widget attribute,
// setConfig's reader (readConfigFields), the experiments grid's axis values and an imported
// config. The same key/value pairs, valid and not, go through each: a valid one gives the same
// value everywhere, a refused one is refused everywhere with the same reason naming what is allowed.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule } from './load.mjs';
import { buildProperties, isActive, selectorsFirst, SELECTORS } from '../../web/src/state/properties.js';
import { defaultState } from '../../web/src/state/state.js';
import { applyField } from '../../web/src/state/fields.js';
import { hashToState, stateToHash, configToState } from '../../web/src/state/hash.js';
import { readCompare } from '../../web/src/state/compare.js';
import { readAttributes, readConfigFields } from '../../web/src/widgets/attributes.js';
import { presetFor } from '../../web/src/widgets/presets.js';
import { gridRuns, axisFields } from '../../web/src/pages/experiments/grid-state.js';
import REGISTRY from '../../web/src/state/registry.gen.js';

let registry;
let props;
before(async () => {
  const m = await loadModule('simd');
  registry = REGISTRY;
  props = buildProperties(registry);
});

/** key/raw pairs: valid, of the wrong kind or range, unknown, an option of another task or encoding. */
function pairs() {
  const base = defaultState(props, registry, 'copy');
  const taskOption = props.find((p) => p.scope?.task && !isActive(p, base));
  const ropeOption = props.find((p) => p.scope?.position === 'rope');
  assert.ok(taskOption && ropeOption, 'the registry has a task option and a rope option');
  return [
    ['position', 'rope'],
    ['position', 'bogus'],
    ['d_model', '32'],
    ['d_model', 'abc'],
    ['d_model', '1.5'],
    ['d_model', '0'],
    ['heads', '65'],
    ['lr', '0.003'],
    ['lr', 'Infinity'],
    ['causal', 'true'],
    ['causal', 'maybe'],
    ['no_such_field', '1'],
    [taskOption.key, '5'],
    [ropeOption.key, '2'],
  ];
}

/**
 * What each entry point makes of one field on the task copy with the sinusoidal encoding: the
 * value it sets, or its message. Every reader starts from the same state.
 * @returns {Record<string, {value: unknown} | {message: string}>}
 */
function throughEveryReader(key, raw) {
  const start = { task: 'copy', position: 'sinusoidal' };
  const base = { ...defaultState(props, registry, 'copy'), position: 'sinusoidal' };
  const out = {};
  const h = hashToState(stateToHash({ ...start, [key]: raw }), props, registry);
  out.hash = h.ignored.length ? { message: h.ignored.join('; ') } : { value: h.state[key] };
  const c = readCompare(`${key}=${raw},${raw}`, base, props, registry);
  out.compare = c.errors.length ? { message: c.errors.join('; ') } : { value: c.runs[1][key] };
  const attr = key.replaceAll('_', '-');
  const a = readAttributes(
    [
      ['preset', 'playground'],
      [attr, raw],
    ],
    { registry, props },
  );
  out.attribute = a.errors.length ? { message: a.errors.join('; ') } : { value: /** @type {any} */ (a.state)[key] };
  const s = readConfigFields([[attr, raw]], base, { registry, props }, presetFor('playground', registry));
  out.setConfig = s.errors.length
    ? { message: s.errors.map((e) => e.text).join('; ') }
    : { value: /** @type {any} */ (s.state)[key] };
  const ref = applyField({ props, registry }, base, key, raw);
  if (axisFields(props).includes(key)) {
    const other = key === 'heads' ? 'layers' : 'heads';
    const g = gridRuns(
      {
        task: 'copy',
        a: { field: key, values: [raw] },
        b: { field: other, values: ['1'] },
        metric: 'acc1',
        seeds: 1,
        steps: 10,
      },
      props,
      registry,
    );
    if (g.errors.length) out.grid = { message: g.errors.join('; ') };
    else if (g.cells[0].error) out.grid = { message: g.cells[0].error };
    else out.grid = { value: /** @type {any} */ (g.cells[0].state)[key] };
  }
  // The grid starts from the task's own defaults (learned positions): its reference is read there.
  const gridRef = applyField({ props, registry }, defaultState(props, registry, 'copy'), key, raw);
  return { ref, gridRef, out };
}

test('the same field is read the same way by the hash, compare, attributes, setConfig and the grid', () => {
  for (const [key, raw] of pairs()) {
    const { ref: pageRef, gridRef, out } = throughEveryReader(key, raw);
    const where = `${key}=${raw}`;
    if ('error' in pageRef) {
      assert.equal(pageRef.error.field, key, `${where}: the refusal names the field`);
      for (const [reader, r] of Object.entries(out)) {
        const ref = /** @type {{error: import('../../web/src/state/fields.js').FieldRefusal}} */ (
          reader === 'grid' ? gridRef : pageRef
        );
        assert.ok('message' in r, `${where}: ${reader} refuses it (got ${JSON.stringify(r)})`);
        assert.ok(
          r.message.includes(key.replaceAll('_', '-')) || r.message.includes(key),
          `${where}: ${reader}'s message names the field: ${r.message}`,
        );
        // An unknown field's sentence is the entry point's own (it lists what that entry point takes).
        if (ref.error.kind !== 'unknown')
          assert.ok(r.message.includes(ref.error.why), `${where}: ${reader} says "${ref.error.why}": ${r.message}`);
      }
      if (pageRef.error.kind === 'value' && ['position', 'causal'].includes(key))
        assert.ok(/not (one of|true or false)/.test(pageRef.error.why), `${where}: says what is allowed`);
    } else {
      for (const [reader, r] of Object.entries(out))
        assert.deepEqual(r, { value: pageRef.value }, `${where}: ${reader} sets ${key} to ${pageRef.value}`);
    }
  }
});

test('applyField: the new state, or an error naming the field, its kind and what is allowed', () => {
  const base = defaultState(props, registry, 'copy');
  const ok = applyField({ props, registry }, base, 'position', 'rope');
  assert.ok(!('error' in ok));
  assert.equal(ok.state?.position, 'rope');
  assert.equal(base.position, 'learned', 'the state given is not changed');
  const bad = applyField({ props, registry }, base, 'position', 'bogus');
  assert.ok('error' in bad);
  assert.equal(bad.error.field, 'position');
  assert.equal(bad.error.kind, 'value');
  assert.deepEqual(
    bad.error.allowed,
    registry.positions.map((e) => e.name),
  );
  const range = applyField({ props, registry }, base, 'heads', '0');
  assert.ok('error' in range);
  assert.equal(range.error.why, 'below the minimum 1');
  const view = applyField({ props, registry }, base, 'speed', '3');
  assert.ok('error' in view && view.error.kind === 'unknown', 'a view setting is no model field');
  const viewHash = applyField({ props, registry }, base, 'speed', '3', { view: true });
  assert.ok(!('error' in viewHash) && viewHash.state?.speed === 3, 'the page hash takes view settings');
  const typed = applyField({ props, registry }, base, 'd_model', '32', { jsonType: 'string' });
  assert.ok('error' in typed && typed.error.why === 'expected a number', 'an imported config keeps JSON types');
  const noState = applyField({ props, registry }, null, 'd_model', '32');
  assert.deepEqual(noState, { state: null, value: 32 });
  // An imported config refuses by the same reader.
  assert.deepEqual(configToState({ task: 'copy', d_model: 'x', position: 'bogus' }, props, registry).ignored, [
    'position (not one of ' + registry.positions.map((e) => e.name).join(', ') + ')',
    'd_model (expected a number)',
  ]);
});

test('the selector order is one list: task, position, normalization, then the rest as given', () => {
  assert.deepEqual(SELECTORS, ['task', 'position', 'normalization']);
  const sorted = selectorsFirst([
    ['lr', 1],
    ['normalization', 2],
    ['d-model', 3],
    ['position', 4],
    ['task', 5],
    ['constructor', 6],
  ]);
  assert.deepEqual(
    sorted.map(([k]) => k),
    ['task', 'position', 'normalization', 'lr', 'd-model', 'constructor'],
  );
  // An option given before its encoding applies: the hash, attributes and compare all reorder.
  const rope = props.find((p) => p.scope?.position === 'rope');
  const raw = String(rope.default);
  const h = hashToState(`#${rope.key}=${raw}&position=rope`, props, registry);
  assert.deepEqual(h.ignored, []);
  const a = readAttributes(
    [
      [rope.key.replaceAll('_', '-'), raw],
      ['position', 'rope'],
    ],
    { registry, props },
  );
  assert.deepEqual(a.errors, []);
});

test('the hash is read and written by one module: settings, compare and challenge in one pass', () => {
  const r = hashToState(
    '#task=order&position=rope&steps=400&compare=position%3Drope%2Cnone&challenge=some-id',
    props,
    registry,
  );
  assert.deepEqual(r.ignored, []);
  assert.equal(r.compare, 'position=rope,none');
  assert.equal(r.challenge, 'some-id');
  assert.equal(r.state.position, 'rope');
  assert.ok(!('compare' in r.state) && !('challenge' in r.state), 'neither is a model setting');
  const hash = stateToHash(r.state, { compare: r.compare, challenge: r.challenge });
  assert.ok(hash.endsWith('&compare=position%3Drope%2Cnone&challenge=some-id'), hash);
  const again = hashToState(hash, props, registry);
  assert.deepEqual(
    [again.state, again.compare, again.challenge],
    [r.state, r.compare, r.challenge],
    'a written hash reads back the same',
  );
  const none = hashToState('#task=copy', props, registry);
  assert.deepEqual([none.compare, none.challenge], [null, null]);
  assert.ok(
    !stateToHash(none.state, { compare: null, challenge: null }).includes('compare'),
    'nothing written when there is none',
  );
});

test('inspect-len: seq-len (the default) or eval-len; anything else is refused, naming the attribute and what is allowed', () => {
  const read = (/** @type {[string, string][]} */ extra) =>
    readAttributes([['preset', 'playground'], ...extra], { registry, props });
  assert.equal(read([]).inspectLen, 'seq-len');
  const e = read([['inspect-len', 'eval-len']]);
  assert.deepEqual([e.inspectLen, e.errors], ['eval-len', []]);
  const bad = read([['inspect-len', '64']]);
  assert.equal(bad.inspectLen, 'seq-len');
  assert.deepEqual(bad.errors, [
    'inspect-len="64": use seq-len (the training length) or eval-len (the config\'s evaluation length).',
  ]);
  assert.deepEqual(
    bad.said.map((x) => x.key),
    ['attr.inspectLen'],
  );
});
