// The playground's safety net: says when the engine's worker crashed, trapped or went silent and
// was restarted (the client restores the model from its last snapshot, see client/client.js),
// keeps the settings and the last snapshot in IndexedDB (state/saved-work.js), and after a
// reload or a crashed tab offers to restore them. The saved snapshot stays until a newer one
// (of a model trained past step 0) replaces it or the user dismisses the offer: opening the page
// again and again without answering loses nothing. No training logic here.
import { saveState, saveSnapshot, clearSnapshot, loadWork } from '../../state/saved-work.js';
import { stateToHash } from '../../state/hash.js';

/** @typedef {import('../../client/session.js').Session} Session */
/** @typedef {CustomEvent<{error: Error, final?: boolean}>} CrashEvent the client's 'crash' */
/** @typedef {CustomEvent<{error: Error, models: Session[], failed?: Error}>} RecoveredEvent the client's 'recovered' */

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id)); // the page has them
const SAVE_STATE_MS = 300; // settings are written at most this often

export class Recovery {
  /** @param {import('./playground.js').Playground} pg */
  constructor(pg) {
    this.pg = pg;
    /** @type {Awaited<ReturnType<typeof loadWork>>|null} what a previous visit saved, until offered */
    this.saved = null;
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.stateTimer = undefined;
    pg.client.addEventListener('crash', (e) => this.#onCrash(/** @type {CrashEvent} */ (e).detail));
    pg.client.addEventListener('recovered', (e) => this.#onRecovered(/** @type {RecoveredEvent} */ (e).detail));
  }

  /** @param {CrashEvent['detail']} detail */
  #onCrash({ error, final }) {
    document.body.dataset.engine = final ? 'failed' : 'restarting';
    this.pg.notice(final
      ? `The training engine crashed again (${error.message}) and was not restarted. Reload the page: your settings and the last snapshot are saved.`
      : `The training engine crashed (${error.message}). Restarting it…`);
  }

  /** @param {RecoveredEvent['detail']} detail */
  async #onRecovered({ error, failed }) {
    if (failed) {
      document.body.dataset.engine = 'failed';
      this.pg.notice(`The training engine crashed (${error.message}) and could not be restarted: ${failed.message}. Reload the page: your work is saved.`);
      return;
    }
    const m = this.pg.model;
    await this.pg.restored(m);
    document.body.dataset.engine = 'restored';
    const from = m?.snapshotBytes ? `its last snapshot, at step ${m.info.step}` : 'its settings (no snapshot yet, so from step 0)';
    const on = m?.playing ? ', and trains on' : '';
    this.pg.notice(`The training engine crashed (${error.message}) and was restarted; the model was restored from ${from}${on}.`);
  }

  /** Read what a previous visit saved (call before the first model is built). */
  async load() {
    this.saved = await loadWork();
  }

  /**
   * Keep a model's snapshots while it is the page's current model. The saved one is replaced
   * only by a snapshot past step 0: a new, untrained model keeps nothing from being offered again.
   * @param {Session} model
   */
  watch(model) {
    /** @typedef {CustomEvent<{bytes: Uint8Array, step: number}>} SnapshotEvent a Session's 'snapshot' */
    this.#offer(); // shows the offer once, from what load() read
    model.addEventListener('snapshot', (ev) => {
      const e = /** @type {SnapshotEvent} */ (ev);
      if (model !== this.pg.model || !(e.detail.step > 0)) return;
      saveSnapshot({ bytes: e.detail.bytes, step: e.detail.step, task: String(model.info.config.task) });
    });
  }

  /** The settings changed: save them (debounced). @param {import('../../state/properties.js').State} state */
  stateChanged(state) {
    clearTimeout(this.stateTimer);
    this.stateTimer = setTimeout(() => saveState(state), SAVE_STATE_MS);
  }

  // The saved snapshot, or saved settings when the page was opened without any: one offer.
  #offer() {
    const saved = this.saved;
    this.saved = null;
    if (!saved) return;
    const { snapshot, state } = saved;
    if (snapshot && snapshot.step > 0) {
      const when = new Date(snapshot.savedAt).toLocaleString();
      this.#show(`Saved work from ${when}: ${snapshot.task} at step ${snapshot.step}.`, 'Restore the model', () =>
        this.pg.files.loadModelBytes({ name: 'the saved model', bytes: snapshot.bytes }), () => clearSnapshot(snapshot.savedAt));
    } else if (state && !location.hash.replace(/^#/, '')) {
      this.#show('Settings from your last visit are saved.', 'Restore the settings', () => {
        location.hash = stateToHash(/** @type {import('../../state/properties.js').State} */ (state)); // the hash listener reads and applies it
      });
    }
  }

  /**
   * @param {string} text
   * @param {string} action the restore button's text
   * @param {() => void} onRestore
   * @param {() => void} [onDismiss]
   */
  #show(text, action, onRestore, onDismiss = () => {}) {
    const box = document.createElement('div');
    box.id = 'restore-offer';
    box.className = 'notice';
    box.setAttribute('role', 'status');
    const restore = Object.assign(document.createElement('button'), { type: 'button', id: 'restore-saved', textContent: action });
    const dismiss = Object.assign(document.createElement('button'), { type: 'button', id: 'dismiss-saved', textContent: 'Dismiss' });
    box.append(`${text} `, restore, ' ', dismiss);
    restore.addEventListener('click', () => { box.remove(); onRestore(); });
    dismiss.addEventListener('click', () => { box.remove(); onDismiss(); });
    ($('notice').parentElement ?? $('notice')).after(box); // below the notice row
  }
}
