// The rate a person reads (web/src/run/rate.js): steps/s over the last seconds of wall time, not
// one step's; pauses not counted; the time left to a step count; tokens per step from the config,
// whose anchor rule must agree with the core's (checked through the attention view's tokens).
import test from 'node:test';
import assert from 'node:assert/strict';
import { RateMeter, tokensPerStep, formatDuration, formatRate, ANCHOR_TOKENS } from '../../web/src/run/rate.js';
import { loadModule, sessionWith } from './load.mjs';
import REGISTRY from '../../web/src/state/registry.gen.js';

test('RateMeter: the rate over the window, steady through uneven chunks', () => {
  const r = new RateMeter({ windowMs: 3000, minSpanMs: 400 });
  r.start(0, 0);
  r.add(5, 100);
  assert.equal(r.stepsPerS, null, 'unknown before the shortest span');
  // 50 steps/s in chunks of uneven size and spacing: one step's rate would jump, this does not.
  let step = 5,
    t = 100;
  for (const [n, dt] of [
    [1, 20],
    [9, 180],
    [3, 60],
    [7, 140],
    [5, 100],
    [20, 400],
    [2, 40],
    [13, 260],
  ]) {
    step += n;
    t += dt;
    r.add(step, t);
  }
  assert.ok(Math.abs(r.stepsPerS - 50) < 1e-9, `${r.stepsPerS}`);
  // Slower now: after a whole window at 10 steps/s, the rate is 10 (the old rate is forgotten).
  for (let k = 0; k < 40; k++) {
    step += 1;
    t += 100;
    r.add(step, t);
  }
  assert.ok(Math.abs(r.stepsPerS - 10) < 0.5, `${r.stepsPerS}`);
  assert.ok(r.samples.length <= 33, 'only the window is kept');
});

test('RateMeter: a pause is not counted; a step going back starts over', () => {
  const r = new RateMeter({ windowMs: 3000, minSpanMs: 400 });
  r.start(0, 0);
  r.add(20, 1000);
  assert.equal(r.stepsPerS, 20);
  r.stop();
  r.add(25, 5000); // stopped: ignored
  assert.equal(r.stepsPerS, 20, 'the last rate stays readable while paused');
  r.start(20, 60000);
  r.add(40, 61000);
  assert.equal(r.stepsPerS, 20, 'the minute of pause does not count');
  r.add(0, 61100); // a reset
  assert.deepEqual(r.samples, [[0, 61100]]);
  assert.equal(r.stepsPerS, null);
});

test('RateMeter: the time left to a step count', () => {
  const r = new RateMeter();
  r.start(0, 0);
  r.add(100, 2000);
  assert.equal(r.etaSeconds(100, 1100), 20);
  assert.equal(r.etaSeconds(100, 0), null, 'no step count');
  assert.equal(r.etaSeconds(100, 100), null, 'reached');
  assert.equal(new RateMeter().etaSeconds(0, 100), null, 'no rate yet');
});

test('formatDuration and formatRate', () => {
  assert.equal(formatDuration(null), '–');
  assert.equal(formatDuration(44.6), '45 s');
  assert.equal(formatDuration(200), '3 min 20 s');
  assert.equal(formatDuration(7500), '2 h 05 min');
  assert.equal(formatRate(null), '–');
  assert.equal(formatRate(46.62), '46.6');
  assert.equal(formatRate(0.523), '0.52');
  assert.equal(formatRate(1234.4), '1,234');
});

test('tokensPerStep: batch × (seq_len + anchors), as the core counts them', async () => {
  assert.equal(tokensPerStep({ batch: 16, seq_len: 64 }), 1024);
  assert.equal(tokensPerStep({}), 0);
  const m = await loadModule('simd');
  for (const anchors of Object.keys(ANCHOR_TOKENS)) {
    const config = { task: 'copy', seq_len: 8, batch: 4, d_model: 16, heads: 2, layers: 1, anchors, steps: 1 };
    const tokens = sessionWith(m, config, (s) => JSON.parse(s.attention(0, 0)).tokens.length);
    assert.equal(tokensPerStep(config), config.batch * tokens, anchors);
  }
  // Every anchors value the core accepts is in the table.
  const field = REGISTRY.config.find((/** @type {{key: string}} */ f) => f.key === 'anchors');
  assert.deepEqual([...field.choices].sort(), Object.keys(ANCHOR_TOKENS).sort());
});
