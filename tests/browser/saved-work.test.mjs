// The user's weights are never thrown away by the page. Each run (a new model, a reset, an import)
// has its own slot in IndexedDB, keyed by the tab and the run: two tabs never overwrite each
// other, a reload offers its own tab's latest run first and lists the others (task, position,
// step), and the chosen one comes back at exactly its step. The slot is written on every stop
// (pause, solved, done, a refused step), so a reload after a pause offers the step one saw. Runs
// stay through any number of reloads until newer runs evict them (at most 5) or the user forgets
// them; a save of an earlier version (one slot) is still offered. A model file that fails to
// import leaves the page as it was. Screenshots in test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startHarness,
  shot,
  shotFourWays,
  ready,
  savedCheckpoint,
  savedRuns,
  waitForValue,
  until,
} from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const counter = async (page) => Number(await page.locator('#step-counter').textContent());
const playButtonBack = (page) =>
  page.waitForFunction(() => document.getElementById('play').textContent === 'Play', null, { timeout: 60000 });
const newestStep = (page, step, what) =>
  waitForValue(
    () => savedCheckpoint(page),
    (s) => s?.step === step,
    what,
  );

/** Train with Play until the run stops at `steps`, and wait until that step is saved. */
async function trainAndSave(page, steps) {
  await ready(page);
  await page.click('#play');
  await page.waitForFunction((n) => Number(document.getElementById('step-counter').textContent) >= n, steps, {
    timeout: 60000,
  });
  await playButtonBack(page);
  assert.equal(await counter(page), steps);
  await newestStep(page, steps, `the run at step ${steps} is saved`);
}

/** Reload, and return the restore offer's rows: [{text, checked}] (one row when one run is saved). */
async function reloadForOffer(page) {
  await page.reload();
  await ready(page);
  await page.locator('#restore-offer').waitFor({ timeout: 10000 });
  return page.evaluate(() => {
    const radios = [...document.querySelectorAll('#restore-offer input[name="saved-run"]')];
    if (!radios.length) return [{ text: document.querySelector('#restore-offer > div').textContent, checked: true }];
    return radios.map((r) => ({ text: r.parentElement.textContent.trim(), checked: r.checked }));
  });
}

/** Restore the run whose row contains `rowText` (the only one when omitted); waits for its step. */
async function restore(page, step, rowText) {
  if (rowText) await page.locator('#restore-offer label', { hasText: rowText }).click();
  await page.click('#restore-saved');
  await page.locator('#notice', { hasText: `at step ${step}.` }).waitFor({ timeout: 30000 });
  await ready(page);
  assert.equal(await counter(page), step, 'the restored model is at the step it was saved at');
}

test('the saved run survives reloads without an answer, and restores', { timeout: 180000 }, async () => {
  const ctx = await h.browser.newContext();
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${h.url}#task=copy&steps=20&seed=9`);
  await trainAndSave(page, 20);
  for (const visit of [1, 2, 3]) {
    const rows = await reloadForOffer(page);
    assert.equal(rows.length, 1, `visit ${visit}: one run`);
    assert.match(
      rows[0].text,
      /^Saved work: copy at step 20 \(position \w+, softmax\), saved .* in this tab\.$/,
      `visit ${visit}`,
    );
    assert.deepEqual(await savedCheckpoint(page), { step: 20, task: 'copy' }, `visit ${visit}: still saved`);
  }
  await restore(page, 20);
  assert.deepEqual(
    (await savedRuns(page)).map((r) => r.step),
    [20],
    'restoring keeps it, and adds no run',
  );
  assert.deepEqual(errors, []);
  await ctx.close();
});

test(
  'two tabs keep their own runs: each reload offers its own first, lists both, and restores the one chosen',
  { timeout: 240000 },
  async () => {
    const ctx = await h.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const a = await ctx.newPage();
    const b = await ctx.newPage();
    const errors = [];
    for (const p of [a, b]) p.on('pageerror', (e) => errors.push(e.message));
    await a.goto(`${h.url}#task=copy&position=learned&steps=30&seed=9`);
    await b.goto(`${h.url}#task=copy&position=rope&steps=12&seed=5`);
    await trainAndSave(a, 30);
    await trainAndSave(b, 12); // b's newer run does not replace a's
    const both = await waitForValue(
      () => savedRuns(a),
      (r) => r.length === 2,
      "both tabs' runs are saved",
    );
    assert.deepEqual(
      both.map((r) => [r.step, r.position]),
      [
        [12, 'rope'],
        [30, 'learned'],
      ],
    );
    assert.notEqual(both[0].tab, both[1].tab, 'each tab has its own id');

    // Each tab's reload offers its own latest run first (chosen), and the other's after it.
    const rowsA = await reloadForOffer(a);
    assert.equal(rowsA.length, 2);
    assert.match(rowsA[0].text, /^copy at step 30 \(position learned, softmax\), saved .* in this tab$/);
    assert.match(rowsA[1].text, /^copy at step 12 \(position rope, softmax\), saved .* in another tab$/);
    assert.deepEqual(
      rowsA.map((r) => r.checked),
      [true, false],
    );
    const rowsB = await reloadForOffer(b);
    assert.match(rowsB[0].text, /^copy at step 12 \(position rope, softmax\), saved .* in this tab$/);
    assert.match(rowsB[1].text, /^copy at step 30 \(position learned, softmax\), saved .* in another tab$/);
    assert.deepEqual(
      rowsB.map((r) => r.checked),
      [true, false],
    );
    await shotFourWays(b, 'saved-work-offer-two-runs');

    // Each restores the run chosen, at exactly its step and with its settings.
    await restore(a, 12, 'step 12');
    assert.equal(await a.inputValue('#ctl-position'), 'rope');
    await restore(b, 12);
    assert.equal(await b.inputValue('#ctl-position'), 'rope');
    // A third reload of a: its own run at 30 is still there (restoring another's took no slot of a's).
    const again = await reloadForOffer(a);
    assert.deepEqual(
      again.map((r) => r.text.match(/step \d+/)[0]),
      ['step 30', 'step 12'],
    );
    await restore(a, 30);
    assert.equal(await a.inputValue('#ctl-position'), 'learned');
    assert.deepEqual(errors, []);
    await ctx.close();
  },
);

