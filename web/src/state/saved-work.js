// The playground's saved work in the browser (IndexedDB): the current settings and, per run, the
// last checkpoint (the model file's safetensors bytes), so that a reload or a crashed tab can offer to restore
// them. One object store, keyed by strings:
//   'state'         the property values
//   'run:<id>'      a run's description {id, tab, step, task, position, normalization, savedAt}
//   'bytes:<id>'    that run's model file (Uint8Array), written in the same transaction
// A run id is unique per run and per tab (runIds() below), so two tabs never write the same slot.
// At most MAX_RUNS runs are kept: saving one evicts the oldest beyond them. A run stays until it
// is evicted or forgotten (the user dismissed the offer of it). The single 'snapshot' record of
// earlier versions becomes the run 'legacy' when read (migrate()). Every function resolves (never
// rejects) so that a browser without IndexedDB, or with storage blocked, simply has nothing saved.
// Each save is one transaction that commits whole or not at all: a write that fails (the origin's
// storage full: QuotaExceededError, thrown at once or when the transaction commits) aborts it, so a
// run's description is never kept without its model. saveState and saveRun say whether they were
// kept (SaveResult), so that the page can say so.

const DB_NAME = 'attention-playground';
const STORE = 'saved-work';
/** The most runs kept (the newest ones). */
export const MAX_RUNS = 5;
const RUN = 'run:';
const BYTES = 'bytes:';
const runKeys = () => IDBKeyRange.bound(RUN, `${RUN}\uffff`);

/**
 * @typedef {{id: string, tab: string, step: number, task: string, position: string,
 *   normalization: string, savedAt: number}} SavedRun a saved run's description (tab: the id of
 *   the tab that trained it; '' for a save from an earlier version)
 */

/** @type {Promise<IDBDatabase|null>|null} */
let opening = null;

