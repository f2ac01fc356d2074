// The Explore view: the wasm module's explore() under Node (every registry entry answers with a
// view or an empty one, a bad request throws a readable Error and the module lives on, rope's
// score at distance 0 is q·k of the trained probe's own norms), and explore-views.js, which turns
// an answer into chart lines without computing anything (selection and labels only).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, sessionWith } from './load.mjs';
import { chartsFor, probeRows } from '../../web/src/panels/explore-views.js';
import REGISTRY from '../../web/src/state/registry.gen.js';

let m;
before(async () => {
  m = await loadModule('simd');
});

const tiny = (extra) => ({
  task: 'copy',
  d_model: 16,
  heads: 2,
  layers: 2,
  ffn: 24,
  batch: 3,
  seq_len: 8,
  eval_every: 0,
  seed: 7,
  ...extra,
});

test('explore(): every encoding answers; rotary, bias and absolute views have their curves', () => {
  const names = REGISTRY.positions.map((e) => e.name);
  for (const name of names) {
    sessionWith(m, tiny({ position: name, causal: true }), (s) => {
      s.trainChunk(2);
      const d = JSON.parse(s.explore(JSON.stringify({ length: 32, scaling: 'ntk', factor: 2, pair: 1, position: 5 })));
      assert.equal(d.step, 2, name);
      assert.equal(d.describe.name, name);
      const kind = d.now.kind;
      if (!kind) return assert.ok(name === 'none' || name.startsWith('contextual'), `${name} has no view`);
      assert.match(d.now.source, new RegExp(`core/position/${name}\\.cpp`), name);
      const charts = chartsFor(d, { head: -1, probe: 'trained' });
      assert.ok(charts.length >= 1, name);
      for (const c of charts) {
        assert.ok(c.xs.length >= 8, `${name}: ${c.title}`);
        for (const sr of c.series) assert.equal(c.cols[sr.key].length, c.xs.length, `${name}: ${sr.key}`);
      }
      if (kind === 'rotary') {
        assert.deepEqual(Object.keys(probeRows(d, 'cosine')).sort(), ['init', 'ones', 'random', 'trained']);
        assert.ok(
          charts[0].series.some((sr) => sr.key === 'ones-scaled'),
          'the ntk curves',
        );
        // s(0) = q·k: the cosine at distance 0 is in [−1, 1], the all-ones one exactly 1.
        assert.ok(Math.abs(d.now.cosine.ones[0][0] - 1) < 1e-5);
        assert.equal(d.now.pair.position, 5);
      }
    });
  }
});

test('explore(): a bad request is a readable Error, and the session lives on', () => {
  sessionWith(m, tiny({ position: 'rope' }), (s) => {
    assert.throws(() => s.explore('{"layer": 9}'), /explore: layer must be from 0 to 1/);
    assert.throws(() => s.explore('{"pair": 4}'), /pair 4 does not exist/);
    assert.throws(() => s.explore('[1'), /explore/);
    assert.throws(() => s.explore(JSON.stringify({ scaling: '<b>' })), /not one of none, pi, ntk, yarn/);
    assert.equal(JSON.parse(s.explore('{}')).now.kind, 'rotary');
  });
});

test('chartsFor: one solid (now) and one dashed (init) line per chosen head; T5 marks its log buckets', () => {
  const data = {
    step: 3,
    request: { position: 0 },
    describe: { name: 't5_bias' },
    now: {
      kind: 'bias',
      quantity: 'bias',
      distance: [0, 1, 2, 3],
      heads: [
        [1, 2, 3, 3],
        [4, 5, 6, 6],
      ],
      bucket_starts: [1, 2, 3],
      max_exact: 2,
      buckets: [0, 1, 2, 2],
    },
    init: {
      kind: 'bias',
      distance: [0, 1, 2, 3],
      heads: [
        [0, 0, 0, 0],
        [1, 1, 1, 1],
      ],
    },
  };
  const [all] = chartsFor(/** @type {any} */ (data), { head: -1, probe: 'trained' });
  assert.deepEqual(
    all.series.map((s) => s.key),
    ['now0', 'init0', 'now1', 'init1'],
  );
  assert.deepEqual(
    all.series.map((s) => Boolean(s.dash)),
    [false, true, false, true],
  );
  assert.deepEqual(all.cols.init1, [1, 1, 1, 1]);
  assert.deepEqual(all.markers, [
    { x: 2, label: 'log buckets' },
    { x: 3, label: '' },
  ]);
  const [one] = chartsFor(/** @type {any} */ (data), { head: 1, probe: 'trained' });
  assert.deepEqual(
    one.series.map((s) => s.label),
    ['head 2, now', 'head 2, at init'],
  );
});
