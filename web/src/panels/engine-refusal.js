// An engine's refusal in the reader's language, for the panels that show one: after their own
// words ("Not applied: …", "Could not measure the heads: …": interventions-panel.js and
// heads-panel.js) or as it is (generate-panel.js, predictions-panel.js), and for the crash
// notice and a widget's failure (engine-notice.js reasonOf). In English the engine's message as it
// is (the core renders it from its code's template: core/refusal/codes.cpp); in another
// language the message table's entry for the error's code (common/refusal.js refusalOf), filled
// in with its field and parameters; `refusal.engine.other` for an error that carries no code.
// A field the table has words for is said in them (fieldIn). Never a pattern over the English text. Its words: the table's `refusals` part, loaded before
// (loadMessages(lang, ['refusals'])). No DOM (tests/node/engine-refusal.test.mjs runs it).
import { hasMessage, t } from '../common/messages.js';
import { refusalOf } from '../common/refusal.js';

/** @typedef {import('../common/messages.js').Lang} Lang */

/**
 * The error's refusal in `lang`: in English its message; else the table's words for its code.
 * @param {Lang} lang @param {unknown} err an Error from the engine, the worker or the client
 */
export function refusalIn(lang, err) {
  if (lang === 'en') return String(/** @type {any} */ (err)?.message ?? err);
  const r = refusalOf(err);
  const key = hasMessage(lang, `refusal.${r.code}`) ? `refusal.${r.code}` : 'refusal.engine.other';
  return t(lang, key, { ...r.params, field: fieldIn(lang, r.field) });
}

/**
 * A refusal's field in `lang`: the table's words for its last part when it has them
 * (`refusalField.<name>`: "interventions[0].offset" -> offset), else the field as it is (a config
 * key such as d_model, which the form shows by that name).
 * @param {Lang} lang @param {string} field
 */
function fieldIn(lang, field) {
  const last = field.slice(field.lastIndexOf('.') + 1);
  return hasMessage(lang, `refusalField.${last}`) ? t(lang, `refusalField.${last}`) : field;
}
