// Head interventions through the wasm module (core/session_interventions.cpp): zeroing every head
// of a layer changes the held-out loss, clearing restores it exactly, the weights never change,
// bad lists throw readable Errors and the module lives on; the numbers agree with the native
// `attnplay eval --ablate` on the same model file; and interventions-view.js words the change.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadModule, sessionWith, ROOT } from './load.mjs';
import { describeChange, changedPositions } from '../../web/src/panels/interventions-view.js';
import { loadMessages, translator } from '../../web/src/common/messages.js';

let m;
before(async () => {
  m = await loadModule('simd');
  await loadMessages('en', ['panels']); // the panel's words (the message table's panels part)
  await loadMessages('zh', ['panels']);
});

const tiny = { task: 'copy', d_model: 16, heads: 2, layers: 2, batch: 8, seq_len: 8, eval_every: 0, seed: 5, lr: 3e-3 };
const zeroLayer = (layer) => [0, 1].map((head) => ({ layer, head, kind: 'zero' }));

test('zeroing a layer changes the loss; clear restores it exactly; weights untouched', () => {
  sessionWith(m, tiny, (s) => {
    JSON.parse(s.trainChunk(200));
    const plain = JSON.parse(s.evaluate(0));
    const bytes = s.save();
    const kept = JSON.parse(s.setInterventions(JSON.stringify(zeroLayer(0))));
    assert.deepEqual(
      kept.map((e) => e.label),
      ['layer 0 head 0: zero', 'layer 0 head 1: zero'],
    );
    const r = JSON.parse(s.intervened(4));
    assert.equal(r.base.loss, plain.loss);
    assert.ok(r.intervened.loss > r.base.loss + 0.1, `${r.intervened.loss} vs ${r.base.loss}`);
    assert.equal(r.predictions.base.examples.length, 4);
    assert.match(describeChange(r), /^loss \d+\.\d+ → \d+\.\d+, accuracy \d+\.\d% → \d+\.\d%/);
    assert.match(describeChange(r, translator('zh')), /^损失 \d+\.\d+ → \d+\.\d+，准确率 \d+\.\d% → \d+\.\d%/);
    assert.ok(changedPositions(r) > 0);
    assert.deepEqual(JSON.parse(s.evaluate(0)), plain, 'evaluate() sees the plain model');
    s.clearInterventions();
    const c = JSON.parse(s.intervened(0));
    assert.deepEqual(c.intervened, r.base);
    assert.deepEqual(s.save(), bytes, 'the model file is byte for byte the same');
  });
});

test('bad interventions throw Errors naming the field; the module lives on', () => {
  sessionWith(m, tiny, (s) => {
    assert.throws(
      () => s.setInterventions('[{"layer":0,"head":7,"kind":"zero"}]'),
      /interventions\[0\]\.head: 7 is out of range; this model has heads 0 to 1/,
    );
    assert.throws(
      () => s.setInterventions('[{"layer":0,"head":0,"kind":"zap"}]'),
      /the kinds are zero, uniform, previous, position, offset, patch/,
    );
    assert.throws(() => s.setInterventions('[{"layer":0,"head":0,"kind":"zero","x":1}]'), /unknown field 'x'/);
    assert.throws(() => s.setInterventions('not json'), /interventions: not valid JSON/);
    assert.throws(() => s.intervened(65), /n \(the examples shown\) must be from 0 to 64/);
    assert.equal(JSON.parse(s.intervened(0)).interventions.length, 0);
  });
});

const cli = resolve(ROOT, 'build/native/attnplay');
test('the same numbers as the native attnplay eval --ablate', { skip: !existsSync(cli) && 'no native build' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'attnplay-iv-'));
  try {
    sessionWith(m, tiny, (s) => {
      s.trainChunk(150);
      const file = join(dir, 'm.safetensors');
      writeFileSync(file, s.save());
      s.setInterventions(
        JSON.stringify([
          { layer: 1, head: 0, kind: 'zero' },
          { layer: 0, head: 1, kind: 'uniform' },
        ]),
      );
      const wasm = JSON.parse(s.intervened(0));
      const native = JSON.parse(
        execFileSync(cli, [
          'eval',
          '--model',
          file,
          '--ablate',
          '1.0',
          '--intervene',
          '{"layer":0,"head":1,"kind":"uniform"}',
          '--json',
        ]).toString(),
      );
      for (const k of ['base', 'intervened']) {
        assert.ok(
          Math.abs(native[k].loss - wasm[k].loss) <= 1e-4 * Math.abs(wasm[k].loss) + 1e-6,
          `${k}: ${native[k].loss} vs ${wasm[k].loss}`,
        );
        assert.equal(native[k].token_accuracy, wasm[k].token_accuracy, k);
      }
      assert.deepEqual(native.interventions, wasm.interventions);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
