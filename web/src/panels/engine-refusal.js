// An engine's refusal in the reader's language, for the panels that show one after their own
// words ("Not applied: …", "Could not measure the heads: …"): interventions-panel.js and
// heads-panel.js. The engine's messages are English: in English the message as it is; in another
// language the message table's `refusal.*` words for each refusal the engine gives there, filled
// in with the numbers it names, else `refusal.other` (never the engine's English text). The
// refusals: the intervention list's door (core/session/interventions.cpp), a replay step that was
// not kept (core/session/replay.cpp, Replay::frame: the heads' diagnostics), a model gone or a
// worker that crashed (worker/worker.js, client/client.js, client/watchdog.js). Head statistics
// themselves (core/model/head_stats.cpp) refuse nothing. Its words: the panels part, loaded before.
// No DOM (tests/node/engine-refusal.test.mjs runs it).
import { t } from '../common/messages.js';

/** @typedef {import('../common/messages.js').Lang} Lang */
/** @typedef {Record<string, string|number>} Params */

// An intervention's field as the engine names it: interventions[<entry from 0>].<field>.
const FIELD = String.raw`^interventions\[\d+\]\.(layer|head|position|offset|donor)`;

/**
 * Each refusal: the engine's message, and the key with its words (`field`: the field's words,
 * `refusal.field.<name>`; `steps`: a list of numbers, joined by `refusal.sep`). Numbers only
 * cross; a value the reader typed is not repeated.
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
  [/^(model disposed|client disposed|worker: no session \d+)/, () => ['refusal.disposed', {}]],
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