test('every stop is saved at the step shown: pause, solved, a refused step', { timeout: 300000 }, async () => {
  const ctx = await h.browser.newContext();
  const page = await ctx.newPage();
  // Pause: the counter's step, not the last periodic save (every 5 s while training).
  await page.goto(`${h.url}#task=copy&steps=1000000&seed=2`);
  await ready(page);
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('step-counter').textContent) >= 40, null, {
    timeout: 60000,
  });
  await page.click('#play');
  await playButtonBack(page);
  const k = await counter(page);
  await newestStep(page, k, `the pause at step ${k} is saved`);
  let [row] = await reloadForOffer(page);
  assert.match(row.text, new RegExp(`copy at step ${k} `));
  await restore(page, k);

  // Solved (the default step budget stops there), then a refused step: each saved at its step.
  for (const [hash, why] of [
    ['#task=copy&seed=3', 'Solved'],
    ['#task=copy&normalization=exp&lr=0.3&clip=0&warmup=0&steps=200', 'Training stopped'],
  ]) {
    await page.goto(`${h.url}${hash}`);
    await reloadForOffer(page); // the hash's model, with the earlier runs offered
    await page.click('#play');
    await page.locator('#notice', { hasText: why }).waitFor({ timeout: 120000 });
    await playButtonBack(page);
    const at = await counter(page);
    assert.ok(at > 0, `${why}: trained`);
    await newestStep(page, at, `${why} at step ${at} is saved`);
    [row] = await reloadForOffer(page);
    assert.match(row.text, new RegExp(`^copy at step ${at} `), `${why}: offered at the step shown, first`);
  }
  await ctx.close();
});

test('a save of the earlier single-slot version is offered and restores', { timeout: 180000 }, async () => {
  const ctx = await h.browser.newContext();
  const page = await ctx.newPage();
  await page.goto(`${h.url}#task=copy&steps=8&seed=6`);
  await ready(page);
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('step-counter').textContent) >= 8, null, {
    timeout: 60000,
  });
  await playButtonBack(page);
  // The earlier version's one record: {bytes, step, task, savedAt} under 'snapshot', no runs.
  await page.evaluate(async () => {
    const bytes = await window.playground.model.exportModel();
    await new Promise((resolve, reject) => {
      const req = indexedDB.open('attention-playground', 1);
      req.onsuccess = () => {
        const tx = req.result.transaction('saved-work', 'readwrite');
        const s = tx.objectStore('saved-work');
        s.clear();
        s.put({ bytes, step: 8, task: 'copy', savedAt: Date.now() }, 'snapshot');
        tx.oncomplete = () => {
          req.result.close();
          resolve();
        };
        tx.onerror = () => reject(tx.error);
      };
    });
  });
  await page.goto(`${h.url}#task=reverse&seed=1`); // another setup: the old save is not this page's
  const rows = await reloadForOffer(page);
  assert.deepEqual(rows.length, 1);
  assert.match(rows[0].text, /^Saved work: copy at step 8, saved .* in an earlier visit\.$/);
  assert.deepEqual(
    (await savedRuns(page)).map((r) => [r.id, r.step]),
    [['legacy', 8]],
    'migrated to a run',
  );
  await restore(page, 8);
  assert.equal(await page.inputValue('#ctl-task'), 'copy');
  await ctx.close();
});

