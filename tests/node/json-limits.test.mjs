// Bounded JSON at the wasm boundary (core/io/json.cpp, core/bindings/bindings.cpp): a config, a
// model file's config, configure, run ids and load overrides nested 10000 or 100000 levels deep
// are refused with a message that names the input and the limit (once a RangeError that named
// nothing); checkConfig answers {ok:false} for any input and never throws; run() speaks plain
// words, never "[json.exception...]"; the heap stays flat across 400 rejections each (a thrown
// call once leaked its whole argument); the prompt tokenizer names é and NUL as characters.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, sessionWith } from './load.mjs';

let m;
before(async () => {
  m = await loadModule('simd');
});

const TINY = { task: 'copy', d_model: 16, heads: 2, layers: 1, ffn: 16, batch: 2, seq_len: 8, eval_every: 0, seed: 3 };
const nested = (depth, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);
const deepConfig = (depth) => `{"task":"copy","lr":${nested(depth)}}`;
const DEEP = /JSON nests arrays and objects deeper than the limit of 64 levels \(at byte \d+\)/;

const withSession = (config, f) => sessionWith(m, config, f);

// A copy of a model file whose metadata "config" is replaced by `configText`.
function withConfigText(bytes, configText) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  header.__metadata__.config = configText;
  let text = JSON.stringify(header);
  text += ' '.repeat((8 - (text.length % 8)) % 8);
  const head = new TextEncoder().encode(text);
  const out = new Uint8Array(8 + head.length + bytes.length - 8 - n);
  new DataView(out.buffer).setBigUint64(0, BigInt(head.length), true);
  out.set(head, 8);
  out.set(bytes.subarray(8 + n), 8 + head.length);
  return out;
}

test('10000 and 100000 levels deep: every JSON input names itself and the limit', () => {
  const bytes = withSession(TINY, (s) => s.save());
  for (const depth of [10000, 100000]) {
    const check = JSON.parse(m.checkConfig(deepConfig(depth)));
    assert.equal(check.ok, false);
    assert.match(check.error, new RegExp('^config: ' + DEEP.source));
    assert.throws(() => new m.Session(deepConfig(depth)), new RegExp('^Error: config: ' + DEEP.source));
    assert.throws(
      () => m.Session.load(withConfigText(bytes, deepConfig(depth))),
      new RegExp("^Error: model file: metadata 'config': " + DEEP.source),
    );
    assert.throws(
      () => m.Session.loadWith(bytes, `{"lr":${nested(depth)}}`),
      new RegExp('^Error: overrides: ' + DEEP.source),
    );
    withSession(TINY, (s) => {
      assert.throws(() => s.configure(`{"lr":${nested(depth)}}`), new RegExp('^Error: configure: ' + DEEP.source));
      assert.throws(() => s.run(nested(depth)), new RegExp('^Error: ids: ' + DEEP.source));
      assert.equal(JSON.parse(s.run('[1,2,3]')).tokens.length, 3); // still alive
    });
  }
});

test('checkConfig() answers {ok:false, error} for any input and never throws', () => {
  const inputs = [
    '',
    'not json',
    '{"task":',
    '[1,2]',
    'null',
    deepConfig(100000),
    ' '.repeat(5 << 20),
    `{"task":"copy","lr":[${'1,'.repeat(20000)}1]}`,
    '{"task":"\ud800"}',
    '{"task":"copy","lr":1e999}',
    undefined,
    null,
    42,
    {},
    ['{}'],
  ];
  for (const input of inputs) {
    const r = JSON.parse(m.checkConfig(input));
    assert.equal(r.ok, false, String(input).slice(0, 40));
    assert.match(r.error, /^config: /);
    assert.ok(r.error.length < 400, r.error.slice(0, 100));
    assert.doesNotMatch(r.error, /json\.exception/);
  }
  assert.match(JSON.parse(m.checkConfig(' '.repeat(5 << 20))).error, /above the limit of 4194304 bytes/);
  assert.match(
    JSON.parse(m.checkConfig('{"task":"copy","lr":1e999}')).error,
    /^config: not valid JSON at byte 21: number overflow/,
  );
  assert.equal(JSON.parse(m.checkConfig(JSON.stringify(TINY))).ok, true);
});

test('Session.run(): bad ids in plain words, never a library exception', () => {
  withSession(TINY, (s) => {
    const cases = [
      ['x', /^Error: ids: not valid JSON at byte 1: /],
      ['{"a":1}', /^Error: ids: expected an array of whole numbers, not object/],
      ['[1, 1.5]', /^Error: ids\[1\]: 1\.5 is not a whole number/],
      ['["a"]', /^Error: ids\[0\]: 'a' is not a whole number/],
      ['[1e12]', /^Error: ids\[0\]: .* from -2147483648 to 2147483647/],
      ['[]', /^Error: run: the token list is empty/],
      [JSON.stringify(Array(100000).fill(1)), /^Error: run: a pass over 1 sequence of 100000 tokens needs about/],
    ];
    for (const [ids, want] of cases) {
      assert.throws(
        () => s.run(ids),
        (e) => want.test(String(e)) && !/json\.exception/.test(e.message),
        ids.slice(0, 30),
      );
    }
    assert.throws(() => s.run(42), /^Error: ids: expected a string/);
  });
});

test('the heap stays flat across 400 rejections of a 100000-deep config (each way in)', () => {
  const text = deepConfig(100000); // 200 KB: a leaked argument would show at once
  const heapMB = () => m.HEAPU8.length / 2 ** 20;
  withSession(TINY, (s) => {
    const rejectAll = () => {
      for (let i = 0; i < 400; i++) {
        assert.equal(JSON.parse(m.checkConfig(text)).ok, false);
        assert.throws(() => new m.Session(text));
        assert.throws(() => s.configure(text));
        assert.throws(() => s.run(text));
      }
    };
    rejectAll(); // warm-up: the allocator's pools settle
    const before = heapMB();
    rejectAll();
    const after = heapMB();
    console.log(`heap after 400 rejections each: ${before.toFixed(0)} MB -> ${after.toFixed(0)} MB`);
    assert.ok(after - before < 8, `heap grew from ${before} MB to ${after} MB`);
    assert.ok(after < 256, `heap is ${after} MB`);
  });
});

test('the prompt tokenizer names é and NUL as characters, through the JS string boundary', () => {
  withSession({ task: 'text', d_model: 16, heads: 2, layers: 1, ffn: 16, seq_len: 8, eval_every: 0 }, (s) => {
    assert.throws(
      () => s.generate('The é', 4, 0, 0, 1),
      /^Error: prompt: 'é' \(U\+00E9\) is not a token of task text; its tokens are: /,
    );
    assert.throws(() => s.generate('a 😀', 4, 0, 0, 1), /^Error: prompt: '😀' \(U\+1F600\) is not a token/);
    // NUL in the middle survives Embind, is named, and does not cut the message short.
    assert.throws(
      () => s.generate('The\0 end', 4, 0, 0, 1),
      /^Error: prompt: '\\0' \(U\+0000\) is not a token of task text; its tokens are: .+/,
    );
    assert.equal(JSON.parse(s.generate('The end', 3, 0, 0, 1)).ids.length, 3);
  });
});
