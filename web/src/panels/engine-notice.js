// The notice that one of a WorkerPool's workers crashed (or went silent) and was restarted, for
// the demo pages and the widgets (their own view and the demos inside them). The client brings each model back from its last
// checkpoint and the ones that were training train on (client/client.js), so a demo needs nothing
// but this box. Kept out of src/demos/ (every module there is a lazily loaded demo of the widget)
// and free of KaTeX and CSS, so that the widget's first chunk can carry it. Also the words the
// engine badges use for the build that runs (engineKind). The notice's words: the message table's
// widget part (`notice.*`), loaded before (the widgets and the pages that show it load it).
import { el } from './dom.js';
import { t } from '../common/messages.js';
import { refusalIn } from './engine-refusal.js';

// What the notice reads of the pool's models and clients (client/session.js EngineSession and
// client/client.js EngineClient have it). The panel imports no client module, not even its type.
/** @typedef {{disposed: boolean, playing: boolean, checkpointBytes: unknown, info: {step: number}}} Session */
/** @typedef {{models: Map<unknown, any>, toRestore?: any[]}} EngineClient */
/** @typedef {CustomEvent<{error: Error, final?: boolean, client: EngineClient}>} CrashEvent a pool's 'crash' */
/** @typedef {CustomEvent<{error: Error, models: Session[], failed?: Error}>} RecoveredEvent a pool's 'recovered' */

/**
 * The build an engine runs, for the badges: "WebAssembly SIMD, 2 threads", "WebAssembly SIMD"
 * or "scalar WebAssembly".
 * @param {{variant: string, threads?: number}} engine an EngineInfo
 */
export function engineKind(engine) {
  if (engine.variant === 'scalar') return 'scalar WebAssembly';
  return (engine.threads ?? 1) > 1 ? `WebAssembly SIMD, ${engine.threads} threads` : 'WebAssembly SIMD';
}

/**
 * Why the worker crashed, in `lang`: in English the client's message; else the table's words for
 * its code (client/watchdog.js, client.js: page.worker_*; engine-refusal.js), never a library's
 * text. Also the widget's reason for a model it could not build (widget-app.js).
 * @param {Error} error @param {import('../common/messages.js').Lang} lang
 */
export const reasonOf = (error, lang) => refusalIn(lang, error);

/**
 * Say in `root` when one of the pool's workers crashed (or went silent) and was restarted: a
 * notice (role=status, data-engine = restarting | restored | failed) above the demo. The client
 * brings each model back from its last checkpoint and the ones that were training train on
 * (client/client.js), so the demo needs nothing else. Returns a function that removes it.
 * @param {EventTarget} pool a WorkerPool (its 'crash' and 'recovered' events)
 * @param {HTMLElement|ShadowRoot} root
 * @param {(model: Session) => boolean} [owns] whether a model is this view's (a pool shared by
 *   several widgets: only the ones with a model on the crashed worker say so, of their models)
 * @param {import('../common/messages.js').Lang} [lang] the language of its words (default en)
 */
export function engineNotice(pool, root, owns = () => true, lang = 'en') {
  const tr = (/** @type {string} */ key, /** @type {Record<string, string|number>} */ p = {}) => t(lang, key, p);
  // Inline styles: the same box shows on the demo pages and inside a widget's shadow root.
  const box = el('p', {
    class: 'apd-engine-notice',
    role: 'status',
    hidden: true,
    style:
      'margin: 0 0 10px; padding: 8px 12px; border-radius: 6px; background: #fef7e0; border: 1px solid #f9ab00; color: #3c2f00; font-size: 0.9rem',
  });
  root.prepend(box);
  /** @param {string} state @param {string} text */
  const show = (state, text) => {
    box.hidden = false;
    box.dataset.engine = state;
    box.textContent = text;
  };
  const concerns = (/** @type {EngineClient} */ client) =>
    [...client.models.values(), ...(client.toRestore ?? [])].some(owns);
  const onCrash = (/** @type {Event} */ e) => {
    const { error, final, client } = /** @type {CrashEvent} */ (e).detail;
    return (
      concerns(client) &&
      show(
        final ? 'failed' : 'restarting',
        tr(final ? 'notice.failedAgain' : 'notice.restarting', { reason: reasonOf(error, lang) }),
      )
    );
  };
  const onRecovered = (/** @type {Event} */ e) => {
    const { error, models, failed } = /** @type {RecoveredEvent} */ (e).detail;
    const live = models.filter((mdl) => !mdl.disposed && owns(mdl));
    if (!live.length) return;
    if (failed)
      return show(
        'failed',
        tr('notice.notRestarted', { reason: reasonOf(error, lang), failed: reasonOf(failed, lang) }),
      );
    const on = live.some((mdl) => mdl.playing) ? tr('notice.goesOn') : '';
    const one =
      live.length === 1 &&
      (live[0].checkpointBytes ? tr('notice.fromCheckpoint', { step: live[0].info.step }) : tr('notice.fromStart'));
    const back = one ? tr('notice.backOne', { from: one }) : tr('notice.backN', { n: live.length });
    show('restored', tr('notice.restarted', { reason: reasonOf(error, lang), back, on }));
  };
  pool.addEventListener('crash', onCrash);
  pool.addEventListener('recovered', onRecovered);
  return () => {
    pool.removeEventListener('crash', onCrash);
    pool.removeEventListener('recovered', onRecovered);
    box.remove();
  };
}
