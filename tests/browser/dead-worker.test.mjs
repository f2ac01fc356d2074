// A worker that dies without a word (terminated, as a browser reclaiming it or a tab out of memory
// would) is noticed and replaced: the test calls terminate() on the REAL worker (no simulated trap
// that still replies). Within seconds the page says so, the calls that were pending reject with
// the reason, a new worker starts, the model comes back at the step of its last checkpoint and
// trains on, and Play/Pause work again. Playground (through the worker's Web Lock, and through the
// heartbeat when the page has no navigator.locks) and a demo page (the pool). The widget's case is
// in widget-dead-worker.test.mjs. Screenshots of the notice at 1280 and 375 px go to test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { startHarness, shot, ready, RESULTS, pausedPlayground, frames } from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const counter = async (page) => Number(await page.locator('#step-counter').textContent());

/** A page that records errors; `noLocks` hides navigator.locks (the heartbeat fallback). */
async function open(url, { noLocks = false, width = 1280, height = 900 } = {}) {
  const page = await h.browser.newPage({ viewport: { width, height } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  if (noLocks)
    await page.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined, configurable: true }),
    );
  await page.goto(url);
  return { page, errors };
}

/**
 * In the page: wait for a checkpoint at step >= `minStep` of model `get()`, then issue a call and
 * terminate the model's worker before it can answer. Returns the checkpoint's step, the pending
 * call's rejection and the time of the termination.
 */
async function terminateAfterCheckpoint(page, getModel, minStep) {
  return page.evaluate(
    async ([src, min]) => {
      const model = (0, eval)(src)();
      const snap = await new Promise((resolve, reject) => {
        setTimeout(() => reject(new Error('no checkpoint within 30 s')), 30000);
        const on = (e) => {
          if (e.detail.step < min) return;
          model.removeEventListener('checkpoint', on);
          resolve(e.detail.step);
        };
        model.addEventListener('checkpoint', on);
      });
      const client = model.client;
      window.__oldWorker = client.worker;
      model.addEventListener('restored', (e) => (window.__restored = e.detail), { once: true });
      const pending = Promise.race([
        model.evaluate(0).then(
          () => 'resolved',
          (err) => err.message,
        ),
        new Promise((resolve) => setTimeout(() => resolve('still pending after 30 s'), 30000)),
      ]);
      client.worker.terminate();
      window.__terminatedAt = performance.now();
      return {
        snap,
        generation: client.generation,
        pending: await pending,
        rejectedAfter: Math.round(performance.now() - window.__terminatedAt),
      };
    },
    [getModel.toString(), minStep],
  );
}

const since = (page) => page.evaluate(() => Math.round(performance.now() - window.__terminatedAt));

