// The Heads panel in the playground (panels/heads-panel.js over Session.headDiagnostics): after
// 300 steps of the copy task it shows one card per layer × head with its measures and sparklines,
// the five labels' thresholds, and a head of the first layer labelled positional at offset +6 with its
// evidence ("offset share 0.99 ≥ 0.50 at offset +6"); scrubbing the replay to an early step moves
// the panel there (the label goes, the values change) and back to live brings them back; the
// history has one point per replay step. Screenshots at 1280 and 375 px, light and dark:
// test-results/heads-*.png (docs/heads.png is the 1280 px light panel).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPlayground, openPage, shotFourWays, RESULTS } from './harness.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const HASH = '#task=copy&position=learned&seq_len=12&steps=300';

/** What the panel shows: its step, kept count, and each card's labels, evidence and values. */
const read = (page) =>
  page.evaluate(() => {
    const box = /** @type {HTMLElement} */ (document.querySelector('#heads'));
    return {
      step: Number(box.dataset.step),
      kept: Number(box.dataset.kept),
      status: box.querySelector('.heads-status')?.textContent ?? '',
      rules: [...box.querySelectorAll('.heads-rules li')].map((li) => li.textContent ?? ''),
      cards: [...box.querySelectorAll('.head-card')].map((c) => ({
        name: c.querySelector('h3')?.textContent ?? '',
        labels: [...c.querySelectorAll('.head-label')].map((l) => ({
          name: /** @type {HTMLElement} */ (l).dataset.label,
          evidence: l.querySelector('.head-evidence')?.textContent ?? '',
        })),
        values: Object.fromEntries(
          [...c.querySelectorAll('tr')].map((r) => [
            /** @type {HTMLElement} */ (r).dataset.measure,
            r.querySelector('.head-value')?.textContent ?? '',
          ]),
        ),
        sparks: c.querySelectorAll('canvas.head-spark').length,
      })),
    };
  });

/** Move the replay's scrubber to frame k (an input event) and wait for the Heads panel to follow. */
async function scrub(page, k, step) {
  await page.evaluate((k) => {
    const range = /** @type {HTMLInputElement} */ (document.querySelector('#replay input[type=range]'));
    range.value = String(k);
    range.dispatchEvent(new Event('input'));
  }, k);
  await page.waitForFunction((s) => document.querySelector('#heads')?.getAttribute('data-step') === String(s), step);
}

