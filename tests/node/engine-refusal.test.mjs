// An engine's refusal in 中文 (web/src/panels/engine-refusal.js): every refusal the interventions
// and heads panels can meet, as the wasm module gives it (core/session/interventions.cpp,
// core/session/replay.cpp: an Error with its refusal's code and parameters) or the worker and
// client do (worker.js, client.js, watchdog.js: common/refusal.js pageRefusal), is said in the
// table's words for its code with the engine's numbers, with no English word; an error without a
// code gets the generic reason, never its text; in English the engine's text as it is.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, sessionWith } from './load.mjs';
import { loadMessages, t } from '../../web/src/common/messages.js';
import { refusalIn } from '../../web/src/panels/engine-refusal.js';
import { pageRefusal } from '../../web/src/common/refusal.js';

let m;
before(async () => {
  m = await loadModule('simd');
  await loadMessages('en', ['panels', 'refusals']);
  await loadMessages('zh', ['panels', 'refusals']);
});

// T = seq_len + 1 anchor = 9 positions; batch 8: donors 0..7
const tiny = { task: 'copy', d_model: 16, heads: 2, layers: 2, batch: 8, seq_len: 8, anchors: 'bos', eval_every: 0 };

/** The Error that f throws (with its refusal). @param {() => unknown} f @returns {Error} */
function thrown(f) {
  try {
    f();
  } catch (err) {
    return /** @type {Error} */ (err);
  }
  assert.fail(`expected a refusal from ${f}`);
}

/**
 * A 中文 text's Latin words, the names it keeps left out: Worker, and the names the refusal quotes
 * as its parameters (a task's or a kind's name, the reader's own input).
 * @param {string} text @param {unknown} [err]
 */
const latin = (text, err) => {
  const quoted = Object.values(/** @type {any} */ (err)?.refusal?.params ?? {}).join(' ');
  return (text.match(/[A-Za-z]{2,}/g) ?? []).filter((w) => w !== 'Worker' && !quoted.includes(w));
};

test('every refusal of the interventions and heads panels in 中文: its words and numbers, no English', () => {
  const cases = sessionWith(m, tiny, (s) => {
    s.trainChunk(3);
    const set = (/** @type {object[]} */ list) => () => s.setInterventions(JSON.stringify(list));
    const at = (/** @type {object} */ extra) => set([{ layer: 0, head: 0, ...extra }]);
    return [
      [at({ layer: 2, kind: 'zero' }), /^层 2 超出范围：这个模型的层是 0 到 1（从 0 数起）$/],
      [at({ head: -1, kind: 'zero' }), /^头 -1 超出范围：这个模型的头是 0 到 1（从 0 数起）$/],
      [at({ kind: 'position', position: 9 }), /^位置 9 超出范围：位置是 0 到 8（含锚点）$/],
      [at({ kind: 'patch', position: 12, donor: 0 }), /^位置 12 超出范围：位置是 0 到 8（含锚点）$/],
      [at({ kind: 'offset', offset: 40 }), /^k = 40 超出范围：k 可以是 0 到 8$/],
      [at({ kind: 'patch', donor: 8 }), /^供体样例 8 超出范围：供体是留出样例 0 到 7$/],
      [at({ kind: 'offset', offset: 1.5 }), /^向后的词元数必须是整数$/],
      [at({ kind: 'position', position: null }), /^位置必须是整数$/],
      [at({ kind: 'offset' }), /^缺少向后的词元数（k 可以是 0 到 8）$/],
      [at({ kind: 'zero', donor: 1 }), /^这种干预（zero）不需要供体样例$/],
      [at({ kind: 'zap' }), /^引擎不认识这种干预 'zap'；/],
      [at({ kind: 'zero', colour: 1 }), /^这项干预含有引擎不认识的字段 'colour'$/],
      [set(Array.from({ length: 65 }, () => ({ layer: 0, head: 0, kind: 'zero' }))), /^65 项干预超过了上限 64$/],
      [() => s.intervened(65), /^显示的样例数必须在 0 到 64 之间$/],
      [() => s.headDiagnostics(99), /^回放没有保留第 99 步；它保留的是第 0 1 2 3 步和最新的第 3 步$/],
    ].map(([f, zh]) => ({ message: thrown(/** @type {() => unknown} */ (f)), zh }));
  });
  const { message: noFrame } = cases[cases.length - 1];
  assert.match(
    noFrame.message,
    /^replay: no frame at step 99 /,
    'the heads panel asks the replay for a step it may not keep',
  );
  for (const { message, zh } of [
    ...cases,
    { message: pageRefusal('page.model_disposed'), zh: /^这个模型已被替换或关闭$/ },
    { message: pageRefusal('page.no_session', { sid: '4' }), zh: /^这个模型已被替换或关闭/ },
    { message: pageRefusal('page.dead', { detail: 'x' }), zh: /^训练引擎崩溃了，没有重新启动/ },
    { message: pageRefusal('page.worker_stopped'), zh: /^引擎的 Worker 已停止/ },
    { message: pageRefusal('page.worker_failed', { detail: 'unknown error' }), zh: /^引擎的 Worker 出错$/ },
  ]) {
    const said = refusalIn('zh', message);
    assert.match(said, /** @type {RegExp} */ (zh), `"${message.message}" in 中文`);
    assert.deepEqual(latin(said, message), [], `"${message.message}" in 中文: "${said}" has no English word`);
    assert.equal(refusalIn('en', message), message.message, 'in English the engine’s own text');
  }
});

