// The replay's frames through the wasm module (core/session/replay.hpp, Session.replayIndex
// and Session.replayFrame): the frame memory stays under its bound over 20,000 steps (count and
// bytes checked every 500 steps), the steps are log-spaced (0 and every power of two kept), the
// frames hold what the panels draw, and an early frame differs from a late one.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, sessionWith } from './load.mjs';

let m;
before(async () => {
  m = await loadModule('simd');
});

// Tiny, so that 20,000 steps take seconds: what is bounded is the number and size of frames.
const TINY = {
  task: 'copy',
  seq_len: 6,
  d_model: 8,
  heads: 2,
  layers: 1,
  ffn: 8,
  batch: 2,
  eval_every: 0,
  position: 'learned',
  seed: 3,
};

test('the memory of the replay frames stays under its bound over 20,000 steps', () => {
  sessionWith(m, TINY, (s) => {
    let most = { kept: 0, bytes: 0 };
    let frameBytes = 0;
    for (let done = 0; done < 20000; done += 500) {
      s.trainChunk(500);
      const ix = JSON.parse(s.replayIndex());
      assert.ok(ix.steps.length <= ix.max_count, `${ix.steps.length} steps listed at step ${ix.latest}`);
      assert.ok(
        ix.kept <= ix.max_count - 1 && ix.bytes <= ix.max_bytes,
        `kept ${ix.kept}, ${ix.bytes} bytes at step ${ix.latest}`,
      );
      frameBytes ||= ix.bytes / ix.kept;
      // bytes track the frames kept (no leak of thinned ones): within 2x of count × one frame
      assert.ok(ix.bytes <= 2 * frameBytes * ix.kept, `${ix.bytes} bytes for ${ix.kept} frames`);
      most = { kept: Math.max(most.kept, ix.kept), bytes: Math.max(most.bytes, ix.bytes) };
    }
    const ix = JSON.parse(s.replayIndex());
    assert.equal(ix.latest, 20000);
    assert.equal(ix.steps.at(-1), 20000);
    for (let p = 1; p <= 16384; p *= 2) assert.ok(ix.steps.includes(p), `power of two ${p} kept`);
    assert.ok(ix.steps.includes(0));
    assert.ok(ix.steps.length >= 20, `${ix.steps.length} steps to replay`);
    console.log(
      `replay: at most ${most.kept} frames, ${most.bytes} bytes over 20,000 steps; density now ${ix.density}/octave`,
    );
  });
});

test('replay frames hold attention, positions and a prediction; early and late frames differ', () => {
  sessionWith(m, { ...TINY, d_model: 16, layers: 2 }, (s) => {
    s.trainChunk(300);
    const ix = JSON.parse(s.replayIndex());
    assert.ok(ix.steps.length >= 10);
    const early = JSON.parse(s.replayFrame(ix.steps[1]));
    const late = JSON.parse(s.replayFrame(ix.latest));
    assert.equal(early.step, ix.steps[1]);
    assert.equal(late.step, 300);
    const T = early.attention.tokens.length;
    assert.equal(early.attention.layers.length, 2);
    assert.equal(early.attention.layers[0].heads[0].weights.length, T);
    assert.ok(early.positions.describe && early.prediction.inputs);
    assert.notDeepEqual(early.attention.layers, late.attention.layers);
    assert.throws(() => s.replayFrame(299), /no frame at step 299/);
    assert.equal(JSON.parse(s.replayIndex()).latest, 300); // the module lives on
  });
});

test('setReplay(false) keeps none and leaves training unchanged', () => {
  const trained = (on) =>
    sessionWith(m, TINY, (s) => {
      s.setReplay(on);
      s.trainChunk(50);
      return {
        sha: JSON.parse(s.info()).step,
        loss: JSON.parse(s.evaluate(0)).loss,
        kept: JSON.parse(s.replayIndex()).kept,
      };
    });
  const on = trained(true);
  const off = trained(false);
  assert.equal(off.kept, 0);
  assert.ok(on.kept > 5);
  assert.equal(on.loss, off.loss);
});