test(
  'playground: a terminated worker is noticed at once, replaced, and the model trains on from its checkpoint',
  { timeout: 240000 },
  async () => {
    const { page, errors } = await open(`${h.url}#task=copy&steps=100000&seed=5`);
    await ready(page);
    await page.click('#play');
    const t = await terminateAfterCheckpoint(page, () => window.playground.model, 20);
    assert.match(
      t.pending,
      /the engine's worker stopped: terminated by the browser, or out of memory/,
      'the pending call rejects with the reason',
    );
    await page.waitForFunction(() => ['restarting', 'restored'].includes(document.body.dataset.engine), null, {
      timeout: 10000,
    });
    const noticedMs = await since(page);
    await page.waitForFunction(() => document.body.dataset.engine === 'restored', null, { timeout: 30000 });
    const recoveredMs = await since(page);
    console.log(
      `playground (lock): pending call rejected after ${t.rejectedAfter} ms, notice after ${noticedMs} ms, recovered after ${recoveredMs} ms; checkpoint at step ${t.snap}`,
    );
    const notice = await page.locator('#notice').textContent();
    assert.match(
      notice,
      new RegExp(
        `crashed \\(the engine's worker stopped: terminated by the browser, or out of memory\\) and was restarted; the model was restored from its last checkpoint, at step ${t.snap}, and trains on`,
      ),
    );
    const after = await page.evaluate(() => ({
      fresh: window.playground.client.worker !== window.__oldWorker,
      generation: window.playground.client.generation,
      step: window.playground.model.info.step,
    }));
    assert.ok(after.fresh, 'a new worker');
    assert.equal(after.generation, t.generation + 1);
    assert.equal(after.step, t.snap, 'the model came back at the step of its last checkpoint');
    assert.deepEqual(await page.evaluate(() => window.__restored), {
      playing: true,
      step: t.snap,
      reason: 'restored',
      fromCheckpoint: true,
    });
    // It trains on in the new worker; Pause and Play work.
    await page.waitForFunction((s) => Number(document.getElementById('step-counter').textContent) > s + 10, t.snap, {
      timeout: 30000,
    });
    assert.equal(await page.locator('#play').textContent(), 'Pause');
    await page.click('#play');
    await page.waitForFunction(() => document.getElementById('play').textContent === 'Play');
    // Steps trained before the worker saw the pause still arrive: wait for its acknowledgement, then
    // one more round trip to the worker finds the same step, and the counter shows it.
    const paused = await pausedPlayground(page);
    assert.equal(await counter(page), paused, 'paused');
    await page.click('#play');
    await page.waitForFunction((s) => Number(document.getElementById('step-counter').textContent) > s + 5, paused, {
      timeout: 30000,
    });
    await page.click('#play'); // pause for still screenshots
    await page.waitForFunction(() => document.getElementById('play').textContent === 'Play');
    await shot(page, 'dead-worker-playground-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await frames(page);
    await page.screenshot({ path: resolve(RESULTS, 'dead-worker-playground-375.png') });
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test(
  'playground without navigator.locks: the silent heartbeat gives the dead worker away',
  { timeout: 240000 },
  async () => {
    const { page, errors } = await open(`${h.url}#task=copy&steps=100000&seed=6`, { noLocks: true });
    await ready(page);
    assert.equal(await page.evaluate(() => window.playground.client.watchdog.lockable), false);
    await page.click('#play');
    const t = await terminateAfterCheckpoint(page, () => window.playground.model, 10);
    assert.match(t.pending, /the engine's worker stopped responding \(no sign of life for \d+ s\)/);
    await page.waitForFunction(() => document.body.dataset.engine === 'restored', null, { timeout: 40000 });
    const recoveredMs = await since(page);
    console.log(
      `playground (heartbeat): pending call rejected after ${t.rejectedAfter} ms, recovered after ${recoveredMs} ms`,
    );
    assert.match(
      await page.locator('#notice').textContent(),
      new RegExp(`restored from its last checkpoint, at step ${t.snap}, and trains on`),
    );
    await page.waitForFunction((s) => Number(document.getElementById('step-counter').textContent) > s + 10, t.snap, {
      timeout: 30000,
    });
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test(
  'demo page: a terminated pool worker is replaced, the notice says so, and its model trains on',
  { timeout: 240000 },
  async () => {
    const { page, errors } = await open(`${h.url}permutation.html?steps=100000`);
    await page.locator('.apd[data-ready="true"]').waitFor({ timeout: 60000 });
    const t = await terminateAfterCheckpoint(
      page,
      () =>
        window.demoPool.clients
          .find((c) => c.models.size > 0)
          .models.values()
          .next().value,
      10,
    );
    assert.match(t.pending, /worker stopped/);
    const notice = page.locator('.apd-engine-notice[data-engine="restored"]');
    await notice.waitFor({ timeout: 30000 });
    console.log(`demo (pool): recovered after ${await since(page)} ms`);
    // A pool worker holds one model per seed (3 seeds per cell): the notice counts them.
    assert.match(
      await notice.textContent(),
      /A training engine crashed \(the engine's worker stopped: .*\) and was restarted; its (model came back from its last checkpoint, at step \d+|\d+ models came back from their last checkpoints), and training goes on/,
    );
    assert.deepEqual(await page.evaluate(() => window.__restored), {
      playing: true,
      step: t.snap,
      reason: 'restored',
      fromCheckpoint: true,
    });
    const restored = () =>
      window.demoPool.clients
        .find((c) => c.generation > 1)
        .models.values()
        .next().value;
    await page.waitForFunction(([src, s]) => (0, eval)(src)().lastStep > s + 10, [restored.toString(), t.snap], {
      timeout: 30000,
    });
    await shot(page, 'dead-worker-demo');
    assert.deepEqual(errors, []);
    await page.close();
  },
);
