// An engine's refusal in the reader's language, for the panels that show one: after their own
// words ("Not applied: …", "Could not measure the heads: …": interventions-panel.js and
// heads-panel.js) or as it is (generate-panel.js, predictions-panel.js). The engine's messages are
// English: in English the message as it is; in another language the message table's `refusal.*`
// words for each refusal the engine gives there, filled in with the numbers it names, else
// `refusal.other` (never the engine's English text). The refusals: the intervention list's door
// (core/session/interventions.cpp), a replay step that was not kept (core/session/replay.cpp,
// Replay::frame: the heads' diagnostics), a generation's prompt and settings
// (core/session/tokenize.cpp, generate.cpp), a run on typed tokens (core/session/inspect.cpp
// Inspector::run; core/position/*.cpp check_length: learned positions past their table), a pass
// above the memory limit (core/session/json.cpp check_forward_memory), a model gone or a worker
// that crashed (worker/worker.js, worker/session.js, client/client.js, client/watchdog.js). Head
// statistics themselves (core/model/head_stats.cpp) refuse nothing. Its words: the panels part,
// loaded before. No DOM (tests/node/engine-refusal.test.mjs runs it).
import { t } from '../common/messages.js';

/** @typedef {import('../common/messages.js').Lang} Lang */
/** @typedef {Record<string, string|number>} Params */

// An intervention's field as the engine names it: interventions[<entry from 0>].<field>.
const FIELD = String.raw`^interventions\[\d+\]\.(layer|head|position|offset|donor)`;

/**
 * Each refusal: the engine's message, and the key with its words (`field`: the field's words,
 * `refusal.field.<name>`; `steps`: a list of numbers, joined by `refusal.sep`). Numbers only
 * cross, and a value the reader typed is not repeated, except the one character of a prompt that
 * is not a token (with its code point) and the task's tokens the engine lists after it.
 * @type {[RegExp, (m: RegExpExecArray) => [string, Params]][]}
 */