/** @returns {Promise<IDBDatabase|null>} */
function open() {
  opening ??= new Promise((resolve) => {
    try {
      const req = indexedDB.open(DB_NAME, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(null);
      req.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
  return opening;
}

/**
 * Whether a save was kept: ok, or why not (`quota`: the origin's storage is full; `message`: the
 * browser's words).
 * @typedef {{ok: true} | {ok: false, quota: boolean, message: string}} SaveResult
 */

/**
 * Run `work` in one transaction; resolves with what it returns (read when the transaction
 * completes), or `fallback` on any failure, after which `failed` is told why. A failure aborts the
 * whole transaction (a write that throws at once too): nothing of it is kept.
 * @template T
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => () => T} work returns a function that reads the result
 * @param {T} fallback
 * @param {(err: unknown) => void} [failed]
 * @returns {Promise<T>}
 */
async function transact(mode, work, fallback, failed = () => {}) {
  const db = await open();
  if (!db) {
    failed(new Error('IndexedDB is not available (storage blocked, or a private window)'));
    return fallback;
  }
  return new Promise((resolve) => {
    /** @type {IDBTransaction|null} */
    let tx = null;
    let done = false;
    /** @param {unknown} err */
    const fail = (err) => {
      if (done) return;
      done = true;
      failed(err);
      resolve(fallback);
    };
    try {
      tx = db.transaction(STORE, mode);
      const t = tx;
      /** @type {unknown} the first failed request's error (the transaction's own may be null) */
      let first = null;
      t.onerror = (e) => (first ??= /** @type {IDBRequest|null} */ (e.target)?.error ?? null);
      t.onabort = () => fail(t.error ?? first ?? new Error('the save was aborted'));
      const result = work(t.objectStore(STORE));
      t.oncomplete = () => {
        if (done) return;
        done = true;
        resolve(result() ?? fallback);
      };
    } catch (err) {
      try {
        tx?.abort(); // what was written before the failure goes too
      } catch {
        // already finished or aborted
      }
      fail(err);
    }
  });
}

/**
 * A save's transaction, and whether it was kept.
 * @param {(store: IDBObjectStore) => void} work
 * @returns {Promise<SaveResult>}
 */
async function save(work) {
  /** @type {SaveResult} */
  let result = { ok: true };
  const kept = await transact(
    'readwrite',
    (s) => {
      work(s);
      return () => true;
    },
    false,
    (err) => {
      const e = /** @type {{name?: string, message?: string}|null} */ (err);
      const name = String(e?.name ?? '');
      result = {
        ok: false,
        quota: name === 'QuotaExceededError' || /quota/i.test(String(e?.message ?? '')),
        message: String(e?.message || name || err),
      };
    },
  );
  return kept ? { ok: true } : result.ok ? { ok: false, quota: false, message: 'the save was not kept' } : result;
}

/** This tab's id and a new run id for each call: unique per tab and per page load, kept by a reload. */
export function runIds() {
  const fresh = () => Math.random().toString(36).slice(2, 10);
  let tab = '';
  try {
    tab = sessionStorage.getItem('attention-playground-tab') ?? '';
    if (!tab) sessionStorage.setItem('attention-playground-tab', (tab = fresh()));
  } catch {
    tab = fresh(); // storage blocked: this page load is the tab
  }
  // A duplicated tab copies sessionStorage: the page load's own part keeps the two apart.
  const load = fresh();
  let n = 0;
  return { tab, next: () => `${tab}.${load}.${++n}` };
}

/**
 * Save the settings (a plain object of property values).
 * @param {import('./properties.js').State} state
 * @returns {Promise<SaveResult>}
 */
export function saveState(state) {
  return save((s) => s.put({ ...state }, 'state'));
}

/**
 * Save a run's latest checkpoint (replacing that run's earlier one) and evict the oldest runs
 * beyond MAX_RUNS, in one transaction: the model file first, then its description; a failure of
 * either aborts both (and the eviction).
 * @param {Omit<SavedRun, 'savedAt'> & {bytes: Uint8Array}} run
 * @returns {Promise<SaveResult>}
 */
export function saveRun({ bytes, ...run }) {
  const meta = { ...run, savedAt: Date.now() };
  return save((s) => {
    s.put(bytes.slice(), BYTES + meta.id);
    s.put(meta, RUN + meta.id);
    const all = s.getAll(runKeys());
    const keys = s.getAllKeys(runKeys());
    keys.onsuccess = () => {
      // a record that is not a run of the declared shape under its own key can never be offered
      // nor forgotten by id: it goes now
      for (const [i, key] of keys.result.entries())
        if (!validRuns([all.result[i]], [key]).length) forget(s, String(key).slice(RUN.length));
      const runs = validRuns(all.result, keys.result)
        .filter((r) => r.id !== meta.id)
        .sort(newestFirst);
      for (const old of runs.slice(MAX_RUNS - 1)) forget(s, old.id);
    };
  });
}

/**
 * Forget saved runs (the user dismissed the offer of them). A run saved again since the time
 * given (a newer model) stays.
 * @param {{id: string, savedAt: number}[]} runs
 */
export function forgetRuns(runs) {
  return transact(
    'readwrite',
    (s) => {
      for (const { id, savedAt } of runs) {
        const get = s.get(RUN + id);
        get.onsuccess = () => {
          // a newer save of the run stays; one that is not a valid run under its key goes too
          if (get.result?.savedAt === savedAt || !validRuns([get.result], [RUN + id]).length) forget(s, id);
        };
      }
      return () => true;
    },
    false,
  );
}

/** Forget everything saved. */
export function clearWork() {
  return transact(
    'readwrite',
    (s) => {
      s.clear();
      return () => true;
    },
    false,
  );
}

/**
 * The model file of a saved run (null when it is gone: evicted or forgotten since).
 * @param {string} id
 * @returns {Promise<Uint8Array|null>}
 */
export function runBytes(id) {
  return transact(
    'readonly',
    (s) => {
      const get = s.get(BYTES + id);
      return () => (get.result instanceof Uint8Array && get.result.length > 0 ? get.result : null);
    },
    null,
  );
}

/**
 * What was saved: the settings (null when none) and the runs, newest first (a save of an
 * earlier version migrated to a run first).
 * @returns {Promise<{state: object|null, runs: SavedRun[]}>}
 */
export async function loadWork() {
  await migrate();
  return transact(
    'readonly',
    (s) => {
      const state = s.get('state');
      const all = s.getAll(runKeys());
      const keys = s.getAllKeys(runKeys());
      return () => ({
        state: state.result && typeof state.result === 'object' ? state.result : null,
        runs: validRuns(all.result, keys.result).sort(newestFirst),
      });
    },
    { state: null, runs: [] },
  );
}

// The one 'snapshot' record of earlier versions ({bytes, step, task, savedAt}) becomes the run
// 'legacy' (from no tab), in one transaction, so that it is offered as before.
function migrate() {
  return transact(
    'readwrite',
    (s) => {
      const get = s.get('snapshot');
      get.onsuccess = () => {
        const old = get.result;
        if (old === undefined) return;
        s.delete('snapshot');
        if (!(old?.bytes instanceof Uint8Array) || !old.bytes.length || !(old.step > 0)) return;
        const meta = {
          id: 'legacy',
          tab: '',
          step: old.step,
          task: String(old.task ?? ''),
          position: '',
          normalization: '',
          savedAt: Number(old.savedAt) || 0,
        };
        s.put(meta, RUN + meta.id);
        s.put(old.bytes, BYTES + meta.id);
      };
      return () => true;
    },
    false,
  );
}

/** @param {IDBObjectStore} s @param {string} id */
function forget(s, id) {
  s.delete(RUN + id);
  s.delete(BYTES + id);
}

/** @param {SavedRun} a @param {SavedRun} b */
const newestFirst = (a, b) => b.savedAt - a.savedAt;

/**
 * Only records of the declared shape come through (another version or a hand edit may differ):
 * each under its own key (run:<id>) and with a finite time, so that forgetting it by id works.
 * @param {unknown} list
 * @param {unknown} keys the records' keys, in the same order (getAllKeys)
 * @returns {SavedRun[]}
 */
export function validRuns(list, keys) {
  if (!Array.isArray(list) || !Array.isArray(keys)) return [];
  return list
    .filter(
      (r, i) =>
        r &&
        typeof r.id === 'string' &&
        keys[i] === RUN + r.id &&
        Number.isFinite(r.savedAt) &&
        typeof r.tab === 'string' &&
        Number.isInteger(r.step) &&
        r.step > 0 &&
        typeof r.task === 'string' &&
        typeof r.savedAt === 'number',
    )
    .map((r) => ({
      id: r.id,
      tab: r.tab,
      step: r.step,
      task: r.task,
      position: String(r.position ?? ''),
      normalization: String(r.normalization ?? ''),
      savedAt: r.savedAt,
    }));
}