test('the Heads panel labels heads with evidence and follows the replay scrubber', async () => {
  const { page, errors } = await openPlayground(h, HASH);
  await page.evaluate(() => window.playground.train(300));
  await page.waitForFunction(() =>
    /live: step 300/.test(document.querySelector('#replay .replay-step')?.textContent ?? ''),
  );
  await page.waitForFunction(() => document.querySelector('#heads')?.getAttribute('data-step') === '300');
  const late = await read(page);
  const steps = await page.evaluate(() => window.playground.replay.frames.steps);
  assert.equal(late.kept, steps.length, 'one history point per replay step');
  assert.ok(late.kept >= 10, `${late.kept} steps`);
  assert.match(late.status, /^Step 300 \(latest\)/);
  assert.equal(late.rules.length, 5);
  for (const [i, re] of [
    /previous-token prev share ≥ 0\.50/,
    /first-token \/ sink first share \(or anchor share\) ≥ 0\.50/,
    /uniform entropy ≥ 0\.90/,
    /positional offset share ≥ 0\.50/,
    /induction induction ≥ 0\.40/,
  ].entries())
    assert.match(late.rules[i], re);
  assert.deepEqual(
    late.cards.map((c) => c.name),
    ['layer 1 · head 1', 'layer 1 · head 2', 'layer 2 · head 1', 'layer 2 · head 2'],
  );
  for (const c of late.cards) {
    assert.ok(c.sparks >= 6, `${c.name}: ${c.sparks} sparklines`);
    assert.match(c.values.entropy, /^[01]\.\d\d$/);
    for (const l of c.labels) assert.match(l.evidence, /^[a-z -]+ \d\.\d\d ≥ 0\.\d0/, `${c.name} ${l.name}`);
  }
  const positional = late.cards.findIndex(
    (c) => c.name.startsWith('layer 1 ') && c.labels.some((l) => l.name === 'positional'),
  );
  assert.ok(positional >= 0, JSON.stringify(late.cards.map((c) => c.labels)));
  const evidence = late.cards[positional].labels.find((l) => l.name === 'positional')?.evidence ?? '';
  assert.match(evidence, /^offset share (0\.[5-9]\d|1\.00) ≥ 0\.50 at offset \+6$/);

  // Scrub to an early frame: the panel measures that step; the label is not earned yet.
  await scrub(page, 1, steps[1]);
  const early = await read(page);
  assert.match(early.status, new RegExp(`^Step ${steps[1]} of 300 \\(replay\\)`));
  assert.equal(early.kept, late.kept);
  assert.ok(
    !early.cards[positional].labels.some((l) => l.name === 'positional'),
    JSON.stringify(early.cards[positional]),
  );
  assert.notDeepEqual(
    early.cards.map((c) => c.values),
    late.cards.map((c) => c.values),
    'the values change with the step',
  );
  // The right end of the scrubber: live again, the label back.
  await scrub(page, steps.length - 1, 300);
  assert.deepEqual((await read(page)).cards[positional].labels, late.cards[positional].labels);

  // Narrow: the cards fit in the panel (no horizontal cut-off).
  await page.setViewportSize({ width: 375, height: 900 });
  const over = await page.evaluate(() => {
    const panel = /** @type {HTMLElement} */ (document.querySelector('#heads-panel')).getBoundingClientRect();
    return [...document.querySelectorAll('#heads .head-card, #heads .head-card table')]
      .map((e) => e.getBoundingClientRect().right - panel.right)
      .filter((d) => d > 0.5);
  });
  assert.deepEqual(over, [], 'cards and tables end inside the panel at 375 px');
  await page.setViewportSize({ width: 1280, height: 900 });
  // The panel alone, from the whole page (no sticky toolbar or replay bar over it): docs/heads.png.
  const clip = await page.evaluate(() => {
    const a = /** @type {HTMLElement} */ (document.querySelector('#heads-panel')).getBoundingClientRect();
    return { x: a.x, y: a.y + scrollY, width: a.width, height: a.height };
  });
  await page.screenshot({ path: `${RESULTS}/heads-panel-1280-light.png`, fullPage: true, clip });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('#heads-panel').screenshot({ path: `${RESULTS}/heads-panel-1280-dark.png` });
  await page.setViewportSize({ width: 375, height: 900 });
  await page.locator('#heads-panel').screenshot({ path: `${RESULTS}/heads-panel-375-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await shotFourWays(page, 'heads');
  assert.deepEqual(errors, []);
  await page.close();
});

// `npm start` serves the widget from source: Vite injects a module's CSS into the page's <head>,
// where a shadow root cannot see it; widgets/styles.js mirrors those sheets into every widget.
test("under the dev server (npm start) a widget's heads view is styled: heads.css reaches its shadow root", async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}embed.html#task=copy&view=heads`);
  await page.waitForFunction(
    () => document.querySelector('attention-playground')?.shadowRoot?.querySelector('.head-card'),
    null,
    { timeout: 60000 },
  );
  const style = await page.evaluate(() => {
    const r = /** @type {ShadowRoot} */ (document.querySelector('attention-playground')?.shadowRoot);
    const card = /** @type {HTMLElement} */ (r.querySelector('.head-card'));
    return {
      grid: getComputedStyle(/** @type {HTMLElement} */ (r.querySelector('.heads-grid'))).display,
      border: getComputedStyle(card).borderTopStyle,
      name: card.querySelector('h3')?.textContent,
    };
  });
  assert.deepEqual(style, { grid: 'grid', border: 'solid', name: 'layer 1 · head 1' });
  assert.deepEqual(errors, []);
  await page.close();
});
