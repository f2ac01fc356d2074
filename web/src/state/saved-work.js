// The playground's saved work in the browser (IndexedDB): the current settings and the last model
// snapshot (safetensors bytes), so that a reload or a crashed tab can offer to restore them.
// Two records in one object store: 'state' (the property values) and 'snapshot' ({bytes, step,
// task, savedAt}). The snapshot stays until a newer one replaces it or clearSnapshot() (the user
// dismissed the offer of it). Every function resolves (never rejects) so that a browser without
// IndexedDB, or with storage blocked, simply has nothing saved.

const DB_NAME = 'attention-playground';
const STORE = 'saved-work';

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
 * Run one request in a transaction; resolves with its result, or `fallback` on any failure.
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest} make
 * @param {any} [fallback]
 * @returns {Promise<any>}
 */
async function request(mode, make, fallback = null) {
  const db = await open();
  if (!db) return fallback;
  return new Promise((resolve) => {
    try {
      const tx = db.transaction(STORE, mode);
      const req = make(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result ?? fallback);
      tx.onerror = tx.onabort = () => resolve(fallback);
    } catch {
      resolve(fallback);
    }
  });
}

/**
 * Save the settings (a plain object of property values).
 * @param {import('./properties.js').State} state
 */
export function saveState(state) {
  return request('readwrite', (s) => s.put({ ...state }, 'state'));
}

/**
 * Save the last snapshot of the current model.
 * @param {{bytes: Uint8Array, step: number, task: string}} snap
 */
export function saveSnapshot({ bytes, step, task }) {
  return request('readwrite', (s) => s.put({ bytes: bytes.slice(), step, task, savedAt: Date.now() }, 'snapshot'));
}

/**
 * Forget the snapshot (the user dismissed the offer of it). With `savedAt`, only the snapshot
 * saved at that time: one saved since (a newer model) stays.
 * @param {number} [savedAt]
 */
export function clearSnapshot(savedAt) {
  return request('readwrite', (s) => {
    if (savedAt === undefined) return s.delete('snapshot');
    const get = s.get('snapshot');
    get.onsuccess = () => {
      if (get.result?.savedAt === savedAt) s.delete('snapshot');
    };
    return get;
  });
}

/** Forget everything saved. */
export function clearWork() {
  return request('readwrite', (s) => s.clear());
}

/**
 * What was saved: {state, snapshot} (each null when absent).
 * @returns {Promise<{state: object|null, snapshot: {bytes: Uint8Array, step: number, task: string, savedAt: number}|null}>}
 */
export async function loadWork() {
  const [state, snapshot] = await Promise.all([
    request('readonly', (s) => s.get('state')),
    request('readonly', (s) => s.get('snapshot')),
  ]);
  const okSnap = snapshot && snapshot.bytes instanceof Uint8Array && snapshot.bytes.length > 0 ? snapshot : null;
  return { state: state && typeof state === 'object' ? state : null, snapshot: okSnap };
}
