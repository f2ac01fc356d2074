// Head diagnostics through the wasm module (Session.headDiagnostics / headDiagnosticsHistory over
// core/session_diagnostics.cpp): after 300 steps of the copy task every head of every layer has
// its measures in range, labels carry evidence with their threshold, the thresholds are the
// engine's stated ones, the history has one value per replay step (the steps of
// Session.replayIndex()), a kept step's diagnostics equal the history at that step, and layer 0
// learns to attend at the copy's fixed offset (seq_len / 2 back), a label it did not have at step 0.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, sessionWith } from './load.mjs';

let m;
before(async () => {
  m = await loadModule('simd');
});

const COPY = { task: 'copy', seq_len: 12, steps: 300 };
const LABELS = ['previous-token', 'first-token / sink', 'uniform', 'positional', 'induction'];
const MEASURES = [
  'entropy',
  'distance',
  'first_share',
  'anchor_share',
  'row_sum_spread',
  'prev_share',
  'offset',
  'offset_share',
  'induction',
];

test('diagnostics: every head measured and labelled with evidence; history spans the replay', () => {
  sessionWith(m, COPY, (s) => {
    s.trainChunk(300);
    const cfg = JSON.parse(s.info()).config;
    const d = JSON.parse(s.headDiagnostics(-1));
    assert.equal(d.step, 300);
    assert.deepEqual(
      d.thresholds.map((t) => t.label),
      LABELS,
    );
    assert.deepEqual(
      d.thresholds.map((t) => Number(t.threshold.toFixed(6))),
      [0.5, 0.5, 0.9, 0.5, 0.4],
    );
    for (const t of d.thresholds) assert.ok(MEASURES.includes(t.measure) && t.rule.length > 10, JSON.stringify(t));
    // One rule for the CLI, the bindings and the pages: induction needs a previous-token head below.
    assert.match(
      d.thresholds.find((t) => t.label === 'induction').rule,
      /previous-token head in an earlier layer, so a one-layer model has none$/,
    );
    for (const h of d.layers[0].heads)
      assert.ok(!h.labels.some((x) => x.name === 'induction'), 'no induction head in the first layer');
    for (const h of d.layers.flatMap((l) => l.heads).filter((x) => x.withheld))
      assert.ok(h.induction >= 0.4 && /no earlier layer has a previous-token head/.test(h.withheld), h.withheld);
    assert.equal(d.layers.length, cfg.layers);
    for (const layer of d.layers) {
      assert.equal(layer.heads.length, cfg.heads);
      for (const h of layer.heads) {
        for (const k of ['entropy', 'first_share', 'prev_share', 'offset_share'])
          assert.ok(h[k] >= 0 && h[k] <= 1 + 1e-6, `${k} ${h[k]}`);
        assert.ok(h.distance >= 0 && h.distance <= cfg.seq_len, `distance ${h.distance}`);
        assert.ok(h.row_sum_spread >= 0 && h.row_sum_spread < 1e-4, 'softmax rows sum to 1');
        assert.equal(h.anchor_share, -1, 'no anchors in this config');
        for (const lab of h.labels) {
          assert.ok(LABELS.includes(lab.name), lab.name);
          assert.match(lab.evidence, /\d+% .*threshold \d+%/);
        }
      }
    }
    // Layer 0 copies from seq_len / 2 back: a positional head at that offset, earned by training.
    const pos = d.layers[0].heads.filter((h) => h.labels.some((l) => l.name === 'positional'));
    assert.ok(
      pos.length >= 1 && pos.every((h) => h.offset === cfg.seq_len / 2 && h.offset_share >= 0.5),
      JSON.stringify(d.layers[0]),
    );

    const ix = JSON.parse(s.replayIndex());
    const hist = JSON.parse(s.headDiagnosticsHistory());
    assert.deepEqual(hist.steps, ix.steps, 'one history point per replay step');
    assert.ok(hist.steps.length >= 10, `${hist.steps.length} steps`);
    assert.deepEqual(hist.measures, MEASURES);
    assert.equal(hist.layers.length, cfg.layers);
    for (const layer of hist.layers)
      for (const h of layer.heads) for (const k of MEASURES) assert.equal(h[k].length, hist.steps.length, k);
    // The history's last point is the diagnostics at the latest step; a kept step's, at its step.
    const k = 3;
    const at = JSON.parse(s.headDiagnostics(hist.steps[k]));
    assert.equal(at.step, hist.steps[k]);
    for (const [l, layer] of hist.layers.entries())
      for (const [i, h] of layer.heads.entries())
        for (const key of MEASURES) {
          assert.equal(h[key].at(-1), d.layers[l].heads[i][key], `L${l} H${i} ${key} latest`);
          assert.equal(h[key][k], at.layers[l].heads[i][key], `L${l} H${i} ${key} at step ${hist.steps[k]}`);
        }
    // At initialisation no head of layer 0 attends at that offset.
    const i0 = d.layers[0].heads.indexOf(pos[0]);
    assert.ok(
      hist.layers[0].heads[i0].offset_share[0] < 0.5,
      `offset share at step 0: ${hist.layers[0].heads[i0].offset_share[0]}`,
    );
    // A step without a frame: an Error naming it, and the module lives on.
    assert.throws(() => s.headDiagnostics(299), /299/);
    assert.equal(JSON.parse(s.headDiagnostics(-1)).step, 300);
  });
});

test('diagnostics with anchors measure the anchor share; without replay frames the history is the latest step', () => {
  sessionWith(m, { ...COPY, anchors: 'cls_sep' }, (s) => {
    s.setReplay(false);
    s.trainChunk(20);
    const d = JSON.parse(s.headDiagnostics(-1));
    for (const layer of d.layers)
      for (const h of layer.heads) assert.ok(h.anchor_share >= 0 && h.anchor_share <= 1, `${h.anchor_share}`);
    const hist = JSON.parse(s.headDiagnosticsHistory());
    assert.deepEqual(hist.steps, [20]);
    assert.equal(hist.layers[0].heads[0].anchor_share.length, 1);
  });
});
