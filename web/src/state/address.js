// The address bar's hash, for every page: the one place that reads location.hash, writes it
// (history.replaceState, or a followed link) and listens for its change. What the hash means is
// state/hash.js's (the playground's settings) or the page's own reader of the text given here
// (the experiments grid's spec, the embed route's attributes). web/public/first-layout.js, which
// runs before any module to lay out the first paint, is the one other reader
// (tests/node/hash-owner.test.mjs holds both to this).

/** The hash as it is now: '#…', or '' without one. */
export const currentHash = () => location.hash;

/** Whether the address carries a hash beyond a bare '#'. */
export const hasHash = () => location.hash.replace(/^#/, '') !== '';

/**
 * Write the hash in place: no history entry and no hashchange (the page's state as a link).
 * '' drops it, keeping the path and the query.
 * @param {string} hash '#…' or '…'
 */
export function replaceHash(hash) {
  const h = hash.replace(/^#/, '');
  history.replaceState(null, '', h ? `#${h}` : location.pathname + location.search);
}

/**
 * Go to a hash as a followed link does: a history entry and a hashchange, which the page's
 * onHashChange listener reads.
 * @param {string} hash
 */
export function followHash(hash) {
  location.hash = hash;
}

/**
 * Call `f` on every change of the hash (a link followed, Back or Forward, an edit of the address).
 * @param {() => void} f
 * @returns {() => void} stops listening
 */
export function onHashChange(f) {
  addEventListener('hashchange', f);
  return () => removeEventListener('hashchange', f);
}
