// The browser tests' one way to wait: for a fact, bounded, failing with a message. A test never
// sleeps before it asserts (tests/node/no-sleeps.test.mjs holds every file here to that).
//
//   await until(page, () => document.body.dataset.run === 'ready', 'the model is built');
//   const step = await until(page, (el) => ({ ok: el.currentStep >= 20, step: el.currentStep }), 'step 20', { arg: handle });
//   await until(null, async () => (await savedCheckpoint(page))?.step === 20, 'the checkpoint in IndexedDB');
//
// The predicate runs in the page (page.evaluate, with `arg`), or in Node when `page` is null. It
// returns a value: done when the value is truthy, or, for an object with an `ok` field, when `ok` is
// (so that a predicate can report what it saw: `({ok: step === 20, step})`). until resolves with
// that value. On timeout it throws an Error naming `what` and the last value seen (or the last
// error the predicate threw: a page that navigates or a predicate that throws is polled again).

/** How long a fact may take: most come within a frame or a worker round trip; training takes longer. */
export const WAIT = { fact: 10000, training: 60000 };

/**
 * Poll `predicate` until it holds; resolve with its value.
 * @template T
 * @param {import('playwright-core').Page | import('playwright-core').Frame | null} page
 * @param {((arg: any) => T | Promise<T>)} predicate run in the page (or in Node when page is null)
 * @param {string} what the fact, as the failure message states it
 * @param {{timeout?: number, arg?: unknown, every?: number}} [opts] timeout in ms (default 10 s),
 *   arg for the page function, every: the polling interval in ms
 * @returns {Promise<T>}
 */
export async function until(page, predicate, what, { timeout = WAIT.fact, arg, every = 50 } = {}) {
  const end = Date.now() + timeout;
  /** @type {{value?: unknown, error?: string}} */
  let last = {};
  for (;;) {
    try {
      const value = await bounded(
        page ? page.evaluate(predicate, arg) : predicate(arg),
        Math.max(end - Date.now(), every),
      );
      last = { value };
      const ok = value !== null && typeof value === 'object' && 'ok' in value ? value.ok : value;
      if (ok) return value;
    } catch (e) {
      last = { error: e instanceof Error ? e.message.split('\n')[0] : String(e) };
    }
    if (Date.now() >= end) break;
    const pause = Math.min(every, Math.max(0, end - Date.now()));
    await new Promise((r) => setTimeout(r, pause)); // no-sleeps: the polling interval of until() itself
  }
  const seen = 'error' in last ? `the predicate threw: ${last.error}` : `last seen: ${show(last.value)}`;
  throw new Error(`Timed out after ${timeout} ms waiting for ${what} (${seen})`);
}

/**
 * `p`, or a rejection after `ms` (a predicate that never answers still ends the wait).
 * @template T @param {Promise<T> | T} p @param {number} ms @returns {Promise<T>}
 */
function bounded(p, ms) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** @param {unknown} v */
function show(v) {
  try {
    const s = JSON.stringify(v);
    if (s === undefined) return String(v);
    return s.length > 300 ? `${s.slice(0, 300)}…` : s;
  } catch {
    return String(v);
  }
}

/**
 * The playground's current model (window.playground.model) is paused, as its worker acknowledged:
 * the reply to the pause came back (model.playing is false) and the counter shows the last step
 * the worker reported (steps trained before the worker saw the pause arrive first). Then proves
 * that nothing trains on: one more round trip to the worker (an `info` call, which changes
 * nothing) finds it at that step, and the counter unchanged. Resolves with the step.
 * @param {import('playwright-core').Page} page
 */
export async function pausedPlayground(page) {
  const seen = await until(
    page,
    () => {
      const m = window.playground.model;
      const shown = Number(document.getElementById('step-counter').textContent);
      return {
        ok: Boolean(m) && !m.playing && shown === m.lastStep,
        playing: m?.playing,
        shown,
        lastStep: m?.lastStep,
      };
    },
    'the worker to acknowledge the pause (model.playing false, the counter at its last reported step)',
  );
  const after = await page.evaluate(async () => {
    const m = window.playground.model;
    const info = await m.client.call('info', { sid: m.sid });
    return { worker: info.step, shown: Number(document.getElementById('step-counter').textContent) };
  });
  if (after.worker !== seen.shown || after.shown !== seen.shown)
    throw new Error(
      `paused at step ${seen.shown}, yet one round trip later the worker is at step ${after.worker} and the counter at ${after.shown}`,
    );
  return seen.shown;
}

/**
 * The same for a widget (the element at `selector`): its model's pause acknowledged by its worker,
 * the widget's step the last one reported, and one more round trip finds both unchanged.
 * Resolves with the step.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 */
export async function pausedWidget(page, selector) {
  const el = await page.locator(selector).elementHandle();
  const seen = await until(
    page,
    (w) => {
      const m = w.app?.model;
      return {
        ok: Boolean(m) && !m.playing && w.currentStep === m.lastStep,
        playing: m?.playing,
        shown: w.currentStep,
        lastStep: m?.lastStep,
      };
    },
    `${selector}: the worker to acknowledge the pause (model.playing false, the widget at its last reported step)`,
    { arg: el },
  );
  const after = await page.evaluate(async (w) => {
    const m = w.app.model;
    const info = await m.client.call('info', { sid: m.sid });
    return { worker: info.step, shown: w.currentStep };
  }, el);
  if (after.worker !== seen.shown || after.shown !== seen.shown)
    throw new Error(
      `${selector}: paused at step ${seen.shown}, yet one round trip later the worker is at step ${after.worker} and the widget at ${after.shown}`,
    );
  return seen.shown;
}

/**
 * n animation frames of the page (default 2): what a resize or a theme switch redraws (a
 * ResizeObserver, a draw on the next frame) is on screen. For screenshots; an assertion waits for
 * its own fact with until().
 * @param {import('playwright-core').Page} page
 */
export const frames = (page, n = 2) =>
  page.evaluate(
    (k) =>
      new Promise((done) => {
        const next = () => (--k > 0 ? requestAnimationFrame(next) : done(undefined));
        requestAnimationFrame(next);
      }),
    n,
  );