test('an error without a code: the generic reason in 中文, never its text', () => {
  for (const message of [
    'std::bad_alloc',
    'interventions[0]: expected an object, not 3',
    '',
    'RuntimeError: unreachable',
  ])
    assert.equal(refusalIn('zh', new Error(message)), t('zh', 'refusal.engine.other'), `"${message}"`);
  assert.equal(refusalIn('zh', undefined), t('zh', 'refusal.engine.other'));
});

// A small text model (a character vocabulary with a space) and a copy model (token names).
const text = 'the cat sat on the mat and the dog ran to the log. '.repeat(20);
const chars = { task: 'text', text, d_model: 16, heads: 2, layers: 1, ffn: 16, seq_len: 8, batch: 2, eval_every: 0 };
const copy = { task: 'copy', d_model: 16, heads: 2, layers: 1, seq_len: 8, batch: 2, eval_every: 0 };

/** Each case: the call that is refused, the words expected in 中文. @typedef {[() => unknown, RegExp]} Case */

/** The generate panel's refusals (Session.generate: tokenize, then Inspector::generate). */
function generateCases() {
  /** @type {(config: object, f: (s: any) => Case[]) => {message: Error, zh: RegExp}[]} */
  const withModel = (config, f) =>
    sessionWith(m, config, (s) => f(s).map(([call, zh]) => ({ message: thrown(call), zh })));
  return [
    ...withModel(chars, (s) => [
      [
        () => s.generate('the é', 4, 1, 0, 1),
        /^字符“é”（U\+00E9）不是这个任务（text）的词元；它的词元是：␣ \. a c d e /,
      ],
      [() => s.generate('你好', 4, 1, 0, 1), /^字符“你”（U\+4F60）不是这个任务（text）的词元；/],
      [() => s.generate('the', 0, 1, 0, 1), /^生成的词元数必须在 1 到 4096 之间$/],
      [() => s.generate('the', 5000, 1, 0, 1), /^生成的词元数必须在 1 到 4096 之间$/],
      [() => s.generate('the', 4, -1, 0, 1), /^温度必须在 0（贪心）到 100 之间$/],
      [() => s.generate('the', 4, 1, -1, 1), /^前 k 采样的 k 必须是 0（全部）或正整数$/],
    ]),
    ...withModel({ ...chars, position: 'learned' }, (s) => [
      [
        () => s.generate('the cat sat on the mat', 4, 1, 0, 1),
        /^提示词的 22 个词元超过了学习式位置编码能表示的 8 个位置$/,
      ],
    ]),
    ...withModel({ ...chars, causal: false }, (s) => [[() => s.generate('the', 4, 1, 0, 1), /^这个模型是双向的/]]),
    ...withModel({ ...copy, position: 'learned' }, (s) => [
      [
        () => s.generate('1 2 3 4 5 6 7 8 9', 9, 1, 0, 1),
        /^提示词的 9 个词元加上 9 个答案槽位，超过了学习式位置编码能表示的 8 个位置$/,
      ],
      [
        () => s.generate('12x', 4, 1, 0, 1),
        /^“12x”不是词元，其中的字符“x”（U\+0078）也不是这个任务（copy）的词元；它的词元是：0 1 2 3 4 5 6 7 8 9 _ \.$/,
      ],
      [() => s.generate('', 4, 1, 0, 1), /^请至少输入一个词元$/],
    ]),
    ...withModel({ ...copy, task: 'order' }, (s) => [
      [() => s.generate('', 4, 1, 0, 1), /^这个任务（order）给整个序列打标签/],
    ]),
  ];
}

/** The predictions panel's refusals (Session.run on the typed tokens). */
function runCases() {
  const run = (/** @type {object} */ config, /** @type {number[]} */ ids) =>
    sessionWith(m, config, (s) => thrown(() => s.run(JSON.stringify(ids))));
  const ones = (/** @type {number} */ n) => Array.from({ length: n }, () => 1);
  return [
    { message: run(copy, [999]), zh: /^词元编号 999 不在词表中（词表是 0 到 \d+，不含 \d+）$/ },
    { message: run(copy, []), zh: /^词元列表是空的$/ },
    { message: run({ ...copy, position: 'learned' }, ones(40)), zh: /^学习式位置只到长度 8，而这个序列有 40 个词元；/ },
    {
      message: run({ ...copy, position: 'qk_learned' }, ones(40)),
      zh: /^学习式位置只到长度 8，而这个序列有 40 个词元；/,
    },
    {
      message: run({ ...copy, position: 'randomized', randomized_wrap: 'learned' }, ones(400)),
      zh: /^随机化的学习式位置只到 32（随机化范围），而这个序列有 400 个词元；/,
    },
    {
      message: run({ ...copy, memory_limit_mb: 1 }, ones(3000)),
      zh: /^一次处理 1 个序列、每个 3000 个词元约需 \d+ 兆字节内存，超过了 1 兆字节的上限；请减少词元数$/,
    },
  ];
}

test('every refusal of the generate and predictions panels in 中文: its words and numbers, no English', () => {
  for (const { message, zh } of [
    ...generateCases(),
    ...runCases(),
    { message: pageRefusal('page.session_disposed'), zh: /^这个模型已被替换或关闭$/ },
  ]) {
    const said = refusalIn('zh', message);
    assert.match(said, zh, `"${message.message}" in 中文`);
    assert.deepEqual(latin(said, message), [], `"${message.message}" in 中文: "${said}" has no English word`);
    assert.equal(refusalIn('en', message), message.message, 'in English the engine’s own text');
  }
});
