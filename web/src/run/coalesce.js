// The coalescing loop behind every refresh of a view: one pass at a time; a call during a pass
// asks for one more pass after it (however many calls came), so the view ends up showing the
// latest state without queueing a request per call. Used by the run controller (inspections of
// the playground and the widgets) and by the permutation demo's check.

/**
 * Wrap `pass` (sync or async) so that overlapping calls coalesce (see the header).
 * @param {() => (void|Promise<void>)} pass one refresh; it handles its own errors (a throw ends the loop)
 * @param {() => boolean} [stop] checked before a repeated pass (e.g. the view was disposed)
 * @returns {() => Promise<void>} resolves when the pass that covers this call has finished
 */
export function coalesce(pass, stop = () => false) {
  /** @type {Promise<void>|null} */
  let running = null;
  let again = false;
  return function run() {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await pass();
        } while (again && !stop());
      } finally {
        running = null;
      }
    })();
    return running;
  };
}
