// The playground's safety net: says when the engine's worker crashed, trapped or went silent and
// was restarted (the client restores the model from its last checkpoint, see client/client.js),
// keeps the settings and each run's last checkpoint in IndexedDB (state/saved-work.js), and after a
// reload or a crashed tab offers to restore one of them. A run (a new model, a reset, an import)
// has a slot of its own, keyed by this tab and the run, so another tab never overwrites it; the
// slot is written whenever the session keeps a checkpoint (while training, on every stop, when the
// page is hidden). Saved runs stay until newer runs evict them or the user forgets them: opening
// the page again and again without answering loses nothing. No training logic here.
import { saveState, saveRun, forgetRuns, runBytes, loadWork, runIds } from '../../state/saved-work.js';
import { stateToHash } from '../../state/hash.js';
import { followHash, hasHash } from '../../state/address.js';

/** @typedef {import('../../client/session.js').EngineSession} Session */
/** @typedef {import('../../state/saved-work.js').SavedRun} SavedRun */
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
    /** this tab's id, and the ids of its runs */
    this.ids = runIds();
    this.runId = '';
    this.savedStep = 0; // the step of this run's last saved checkpoint
    /** @type {import('../../state/saved-work.js').SaveResult|null} the last save's outcome (null: none yet) */
    this.lastSave = null;
    addEventListener('pagehide', () => this.#onHide());
    addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && this.#onHide());
    pg.client.addEventListener('crash', (e) => this.#onCrash(/** @type {CrashEvent} */ (e).detail));
    pg.client.addEventListener('recovered', (e) => this.#onRecovered(/** @type {RecoveredEvent} */ (e).detail));
  }

  /** @param {CrashEvent['detail']} detail */
  #onCrash({ error, final }) {
    document.body.dataset.engine = final ? 'failed' : 'restarting';
    this.pg.notice(
      final
        ? `The training engine crashed again (${error.message}) and was not restarted. Reload the page: ${this.#savedWords()}`
        : `The training engine crashed (${error.message}). Restarting it…`,
    );
  }

  /** @param {RecoveredEvent['detail']} detail */
  async #onRecovered({ error, failed }) {
    if (failed) {
      document.body.dataset.engine = 'failed';
      this.pg.notice(
        `The training engine crashed (${error.message}) and could not be restarted: ${failed.message}. Reload the page: ${this.#savedWords()}`,
      );
      return;
    }
    const m = this.pg.model;
    await this.pg.restored(m);
    document.body.dataset.engine = 'restored';
    const from = m?.checkpointBytes
      ? `its last checkpoint, at step ${m.info.step}`
      : 'its settings (no checkpoint yet, so from step 0)';
    const on = m?.playing ? ', and trains on' : '';
    this.pg.notice(
      `The training engine crashed (${error.message}) and was restarted; the model was restored from ${from}${on}.`,
    );
  }

  /** What a reload keeps, as the last save left it (never a promise that it failed to keep). */
  #savedWords() {
    const r = this.lastSave;
    if (!r || r.ok) return 'your settings and the last checkpoint are saved.';
    return `your work could not be saved in this browser (${r.quota ? "the site's storage is full" : r.message}), so a reload starts over.`;
  }

  /**
   * A save's outcome: a failure is said in the page (once until a save succeeds again), and
   * body[data-saved] says \`failed\` or \`ok\`.
   * @param {import('../../state/saved-work.js').SaveResult} r
   */
  #saved(r) {
    const was = this.lastSave;
    this.lastSave = r;
    document.body.dataset.saved = r.ok ? 'ok' : 'failed';
    if (r.ok || (was && !was.ok)) return;
    this.pg.notice(
      r.quota
        ? `Your work could not be saved: this site's storage in the browser is full (${r.message}). A reload or a crashed tab will not bring this run back; free some storage for this site, or export the model to keep it.`
        : `Your work could not be saved in this browser (${r.message}). A reload or a crashed tab will not bring this run back; export the model to keep it.`,
    );
  }

  /** Read what a previous visit saved (call before the first model is built). */
  async load() {
    this.saved = await loadWork();
  }

  /** A new run starts (a new model, a reset, an import): its checkpoints go to a slot of their own. */
  newRun() {
    this.runId = this.ids.next();
    this.savedStep = 0;
  }

  /**
   * Keep a model's checkpoints while it is the page's current model, in this run's slot. Only a
   * checkpoint past step 0 is saved: a new, untrained model takes no slot.
   * @param {Session} model
   */
  watch(model) {
    /** @typedef {CustomEvent<{bytes: Uint8Array, step: number}>} CheckpointEvent an EngineSession's 'checkpoint' */
    this.newRun();
    this.#offer(); // shows the offer once, from what load() read
    model.addEventListener('checkpoint', (ev) => {
      const e = /** @type {CheckpointEvent} */ (ev);
      if (model !== this.pg.model || !(e.detail.step > 0)) return;
      const c = model.info.config;
      this.savedStep = e.detail.step;
      saveRun({
        id: this.runId,
        tab: this.ids.tab,
        step: e.detail.step,
        task: String(c.task),
        position: String(c.position ?? ''),
        normalization: String(c.normalization ?? ''),
        bytes: e.detail.bytes,
      }).then((r) => this.#saved(r));
    });
  }

  // The page is hidden or left: keep where the model is now (a tab that is only hidden lives on
  // to write it; training stops are saved as they happen).
  #onHide() {
    const m = this.pg.model;
    if (m && !m.disposed && m.lastStep > 0 && (m.playing || m.lastStep !== this.savedStep))
      m.keepCheckpoint({ after: true });
  }

  /** The settings changed: save them (debounced). @param {import('../../state/properties.js').State} state */
  stateChanged(state) {
    clearTimeout(this.stateTimer);
    this.stateTimer = setTimeout(() => saveState(state).then((r) => this.#saved(r)), SAVE_STATE_MS);
  }

  // The saved runs (this tab's latest first), or saved settings when the page was opened without
  // any: one offer.
  #offer() {
    const saved = this.saved;
    this.saved = null;
    if (!saved) return;
    const { runs, state } = saved;
    const tab = this.ids.tab;
    if (runs.length) {
      const ordered = [...runs.filter((r) => r.tab === tab), ...runs.filter((r) => r.tab !== tab)];
      this.#showRuns(ordered);
    } else if (state && !hasHash()) {
      this.#show('Settings from your last visit are saved.', 'Restore the settings', () => {
        followHash(stateToHash(/** @type {import('../../state/properties.js').State} */ (state))); // the hash listener reads and applies it
      });
    }
  }

  /** @param {SavedRun[]} runs this tab's first, each part newest first */
  #showRuns(runs) {
    const describe = (/** @type {SavedRun} */ r) => {
      const from = r.tab === this.ids.tab ? 'this tab' : r.tab ? 'another tab' : 'an earlier visit';
      const setup = [r.position && `position ${r.position}`, r.normalization].filter(Boolean).join(', ');
      return `${r.task} at step ${r.step}${setup ? ` (${setup})` : ''}, saved ${new Date(r.savedAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })} in ${from}`;
    };
    /** @type {() => SavedRun} */
    let chosen = () => runs[0];
    const list = document.createElement('div');
    if (runs.length === 1) list.textContent = `Saved work: ${describe(runs[0])}.`;
    else {
      const set = document.createElement('fieldset');
      set.className = 'saved-runs';
      set.append(
        Object.assign(document.createElement('legend'), {
          textContent: `Saved work: ${runs.length} runs. Choose one to restore.`,
        }),
      );
      const inputs = runs.map((r, i) => {
        const input = Object.assign(document.createElement('input'), {
          type: 'radio',
          name: 'saved-run',
          value: r.id,
          checked: i === 0,
        });
        const label = document.createElement('label');
        label.append(input, ` ${describe(r)}`);
        set.append(label);
        return input;
      });
      chosen = () =>
        runs[
          Math.max(
            0,
            inputs.findIndex((x) => x.checked),
          )
        ];
      list.append(set);
    }
    this.#show(
      list,
      'Restore the model',
      () => this.#restore(chosen()),
      () => forgetRuns(runs),
      runs.length === 1 ? 'Forget it' : 'Forget them',
    );
  }

  /** @param {SavedRun} run */
  async #restore(run) {
    const bytes = await runBytes(run.id);
    if (!bytes)
      return this.pg.notice(
        `The saved run (${run.task} at step ${run.step}) is no longer stored: newer runs replaced it.`,
      );
    await this.pg.files.loadModelBytes({ name: 'the saved model', bytes });
  }

  /**
   * @param {string|HTMLElement} text
   * @param {string} action the restore button's text
   * @param {() => void} onRestore
   * @param {() => void} [onDismiss]
   * @param {string} [dismissText]
   */
  #show(text, action, onRestore, onDismiss = () => {}, dismissText = 'Dismiss') {
    const box = document.createElement('div');
    box.id = 'restore-offer';
    box.className = 'notice';
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', 'Saved work');
    const restore = Object.assign(document.createElement('button'), {
      type: 'button',
      id: 'restore-saved',
      textContent: action,
    });
    const dismiss = Object.assign(document.createElement('button'), {
      type: 'button',
      id: 'dismiss-saved',
      textContent: dismissText,
    });
    const actions = Object.assign(document.createElement('div'), { className: 'offer-actions' });
    actions.append(restore, dismiss);
    box.append(
      typeof text === 'string' ? Object.assign(document.createElement('div'), { textContent: text }) : text,
      actions,
    );
    restore.addEventListener('click', () => {
      box.remove();
      onRestore();
    });
    dismiss.addEventListener('click', () => {
      box.remove();
      onDismiss();
    });
    ($('notice').parentElement ?? $('notice')).after(box); // below the notice row
  }
}