test('at most 5 runs are kept (the oldest go); forgetting them clears the offer', { timeout: 180000 }, async () => {
  const ctx = await h.browser.newContext();
  const page = await ctx.newPage();
  await page.goto(`${h.url}#task=copy&steps=50&seed=4`);
  await ready(page);
  // Six runs in this tab: a reset starts a new one; run n is trained n steps.
  for (let n = 1; n <= 6; n++) {
    if (n > 1) {
      await page.click('#reset');
      await page.waitForFunction(() => document.getElementById('step-counter').textContent === '0');
    }
    for (let i = 0; i < n; i++) await page.click('#step');
    await page.waitForFunction((s) => document.getElementById('step-counter').textContent === String(s), n, {
      timeout: 30000,
    });
    await newestStep(page, n, `run ${n} is saved at step ${n}`);
  }
  const runs = await waitForValue(
    () => savedRuns(page),
    (r) => r.length === 5,
    'the oldest run is evicted',
  );
  assert.deepEqual(
    runs.map((r) => r.step),
    [6, 5, 4, 3, 2],
  );
  const rows = await reloadForOffer(page);
  assert.deepEqual(
    rows.map((r) => r.text.match(/step (\d+)/)[1]),
    ['6', '5', '4', '3', '2'],
  );
  await page.click('#dismiss-saved');
  await waitForValue(
    () => savedRuns(page),
    (r) => r.length === 0,
    'the forgotten runs are gone',
  );
  await page.reload();
  await ready(page);
  assert.equal(await page.locator('#restore-offer').count(), 0, 'nothing left to offer');
  await ctx.close();
});

test('a model file that fails to import leaves the page as it was, usable', { timeout: 180000 }, async () => {
  const page = await h.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${h.url}#task=copy&steps=10&seed=3`);
  await ready(page);
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('step-counter').textContent) >= 10, null, {
    timeout: 60000,
  });
  await playButtonBack(page);
  const broken = {
    name: 'broken.safetensors',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('this is not a model file'),
  };
  // Paused: the same model, still ready, at the same step; Play trains it.
  await page.setInputFiles('#import-model', broken);
  await page.locator('#notice', { hasText: 'Could not import broken.safetensors' }).waitFor({ timeout: 10000 });
  await page.waitForFunction(() => document.body.dataset.run === 'ready', null, { timeout: 10000 });
  assert.equal(await counter(page), 10);
  assert.equal(await page.locator('#play').isDisabled(), false);
  await page.click('#play');
  await page.waitForFunction(() => Number(document.getElementById('step-counter').textContent) > 15, null, {
    timeout: 30000,
  });
  // Training: it trains on after the failed import.
  await page.setInputFiles('#import-model', { ...broken, name: 'broken-2.safetensors' });
  await page.locator('#notice', { hasText: 'Could not import broken-2.safetensors' }).waitFor({ timeout: 10000 });
  await page.waitForFunction(() => document.body.dataset.run === 'ready', null, { timeout: 10000 });
  const at = await counter(page);
  await page.waitForFunction((s) => Number(document.getElementById('step-counter').textContent) > s + 5, at, {
    timeout: 30000,
  });
  assert.equal(await page.locator('#play').textContent(), 'Pause');
  await shot(page, 'saved-work-failed-import');
  assert.deepEqual(errors, []);
  await page.close();
});

// Issue 44: the origin's storage full. The model file's write fails (a QuotaExceededError, thrown
// as the browser does when a value does not fit): the save aborts as a whole (no run description
// kept without its model), the page says the work could not be saved, and a later notice no longer
// promises that the settings and the last checkpoint are saved.
test('storage full: a save that fails keeps nothing, and the page says so', { timeout: 180000 }, async () => {
  const ctx = await h.browser.newContext();
  await ctx.addInitScript(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (value, key) {
      if (value instanceof Uint8Array)
        throw new DOMException('The quota has been exceeded (test).', 'QuotaExceededError');
      return put.call(this, value, key);
    };
  });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${h.url}#task=copy&steps=20&seed=9`);
  await ready(page);
  await page.click('#play');
  await playButtonBack(page);
  assert.equal(await counter(page), 20);
  await until(
    page,
    () => ({ ok: document.body.dataset.saved === 'failed', saved: document.body.dataset.saved }),
    'the page to know that the save failed (body[data-saved=failed])',
  );
  const notice = await page.locator('#notice').textContent();
  assert.match(notice, /could not be saved/, notice);
  assert.match(notice, /storage .* is full/, notice);
  assert.deepEqual(await savedRuns(page), [], 'no run description kept without its model');
  assert.equal(
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          const req = indexedDB.open('attention-playground', 1);
          req.onsuccess = () => {
            const all = req.result.transaction('saved-work').objectStore('saved-work').getAllKeys();
            all.onsuccess = () => resolve(all.result.filter((k) => String(k).startsWith('bytes:')).length);
          };
        }),
    ),
    0,
    'no model file either',
  );
  // The engine's final crash: the notice does not promise a saved checkpoint.
  await page.evaluate(() =>
    window.playground.client.dispatchEvent(
      new CustomEvent('crash', { detail: { error: new Error('a test crash'), final: true } }),
    ),
  );
  const crash = await page.locator('#notice').textContent();
  assert.match(crash, /a test crash/);
  assert.doesNotMatch(crash, /are saved|is saved/, crash);
  assert.match(crash, /could not be saved/, crash);
  await shot(page, 'saved-work-quota');
  assert.deepEqual(errors, []);
  await ctx.close();
});
