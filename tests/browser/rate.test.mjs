// The playground at max speed, as a person sees it and as the worker talks to the page: the
// steps/s readout is a positive number (and its data-value too), tokens/s follows it, the ETA
// shows while a step count lies ahead and not without one; the worker's messages carry only the
// points since the last one (never the history), a few per second, and stay the same size as
// the run grows. No timing is asserted as pass/fail. Screenshots (1280 and 375 px, light and dark)
// go to test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, shot, ready, until, frames, WAIT } from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const HASH = '#task=copy&seq_len=8&d_model=16&heads=2&layers=1&batch=8&steps=1000000&speed=0&eval_every=50';

/** Record every message the worker posts to the page: its kind, points, step and size. */
function recordMessages(page) {
  return page.evaluate(() => {
    const log = [];
    Object.assign(window, { workerLog: log });
    window.playground.client.worker.addEventListener('message', (e) => {
      const d = e.data;
      log.push({
        event: d.event ?? 'reply',
        steps: d.steps?.length ?? 0,
        evals: d.evals?.length ?? 0,
        step: d.step ?? null,
        size: JSON.stringify(d, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v.subarray(0, 1)) : v)).length,
        t: performance.now(),
      });
    });
  });
}

test('at max speed: steps/s, tokens/s and the ETA show; worker messages carry only new points', async () => {
  const page = await h.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${h.url}${HASH}`);
  await ready(page);
  assert.equal(await page.locator('#steps-per-s').textContent(), '–', 'no rate before training');
  assert.equal(await page.locator('#eta').textContent(), '–');
  await recordMessages(page);
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('steps-per-s').dataset.value) > 0, null, {
    timeout: 20000,
  });
  // Enough of a record for the checks below: metrics messages over 2 s or more of training, 200
  // steps, an inspect reply (a busy machine trains slower: bounded, and each part asserted below).
  await until(
    page,
    () => {
      const m = window.workerLog.filter((x) => x.event === 'metrics');
      const seen = {
        metrics: m.length,
        steps: m.length ? m.at(-1).step - (m[0].step - m[0].steps) : 0,
        ms: m.length ? Math.round(m.at(-1).t - m[0].t) : 0,
        replies: window.workerLog.filter((x) => x.event === 'reply').length,
      };
      return { ok: seen.metrics >= 4 && seen.steps > 200 && seen.ms >= 2000 && seen.replies >= 1, ...seen };
    },
    'metrics messages over 2 s of training (200 steps or more) and an inspect reply',
    { timeout: WAIT.training },
  );
  const value = Number(await page.locator('#steps-per-s').getAttribute('data-value'));
  const text = await page.locator('#steps-per-s').textContent();
  assert.ok(value > 0, `steps/s data-value ${value}`);
  assert.match(text, /^[\d,]+(\.\d+)?$/, `steps/s readout '${text}'`);
  const tokens = Number((await page.locator('#tokens-per-s').textContent()).replaceAll(',', ''));
  assert.ok(tokens > 0, 'tokens/s shows');
  assert.match(
    await page.locator('#eta').textContent(),
    /^\d+ (s|min \d\d s|h \d\d min)$/,
    'the ETA shows with a step count ahead',
  );
  await shot(page, 'rate-1280-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, 'rate-1280-dark');
  await page.setViewportSize({ width: 375, height: 800 });
  await frames(page);
  await shot(page, 'rate-375-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await shot(page, 'rate-375-light');
  await page.setViewportSize({ width: 1280, height: 900 });

  const log = await page.evaluate(() => window.workerLog);
  const metrics = log.filter((m) => m.event === 'metrics');
  assert.ok(metrics.length >= 4, `metrics messages: ${metrics.length}`);
  const first = metrics[0].step - metrics[0].steps;
  const last = metrics.at(-1).step;
  assert.ok(last - first > 200, `trained ${last - first} steps`);
  // Only the points since the previous message (the first may start anywhere).
  for (let i = 1; i < metrics.length; i++)
    assert.ok(
      metrics[i].steps <= metrics[i].step - metrics[i - 1].step,
      `message ${i}: ${metrics[i].steps} points for ${metrics[i].step - metrics[i - 1].step} new steps`,
    );
  // Chunks sized by wall time: a few messages per second, however fast the model.
  const seconds = (metrics.at(-1).t - metrics[0].t) / 1000;
  assert.ok(metrics.length / seconds < 40, `${metrics.length} metrics messages in ${seconds.toFixed(1)} s`);
  // Sizes do not grow with the run: bytes per point stay those of one step's metrics.
  const perPoint = metrics.map((m) => m.size / Math.max(1, m.steps + m.evals));
  assert.ok(Math.max(...perPoint) < 600, `bytes per point ${Math.max(...perPoint)}`);
  const half = Math.floor(metrics.length / 2);
  const maxOf = (ms) => Math.max(...ms.map((m) => m.size / Math.max(1, m.steps)));
  assert.ok(
    maxOf(metrics.slice(half)) <= 2 * maxOf(metrics.slice(0, half)) + 200,
    'late messages are no bigger per point than early ones',
  );
  const replies = log.filter((m) => m.event === 'reply');
  assert.ok(replies.length >= 1, 'inspect replies while training');
  assert.ok(Math.max(...replies.map((m) => m.size)) < 200000, 'no reply carries a history');

  // Past the configured steps (none ahead): no ETA, the rate stays.
  await page.click('#play'); // pause
  await page.waitForFunction(() => document.getElementById('play').textContent === 'Play');
  assert.equal(await page.locator('#eta').textContent(), '–', 'no ETA while paused');
  assert.ok(Number(await page.locator('#steps-per-s').getAttribute('data-value')) > 0, 'the last rate stays readable');
  assert.deepEqual(errors, []);
  await page.close();
});
