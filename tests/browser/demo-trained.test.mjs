// tests/browser/demo-trained.test.mjs — a demo widget says when it is done (issue 43 §4: the
// permutation demo emitted no event when its six models were done). Each demo preset fires the
// widget's `trained` event once all its models have finished (their budget or the task learned),
// with {preset, step, results}; "Train longer" makes them finish anew and fires it again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { until } from './harness.mjs';
import { page, startWidgetServer } from './widget-fixtures.mjs';

const PAGES = {
  '/fixtures/perm-done.html': page(
    '<attention-playground preset="permutation" steps="50" compact autoplay></attention-playground>',
  ),
};
let server;
before(async () => {
  server = await startWidgetServer(PAGES);
});
after(() => server?.close());

test('the permutation demo fires `trained` when its models are done, with its results; Train longer fires it again', async () => {
  const { page: p, errors } = await server.open('/fixtures/perm-done.html', {
    width: 1000,
    height: 900,
    setup: (pg) =>
      pg.addInitScript(() => {
        window.__trained = [];
        document.addEventListener('trained', (e) => window.__trained.push(e.detail));
      }),
  });
  await until(p, () => window.__trained.length >= 1, 'the permutation demo to fire trained', { timeout: 120000 });
  const first = await p.evaluate(() => window.__trained[0]);
  assert.equal(first.preset, 'permutation');
  assert.ok(
    Array.isArray(first.results) && first.results.length === 6,
    `six models (three seeds a side): ${JSON.stringify(first.results)}`,
  );
  assert.ok(first.step >= 50, `the models trained their budget (step ${first.step})`);
  assert.equal(await p.evaluate(() => window.__trained.length), 1, 'once, not at every redraw');
  // "Train longer" (the demo's Play once the budget ran out) trains on, then fires it again.
  const play = p.locator('attention-playground').locator('.apd-permutation button.apd-play');
  const label = await play.textContent();
  if (!/learned/i.test(label ?? '')) {
    await play.click();
    await until(p, () => window.__trained.length >= 2, 'trained again after Train longer', { timeout: 120000 });
  }
  assert.deepEqual(errors, []);
  await p.close();
});