const REFUSALS = [
  // interventions[0].position: 40 is out of range; positions are 0 to 12 (anchors included)
  [
    new RegExp(`${FIELD}: (-?\\d+) is out of range; \\D*(\\d+) to (\\d+)`),
    (m) => [`refusal.range.${m[1]}`, { value: m[2], lo: m[3], hi: m[4] }],
  ],
  [new RegExp(`${FIELD}: expected a whole number`), (m) => ['refusal.whole', { field: m[1] }]],
  [new RegExp(`${FIELD} is missing`), (m) => ['refusal.missing', { field: m[1] }]],
  [
    /^interventions\[\d+\]\.(position|offset|donor): kind '[a-z_]+' takes no /,
    (m) => ['refusal.takesNo', { field: m[1] }],
  ],
  [/^interventions\[\d+\]\.kind: /, () => ['refusal.kind', {}]],
  [/^interventions\[\d+\]: unknown field /, () => ['refusal.unknownField', {}]],
  [/^interventions: (\d+) are above the limit of (\d+)/, (m) => ['refusal.limit', { n: m[1], max: m[2] }]],
  [
    /^interventions: n \(the examples shown\) must be from (\d+) to (\d+)/,
    (m) => ['refusal.examples', { lo: m[1], hi: m[2] }],
  ],
  // replay: no frame at step 120 (…); the frames are at steps 0 50 100 and the latest, 300
  [
    /^replay: no frame at step (\d+) .*; the frames are at steps ([\d ]+|\(none\)) and the latest, (\d+)$/,
    (m) =>
      m[2] === '(none)'
        ? ['refusal.noFrameLatest', { step: m[1], latest: m[3] }]
        : ['refusal.noFrame', { step: m[1], steps: m[2], latest: m[3] }],
  ],
  // generate (Inspector::generate, Session::tokenize): its settings, then its prompt
  [/^tokens: must be from (\d+) to (\d+)/, (m) => ['refusal.gen.tokens', { lo: m[1], hi: m[2] }]],
  [/^temperature: must be from (\d+) \(greedy\) to (\d+)/, (m) => ['refusal.gen.temperature', { lo: m[1], hi: m[2] }]],
  [/^top_k: must be 0 \(all\) or a positive count/, () => ['refusal.gen.topk', {}]],
  // prompt: 'é' (U+00E9) is not a token of task text; its tokens are: ␣ . a c d e
  // prompt: 'abc' is not a token, nor is its character 'a' (U+0061), of task copy; its tokens are: 0 1 …
  [
    /^prompt: (?:'.*' is not a token, nor is its character )?'(.+?)' \((U\+[0-9A-F]{4,6})\),? (?:is not a token )?of task \S+; its tokens are: (.*?)( \.\.\.)?$/su,
    (m) => ['refusal.gen.notToken', { char: m[1], code: m[2], tokens: m[3] + (m[4] ? ' …' : '') }],
  ],
  [
    /^prompt: (\d+) tokens plus (\d+) answer slots exceed the (\d+) positions/,
    (m) => ['refusal.gen.tooLongSlots', { n: m[1], slots: m[2], max: m[3] }],
  ],
  [/^prompt: (\d+) tokens exceed the (\d+) positions/, (m) => ['refusal.gen.tooLong', { n: m[1], max: m[2] }]],
  [/^prompt: give at least one token/, () => ['refusal.gen.empty', {}]],
  [/^generate: this model is bidirectional/, () => ['refusal.gen.encoder', {}]],
  [/^generate: task \S+ labels whole sequences/, () => ['refusal.gen.perSequence', {}]],
  [/^generate: task \S+ predicts labels, not next tokens/, () => ['refusal.gen.labels', {}]],
  [/^generate: the model's output probabilities are NaN or infinite/, () => ['refusal.gen.overflow', {}]],
  // run (Inspector::run) on the tokens typed under the predictions; the position's table (check_length)
  [/^(?:run|prompt): token id (-?\d+) is outside the vocabulary/, (m) => ['refusal.tokenId', { id: m[1] }]],
  [/^run: the token list is empty/, () => ['refusal.runEmpty', {}]],
  [
    /^position: (?:qk_)?learned positions exist only for lengths up to (\d+), and this sequence has (\d+) tokens/,
    (m) => ['refusal.learnedLength', { max: m[1], n: m[2] }],
  ],
  [
    /^position: randomized learned positions exist up to randomized_max_range = (\d+), and this sequence has (\d+) tokens/,
    (m) => ['refusal.randomizedLength', { max: m[1], n: m[2] }],
  ],
  // run: a pass over 1 sequence of 3000 tokens needs about 290 MB for one pass, above the limit of 1 MB (…)
  [
    /^[a-z_ ]+: a pass over \d+ sequences? of (\d+) tokens needs about (\d+) MB for one pass, above the limit of ([\d.]+) MB/,
    (m) => ['refusal.memory', { n: m[1], mb: m[2], max: m[3] }],
  ],
  [
    /^(model disposed|client disposed|worker: no session \d+|worker: this session was disposed)/,
    () => ['refusal.disposed', {}],
  ],
  [
    /^(the training engine crashed and was not restarted|worker: the engine crashed earlier)/,
    () => ['refusal.dead', {}],
  ],
  [/^the engine's worker (stopped|failed)/, () => ['refusal.crashed', {}]],
];

/**
 * The engine's `message` in `lang`: in English as it is; else the table's words for it (its field
 * in the table's words too), or `refusal.other` for a message it does not know.
 * @param {Lang} lang @param {string} message
 */
export function refusalIn(lang, message) {
  const text = String(message ?? '');
  if (lang === 'en') return text;
  for (const [pattern, words] of REFUSALS) {
    const m = pattern.exec(text);
    if (!m) continue;
    const [key, params] = words(m);
    if (typeof params.field === 'string') params.field = t(lang, `refusal.field.${params.field}`);
    if (typeof params.steps === 'string') params.steps = params.steps.split(' ').join(t(lang, 'refusal.sep'));
    return t(lang, key, params);
  }
  return t(lang, 'refusal.other');
}
