// The embeddable widget (built dist/, served by a plain static server) when the worker that
// trains its model is terminated for real: the widget says so in its notice, the model comes back
// at the step of its last checkpoint and trains on; a second widget trains on too: restored as well
// when it shared that worker (a pool of one worker on a 2-core machine), else untouched and
// silent. dist/ is rebuilt when older than the sources (dist.mjs). Screenshot:
// test-results/dead-worker-widget.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { RESULTS } from './harness.mjs';
import { page as fixture, startWidgetServer } from './widget-fixtures.mjs';

const FIXTURES = {
  '/fixtures/dead-worker.html': fixture(`
    <attention-playground id="a" preset="sinusoidal" steps="100000" height="90" autoplay view="chart"></attention-playground>
    <attention-playground id="b" preset="rope" steps="100000" height="90" autoplay view="chart"></attention-playground>`),
};

let server;
before(async () => {
  server = await startWidgetServer(FIXTURES);
});
after(() => server?.close());

test(
  'widget: a terminated worker is noticed, the model comes back from its checkpoint and trains on',
  { timeout: 240000 },
  async () => {
    const { page: p, errors } = await server.open('/fixtures/dead-worker.html');
    const stepOf = (id) => p.evaluate((i) => document.getElementById(i).currentStep, id);
    await p.waitForFunction(
      () =>
        [...document.querySelectorAll('attention-playground')].every((w) => w.status === 'ready' && w.currentStep > 5),
      null,
      { timeout: 60000, polling: 250 },
    );
    const t = await p.evaluate(async () => {
      const model = document.getElementById('a').app.model;
      const other = document.getElementById('b').app.model;
      const snap = await new Promise((resolve, reject) => {
        setTimeout(() => reject(new Error('no checkpoint within 30 s')), 30000);
        const on = (e) => {
          if (e.detail.step < 10) return;
          model.removeEventListener('checkpoint', on);
          resolve(e.detail.step);
        };
        model.addEventListener('checkpoint', on);
      });
      model.addEventListener('restored', (e) => (window.__restored = e.detail), { once: true });
      const pending = Promise.race([
        model.evaluate(0).then(
          () => 'resolved',
          (err) => err.message,
        ),
        new Promise((resolve) => setTimeout(() => resolve('still pending after 30 s'), 30000)),
      ]);
      window.__otherWorker = other.client.worker;
      model.client.worker.terminate();
      window.__terminatedAt = performance.now();
      return { snap, sameWorker: model.client === other.client, pending: await pending };
    });
    assert.match(t.pending, /the engine's worker stopped: terminated by the browser, or out of memory/);
    const notice = (id) =>
      p.evaluate((i) => {
        const n = document.getElementById(i).shadowRoot.querySelector('.apd-engine-notice');
        return n && !n.hidden ? n.textContent : null;
      }, id);
    await p.waitForFunction(
      () => document.getElementById('a').shadowRoot.querySelector('.apd-engine-notice')?.dataset.engine === 'restored',
      null,
      { timeout: 30000 },
    );
    console.log(
      `widget: recovered after ${await p.evaluate(() => Math.round(performance.now() - window.__terminatedAt))} ms; checkpoint at step ${t.snap}`,
    );
    assert.match(
      await notice('a'),
      new RegExp(
        `A training engine crashed \\(the engine's worker stopped: .*\\) and was restarted; its model came back from its last checkpoint, at step ${t.snap}, and training goes on`,
      ),
    );
    assert.deepEqual(await p.evaluate(() => window.__restored), {
      playing: true,
      step: t.snap,
      reason: 'restored',
      fromCheckpoint: true,
    });
    const s = await stepOf('a');
    await p.waitForFunction(([i, n]) => document.getElementById(i).currentStep > n + 10, ['a', s], { timeout: 30000 });
    if (t.sameWorker)
      assert.match(await notice('b'), /and was restarted; its model came back from its last checkpoint/);
    else {
      assert.equal(await notice('b'), null, 'a widget on another worker says nothing');
      assert.equal(
        await p.evaluate(() => document.getElementById('b').app.model.client.worker === window.__otherWorker),
        true,
      );
    }
    const sb = await stepOf('b');
    await p.waitForFunction(([i, n]) => document.getElementById(i).currentStep > n + 10, ['b', sb], { timeout: 30000 });
    await p.screenshot({ path: resolve(RESULTS, 'dead-worker-widget.png'), fullPage: true });
    assert.deepEqual(errors, []);
    await p.close();
  },
);
