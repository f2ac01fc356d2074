// Reading a comparison (web/src/state/compare.js): compare="position=none,learned" against the real
// registry, as the widget's `compare` attribute is read. Each run is the base setup with its values;
// a field with one value sets every run; wrong specs are refused in words naming the field.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadState } from './load.mjs';
import { readCompare, runNames, compareTitle, MAX_RUNS } from '../../web/src/state/compare.js';
import { readAttributes } from '../../web/src/widgets/attributes.js';
import { sayIn } from '../../web/src/common/messages.js';

let registry;
let props;
let base;
before(async () => {
  ({ registry, props, base } = await loadState());
});

test('two runs that differ in position; everything else is the base', () => {
  const c = readCompare('position=none,learned', base, props, registry);
  assert.deepEqual(c.errors, []);
  assert.equal(c.runs.length, 2);
  assert.deepEqual(
    c.runs.map((r) => r.position),
    ['none', 'learned'],
  );
  for (const r of c.runs) for (const k of ['task', 'seed', 'd_model', 'lr', 'steps']) assert.equal(r[k], base[k], k);
  assert.deepEqual(c.fields, ['position']);
  assert.deepEqual(runNames(c.runs, c.fields), ['position=none', 'position=learned']);
  assert.equal(compareTitle(c.runs, c.fields), 'position: none vs learned');
});

test('several fields; one value sets every run; an option of the chosen encoding applies to its run', () => {
  const c = readCompare('position=rope,rope,alibi; lr=0.001,0.003,0.001; d-model=32', base, props, registry);
  assert.deepEqual(c.errors, []);
  assert.deepEqual(
    c.runs.map((r) => [r.position, r.lr, r.d_model]),
    [
      ['rope', 0.001, 32],
      ['rope', 0.003, 32],
      ['alibi', 0.001, 32],
    ],
  );
  assert.deepEqual(c.fields, ['position', 'lr']);
  assert.equal(compareTitle(c.runs, c.fields), 'position: rope vs rope vs alibi; lr: 0.001 vs 0.003 vs 0.001');
  const same = readCompare('position=rope,rope', base, props, registry);
  assert.deepEqual(same.fields, []);
  assert.deepEqual(runNames(same.runs, same.fields), ['run 1', 'run 2']);
});

test('wrong specs are refused, naming what is wrong', () => {
  const bad = (spec) => readCompare(spec, base, props, registry);
  assert.match(bad('position=none').errors[0], /needs at least two runs/);
  assert.match(bad('position=a,b,c,d,e').errors[0], new RegExp(`asks for 5 runs; at most ${MAX_RUNS}`));
  assert.match(
    bad('position=none,rope;lr=1,2,3').errors[0],
    /lr has 3 values for 3 runs|position has 2 values for 3 runs/,
  );
  assert.match(bad('position').errors[0], /is not field=value,value/);
  assert.match(bad('position=none,rope;position=rope,none').errors[0], /position is given twice/);
  assert.match(bad('position=none,warp').errors[0], /compare: position=warp in run 2: not one of none, /);
  assert.match(bad('lr=0.01,abc').errors[0], /lr=abc in run 2: not a number/);
  assert.match(bad('theme=dark,light').errors[0], /theme is not a setting of the model/);
  assert.match(bad('onclick=alert(1),x').errors[0], /onclick is not a setting of the model/);
  assert.match(bad('x'.repeat(700)).errors[0], /longer than 600 characters/);
  for (const spec of ['position=none', 'lr=0.01,abc']) assert.equal(bad(spec).runs.length, 0);
});

test('the widget reads a compare attribute into runs, and reports a bad one', () => {
  const ok = readAttributes(
    [
      ['task', 'order'],
      ['compare', 'position=none,learned'],
    ],
    { registry, props },
  );
  assert.deepEqual(ok.errors, []);
  assert.deepEqual(
    ok.compare?.runs.map((r) => [r.task, r.position]),
    [
      ['order', 'none'],
      ['order', 'learned'],
    ],
  );
  const bad = readAttributes([['compare', 'position=none']], { registry, props });
  assert.equal(bad.compare, null);
  assert.match(bad.errors.join(' '), /compare="position=none": needs at least two runs/);
  const demo = readAttributes(
    [
      ['preset', 'probe'],
      ['compare', 'position=none,rope'],
    ],
    { registry, props },
  );
  assert.match(demo.errors.join(' '), /compare is for config presets/);
});

test('a Chinese widget says what is wrong with its compare attribute in Chinese, with the same values', () => {
  // Each refusal of readCompare, and the demo's, as the widget's notice says it (said, in zh). Until
  // 2026-12-07 these were English sentences passed through as they were, under a Chinese heading.
  const specs = [
    ['x'.repeat(700), /超过 600 个字符/],
    [';', /没有写出任何设置/],
    ['a=1,2;b=1,2;c=1,2;d=1,2;e=1,2;f=1,2;g=1,2', /改动了 7 个设置；最多 6 个/],
    ['position', /“position”不是/],
    ['position=none,rope;position=rope,none', /position 出现了两次/],
    ['position=none', /至少需要两次训练/],
    ['position=a,b,c,d,e', /要求 5 次训练；最多 4 次/],
    ['position=none,rope;lr=1,2,3', /3 次训练中 position 有 2 个值/],
    ['theme=dark,light', /theme 不是模型的设置/],
    ['position=none,warp', /第 2 次训练的 position=warp：不是允许的值之一：none, /],
    ['lr=0.01,abc', /第 2 次训练的 lr=abc：不是数字/],
  ];
  for (const [spec, zh] of specs) {
    const r = readAttributes([['compare', spec]], { registry, props });
    assert.equal(r.compare, null, spec);
    const said = r.said.map((s) => sayIn('zh', s)).join(' ');
    assert.match(said, zh, `${spec.slice(0, 40)}: ${said}`);
    assert.doesNotMatch(said, /\b(runs?|settings?|characters|is not|needs|asks|given)\b/, `no English left: ${said}`);
    assert.equal(r.said.length, r.errors.length, 'one English error per notice line');
  }
  const demo = readAttributes(
    [
      ['preset', 'probe'],
      ['compare', 'position=none,rope'],
    ],
    { registry, props },
  );
  assert.match(demo.said.map((s) => sayIn('zh', s)).join(' '), /compare 只用于配置预设/);
});
