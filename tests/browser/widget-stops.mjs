// The proof that a widget's training has stopped, from the page's own state and its worker's word,
// never from a fixed sleep: the step the widget shows now, the step its worker reports in a round
// trip, and again both after the worker has beaten twice (its heartbeat, every second, needs its
// event loop free, so a step(n) still under way would have trained between the two round trips).
// `target` is a Playwright Page or Frame; `selector` finds the widget in it.
import assert from 'node:assert/strict';

/**
 * Wait (bounded, failing with `what`) until the widget's step(n) queue is empty: the worker has
 * answered the running step(n) and nothing waits.
 */
export async function stepsDrained(target, selector, what) {
  await target
    .waitForFunction(
      (sel) => {
        const app = document.querySelector(sel)?.app;
        return app && !app.steps.busy;
      },
      selector,
      { timeout: 15000 },
    )
    .catch(() => assert.fail(`${what}: step(n) calls still run or wait after 15 s`));
}

/**
 * The widget's step now, then after a worker round trip, two heartbeats and another round trip:
 * {shown: [before, after], worker: [first, second]}.
 */
export async function stepsLater(target, selector) {
  return target.evaluate(async (sel) => {
    const el = document.querySelector(sel);
    const model = el.app.model;
    const before = el.currentStep;
    const first = (await model.inspect({})).step;
    const worker = model.client.worker;
    await new Promise((resolve, reject) => {
      let beats = 0;
      const timer = setTimeout(() => reject(new Error('the worker did not beat twice in 10 s')), 10000);
      const on = (e) => {
        if (e.data?.event !== 'beat' || ++beats < 2) return;
        clearTimeout(timer);
        worker.removeEventListener('message', on);
        resolve();
      };
      worker.addEventListener('message', on);
    });
    const second = (await model.inspect({})).step;
    return { shown: [before, el.currentStep], worker: [first, second] };
  }, selector);
}

/** Assert that training stays stopped at the step shown now (see the header). */
export async function assertStopped(target, selector, what) {
  const s = await stepsLater(target, selector);
  const [shown] = s.shown;
  assert.deepEqual(
    s,
    { shown: [shown, shown], worker: [shown, shown] },
    `${what}: training went on (${JSON.stringify(s)})`,
  );
  return shown;
}
