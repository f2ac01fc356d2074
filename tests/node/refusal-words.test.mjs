// The browser's module says a refusal by its code (core/refusal/codes.cpp, AP_NO_TEMPLATES): its
// what() is the code, and the worker fills the English template of refusals.en.js (englishOf in
// web/src/worker/worker.js). Here: the Node module (templates kept) and the web build agree, for
// refusals provoked as a page provokes them — the worker's filling gives the engine's own text to
// the byte, and the web module's message is the bare code with the same structure.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadModule, ROOT } from './load.mjs';
import { fill } from '../../web/src/common/refusal.js';
import en from '../../web/src/common/messages/refusals.en.js';

/** @type {any} */ let m;
before(async () => {
  m = await loadModule('simd');
});

/** The worker's rule (englishOf): the template filled with the params and the field, after `where`. */
const said = (/** @type {any} */ r) => {
  const text = fill(en[`refusal.${r.code}`], { ...r.params, field: r.field });
  return r.where ? `${r.where}: ${text}` : text;
};

const BAD_CONFIGS = [
  { d_model: -1 },
  { position: 'nope' },
  { d_model: 30, heads: 4 },
  { rope_base: 1, position: 'rope' },
  { task: 'text', text: 'too short', seq_len: 64 },
  { normalization: 'stick_breaking', causal: false },
  { alibi_mode: 'sideways', position: 'alibi' },
  { task: 'custom', custom_pairs: '1 2 -> ' },
  { lr: 'fast' },
];

/** Each call that throws in a live session, as the page's panels make it. */
const SESSION_CALLS = [
  (/** @type {any} */ s) => s.run('[999]'),
  (/** @type {any} */ s) => s.replayFrame(12345),
  (/** @type {any} */ s) => s.configure('{"d_model": 8}'),
  (/** @type {any} */ s) => s.explore('{"length": -3}'),
  (/** @type {any} */ s) => s.setInterventions('[{"kind":"ablate","layer":7,"head":0}]'),
  (/** @type {any} */ s) => s.generate('9 9 x', 4, 1, 0, 1),
];

test('filling refusals.en.js gives the engine’s own English text for refused configs', () => {
  for (const config of BAD_CONFIGS) {
    const r = JSON.parse(m.checkConfig(JSON.stringify(config)));
    assert.equal(r.ok, false, JSON.stringify(config));
    assert.equal(said(r.refusal), r.error, `${JSON.stringify(config)}: ${r.refusal.code}`);
  }
  const r = JSON.parse(m.checkConfig('not json'));
  assert.equal(said(r.refusal), r.error);
});

test('filling refusals.en.js gives the engine’s own English text for a session’s refusals', () => {
  const s = new m.Session(JSON.stringify({ task: 'copy', steps: 10 }));
  try {
    for (const call of SESSION_CALLS) {
      assert.throws(
        () => call(s),
        (/** @type {any} */ err) => {
          assert.ok(err.refusal?.code, `${call}: a refusal`);
          assert.equal(said(err.refusal), err.message, `${call}: ${err.refusal.code}`);
          return true;
        },
      );
    }
  } finally {
    s.delete();
  }
});

test('the browser’s module carries the codes without their templates; the Node one keeps them', () => {
  const dir = resolve(ROOT, 'build/wasm-simd');
  const wasm = readFileSync(resolve(dir, 'attnplay.wasm.orig'));
  const text = wasm.toString('latin1');
  assert.ok(text.includes('config.out_of_range_int'), 'the code is in the web module');
  for (const c of ['explore: {field} must be a whole number', 'must be from {lo} to {hi}'])
    assert.ok(!text.includes(c), `no template in the web module: ${c}`);
  assert.ok(readFileSync(resolve(dir, 'attnplay.node.wasm')).toString('latin1').includes('must be from {lo} to {hi}'));
});
