// A refusal as it crosses from the engine to the page: an Error whose `refusal` is
// {code, field, params, where} (core/refusal/refusal.hpp; the bindings set it on every error they
// throw, and the worker and the client pass it on unchanged). The page's own refusals (a worker
// that crashed, a model that was closed, a text that could not be fetched) carry codes of the same
// form under `page.`. Their words: the message table's `refusals` part, one entry per code and
// language (common/messages/refusals.*.js; tests/node/refusals.test.mjs holds it to the engine's
// table). No DOM (common/ is the lowest leaf).

/** @typedef {{code: string, field: string, params: Record<string, string>, where?: string}} Refusal */

/**
 * The fields a translation says in its own words (`refusalField.<name>` in the refusals part):
 * the last part of a refusal's field ("interventions[0].offset" -> offset).
 */
export const FIELD_WORDS = Object.freeze(['layer', 'head', 'position', 'offset', 'donor']);

/** The refusal of an error that carries none (a library's error, a bug). */
export const OTHER = Object.freeze({ code: 'engine.other', field: '', params: {}, where: '' });

/**
 * The refusal an error carries, else OTHER.
 * @param {unknown} err
 * @returns {Refusal}
 */
export function refusalOf(err) {
  const r = /** @type {any} */ (err)?.refusal;
  return r && typeof r.code === 'string' ? r : OTHER;
}

/**
 * An Error with `message` that carries `refusal` (a reply's or an event's, as it crossed).
 * @param {string} message
 * @param {Refusal|undefined} refusal
 * @returns {Error & {refusal: Refusal}}
 */
export function refusalError(message, refusal) {
  const err = /** @type {Error & {refusal: Refusal}} */ (new Error(message));
  err.refusal = refusal ?? OTHER;
  return err;
}

/**
 * The page's own refusals (the worker, the client, the training text): code -> English template,
 * {name} a parameter, as in the engine's table (core/refusal/codes.cpp). Their words in
 * each language: the `refusals` part, beside the engine's codes. {detail} is a browser's or a
 * library's own English text: in the English message only, never in another language's words.
 */
export const PAGE_REFUSALS = Object.freeze({
  'page.no_session': 'worker: no session {sid} (it was disposed)',
  'page.session_disposed': 'worker: this session was disposed',
  'page.model_disposed': 'model disposed',
  'page.client_disposed': 'client disposed',
  'page.crashed_earlier': 'worker: the engine crashed earlier ({detail})',
  'page.dead': 'the training engine crashed and was not restarted ({detail})',
  'page.worker_failed': "the engine's worker failed: {detail}",
  'page.worker_stopped': "the engine's worker stopped: terminated by the browser, or out of memory",
  'page.worker_silent': "the engine's worker stopped responding (no sign of life for {s} s)",
  'page.corpus_fetch': 'the corpus ({name}) could not be fetched: {detail}',
});

/**
 * A template's text with its {name} parameters filled in (any other brace is text).
 * @param {string} template @param {Record<string, string>} params
 */
export const fill = (template, params) =>
  template.replace(/\{([a-zA-Z0-9_]+)\}/g, (all, name) => (Object.hasOwn(params, name) ? String(params[name]) : all));

/**
 * One of the page's own refusals: `code` (a key of PAGE_REFUSALS) with its parameters; the
 * message is its English template filled in.
 * @param {keyof typeof PAGE_REFUSALS} code
 * @param {Record<string, string>} [params]
 */
export const pageRefusal = (code, params = {}) =>
  refusalError(fill(PAGE_REFUSALS[code], params), { code, field: '', params, where: '' });
