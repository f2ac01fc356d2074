// The three demo pages in Chromium, at small settings, asserting what their text claims:
// permutation: f(πX) = πf(X) to < 1e-5 without positions, > 1e-2 with an encoding or the causal
// mask, the pooled prediction unchanged, and on `order` (3 seeds) each rope model reaches 0.95 or
// the page says its budget ran out, none runs out at chance, "Train longer" raises the budget, the
// seed field; probe (3 seeds a cell): softmax with rope, alibi and t5_bias stays at 1/n with spread
// 0, every label follows the measured gaps, alibi + l2/sigmoid are mirror-limited, the summary; at
// 375 px dark the grid stacks, every cell in view; extrapolation: one curve per chosen encoding (mean of 3
// seeds), learned ends at L with a note, typeset titles, distinct colours, dash styles in the
// legend, RoPE scaling toggles add curves and the frequency table follows the formulas.
// Each page is also seen at 1280 and 375 px, light and dark. Screenshots go to test-results/demo-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, shot, shotFourWays, until } from './harness.mjs';
import { checkDocFigures, extrapolationSentence, permutationSentence, probeSentence } from './doc-figures.mjs';

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const data = (page, selector = '.apd') =>
  page.evaluate((sel) => ({ ...document.querySelector(sel)?.dataset }), selector);

async function demoReady(page) {
  await page.locator('#module-status[data-ready="true"]').waitFor({ timeout: 30000 });
  await page.locator('.apd[data-ready="true"]').waitFor({ timeout: 60000 });
}

test('header links: the playground, every demo page and the course link to each other', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}index.html`);
  const names = ['Playground', 'Permutation', 'Probe', 'Extrapolation', 'Experiments', 'Course'];
  for (const target of [
    'index.html',
    'permutation.html?autoplay=0',
    'probe.html?autoplay=0&positions=none&normalizations=softmax',
    'extrapolation.html?autoplay=0&position=none',
    'experiments.html',
  ]) {
    await page.goto(`${h.url}${target}`);
    const links = await page.locator('header nav a').allTextContents();
    assert.deepEqual(links, names, target);
    assert.equal(await page.locator('header nav a[aria-current="page"]').count(), 1, target);
    // What could still go wrong on this page (the engine's loading) is done before the next one.
    await until(
      page,
      () => document.getElementById('module-status')?.dataset.ready === 'true',
      `${target}: the training engine to load`,
      { timeout: 30000 },
    );
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('an option a demo page cannot use is named in its status line with what is allowed; the demo runs on its default', async () => {
  const { page, errors } = await openPage(
    h.browser,
    `${h.url}permutation.html?autoplay=0&steps=50&seeds=9&check_causal=yes&workers=2`,
  );
  await demoReady(page);
  const status = await page.locator('#module-status').textContent();
  assert.match(status, /seeds=9 not used: above the maximum 8/, status);
  assert.match(status, /check_causal=yes not used: not true or false/, status);
  assert.doesNotMatch(status, /workers=|steps=/, "the page's own parameters and good options are not named");
  assert.deepEqual(errors, []);
  await page.close();
});

test('permutation: equivariant without positions, broken by an encoding or the causal mask; order learns only with positions', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}permutation.html?autoplay=0&steps=1500`);
  await demoReady(page);
  const diff = async () => Number((await data(page, '.apd-diff')).diff);
  const settle = () => page.waitForFunction(() => !document.querySelector('.apd-diff-value').textContent.includes('…'));
  await settle();
  // `act` changes the input, then the check (a worker reply) of the new input is shown: the test
  // takes the mark of the last check away first and waits for a check to put it back.
  const checked = async (act) => {
    const mark = await page.evaluate(() => {
      const b = document.querySelector('.apd');
      const m = b.dataset.checked;
      delete b.dataset.checked;
      return m;
    });
    await act();
    await until(
      page,
      (m) => ({
        ok:
          document.querySelector('.apd').dataset.checked === m &&
          !document.querySelector('.apd-diff-value').textContent.includes('…'),
        checked: document.querySelector('.apd').dataset.checked,
      }),
      `the check of the changed input (${mark})`,
      { arg: mark },
    );
  };

  // The starting permutation swaps A and B: different true answers, the same prediction.
  assert.ok((await diff()) < 1e-5, `none: ${await diff()}`);
  assert.equal((await data(page, '.apd-pooled')).same, 'true');
  const preds = await page.locator('.apd-pred').allTextContents();
  assert.match(preds[0], /true answer AB/);
  assert.match(preds[1], /true answer BA/);
  assert.equal(
    preds[0]
      .match(/predicts (\w+) \(p = ([\d.]+)\)/)
      .slice(1)
      .join(),
    preds[1]
      .match(/predicts (\w+) \(p = ([\d.]+)\)/)
      .slice(1)
      .join(),
  );

  // Any encoding breaks it (at the starting permutation, so the numbers are reproducible).
  const measured = { none: await diff() };
  for (const pos of ['learned', 'rope', 'alibi', 't5_bias']) {
    await page.selectOption('.apd-position', pos);
    await page.waitForFunction(
      (p) =>
        document.querySelector('.apd').dataset.checked === `${p}|false` &&
        (p === 'learned' || document.querySelector('.apd').dataset.checkStep === '150'),
      pos,
      { timeout: 30000 },
    );
    measured[pos] = await diff();
    assert.ok(measured[pos] > 1e-2, `${pos}: ${measured[pos]}`);
  }
  // Symmetric ALiBi is blind to a full reversal (the text's exception).
  await page.selectOption('.apd-position', 'alibi');
  await page.waitForFunction(() => document.querySelector('.apd').dataset.checked === 'alibi|false');
  await page.click('.apd-identity');
  await page.click('.apd-reverse');
  await page.waitForFunction(() => document.querySelector('.apd-perm-note').textContent.includes('7 6 5 4 3 2 1 0'));
  // The check of the reversal (a worker reply) may come late: only it has f(πX)'s answer BA and a small difference.
  await until(
    page,
    () => {
      const pred = document.querySelectorAll('.apd-pred')[1]?.textContent ?? '';
      const diff = Number(document.querySelector('.apd-diff').dataset.diff);
      return { ok: pred.includes('true answer BA') && diff < 1e-5, pred, diff };
    },
    'the check of the reversal under alibi: f(πX) answers BA with a difference < 1e-5',
  );
  measured.alibiReversed = await diff();
  assert.ok(measured.alibiReversed < 1e-5, `alibi reversed: ${measured.alibiReversed}`);
  await shot(page, 'demo-permutation-alibi');
  // So does the causal mask alone.
  await page.selectOption('.apd-position', 'none');
  await page.check('.apd-causal');
  await page.waitForFunction(
    () =>
      document.querySelector('.apd').dataset.checked === 'none|true' &&
      document.querySelector('.apd').dataset.checkStep === '150',
    null,
    { timeout: 30000 },
  );
  measured.causal = await diff();
  assert.ok(measured.causal > 1e-2, `causal: ${measured.causal}`);
  await page.uncheck('.apd-causal');
  await page.waitForFunction(() => document.querySelector('.apd').dataset.checked === 'none|false');

  // Back to none: shuffle, drag and edit keep the identity.
  await checked(() => page.click('.apd-shuffle'));
  assert.ok((await diff()) < 1e-5);
  const before = await page.locator('.apd-perm-note').textContent();
  await checked(() => page.dragAndDrop('.apd-px .apd-chip >> nth=0', '.apd-px .apd-chip >> nth=5'));
  await page.waitForFunction((b) => document.querySelector('.apd-perm-note').textContent !== b, before);
  assert.ok((await diff()) < 1e-5, `after drag: ${await diff()}`);
  // Editing a token of X (click) keeps the identity.
  await checked(() => page.click('.apd-x .apd-chip >> nth=2'));
  assert.ok((await diff()) < 1e-5);
  measured.noneShuffled = await diff();
  await shot(page, 'demo-permutation-none');

  console.log('permutation differences', JSON.stringify(measured));

  // Training on 3 seeds: each model trains until held-out accuracy >= 0.95 or the budget runs out.
  await page.selectOption('.apd-encoding', 'rope');
  await page.waitForFunction(
    () =>
      document.querySelector('.apd-name-b').textContent === 'rope' &&
      document.querySelector('.apd').dataset.seeds === '1,2,3',
  );
  await page.click('.apd-play');
  await page.waitForFunction(
    () =>
      document.querySelector('.apd').dataset.canTrain === 'false' &&
      document.querySelector('.apd').dataset.playing === 'false',
    null,
    { timeout: 240000 },
  );
  // The outcomes are redrawn on a timer after the last state: wait for both sides' (asserted below).
  await until(
    page,
    () => {
      const d = document.querySelector('.apd').dataset;
      return {
        ok: Boolean(d.outcomeNone && d.outcomeEncoding),
        none: d.outcomeNone,
        encoding: d.outcomeEncoding,
      };
    },
    "both sides' outcomes",
  );
  const d = await data(page);
  const runs = await page.evaluate(() => window.demo.results());
  console.log('order on 3 seeds', JSON.stringify(runs));
  assert.equal(runs.length, 6);
  // docs/demos.md gives these figures for this setup: the measured ones (doc-figures.mjs).
  checkDocFigures('docs/demos.md', 'permutation-order', permutationSentence(runs, 1500));
  for (const r of runs.filter((x) => x.position === 'rope')) {
    if (r.status === 'learned') assert.ok(r.accuracy >= 0.95 && r.learnedAt <= 1500, JSON.stringify(r));
    else assert.equal(r.status, 'budget', JSON.stringify(r));
  }
  for (const r of runs.filter((x) => x.position === 'none')) assert.equal(r.status, 'budget');
  const outcomeB = await page.locator('.apd-outcome-encoding').textContent();
  const outcomeA = await page.locator('.apd-outcome-none').textContent();
  if (runs.filter((x) => x.position === 'rope').every((r) => r.status === 'learned'))
    assert.match(outcomeB, /rope: learned the task \(held-out accuracy ≥ 95%\) on 3 of 3 seeds/);
  else assert.match(outcomeB, /budget of 1500 steps ran out/);
  assert.match(outcomeA, /none: the budget of 1500 steps ran out on 3 of 3 seeds before held-out accuracy reached 95%/);
  assert.ok(Number(d.accNone) <= 0.7, `none: ${d.accNone}`);
  // Scores: mean with min–max when the seeds differ.
  const scoreA = await page.locator('.apd-score-none').textContent();
  assert.match(scoreA, /^\d+(\.\d)?%( \(\d+(\.\d)?–\d+(\.\d)?%\))?$/);
  // Play never silently does nothing: it offers "Train longer", says why, and raises the budget.
  assert.match(await page.locator('.apd-play').textContent(), /Train longer \(\+750 steps\)/);
  assert.match(await page.locator('.apd-play-note').textContent(), /learned the task or used its budget of 1500 steps/);
  await shot(page, 'demo-permutation');
  await shotFourWays(page, 'demo-permutation');
  await page.click('.apd-play');
  await page.waitForFunction(
    () =>
      document.querySelector('.apd').dataset.budget === '2250' &&
      document.querySelector('.apd').dataset.playing === 'true',
  );
  await page.click('.apd-play'); // pause
  await page.waitForFunction(() => document.querySelector('.apd').dataset.playing === 'false');
  // The seed can be changed; a bad one is refused in words beside the field.
  await page.fill('.apd-seed', '-3');
  await page.locator('.apd-seed').dispatchEvent('change');
  assert.match(await page.locator('.apd-seed-error').textContent(), /seed: a whole number ≥ 0/);
  await page.fill('.apd-seed', '4');
  await page.locator('.apd-seed').dispatchEvent('change');
  await page.waitForFunction(() => document.querySelector('.apd').dataset.seeds === '4,5,6');
  assert.match(await page.locator('.apd-counter').textContent(), /seeds 4, 5, 6/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('probe grid: 3 seeds per cell; Lemma 1 cells stay at 1/n with spread 0; labels follow the measured gaps; symmetric ALiBi is mirror-limited', async () => {
  const { page, errors } = await openPage(
    h.browser,
    `${h.url}probe.html?steps=400&position=none,learned,rope,alibi,t5_bias,shaw&normalization=softmax,l2,sigmoid`,
    { width: 1280, height: 1000 },
  );
  await demoReady(page);
  // The first telling result comes early: one seed of every cell trains first (in turns), so a cell
  // shows its verdict, 'so far: 1 of 3 seeds', while most models have not trained yet.
  const first = await until(
    page,
    () => {
      const td = document.querySelector('.apd-grid td[data-state="partial"], .apd-grid td[data-state="done"]');
      const models = window.demo.results().flatMap((r) => r.seeds);
      return {
        ok: Boolean(td),
        verdict: td?.querySelector('.apd-verdict')?.textContent,
        done: models.filter((m) => m.accuracy !== undefined).length,
        of: models.length,
      };
    },
    'a first cell with a verdict',
    { timeout: 240000 },
  );
  assert.match(first.verdict, /\(so far: 1 of 3 seeds\)$/);
  assert.ok(first.done <= first.of / 3, `the first verdict came with ${first.done} of ${first.of} models trained`);
  await page.locator('.apd[data-complete="true"]').waitFor({ timeout: 240000 });
  const results = await page.evaluate(() => window.demo.results());
  const cell = (p, n) => results.find((r) => r.position === p && r.normalization === n);
  console.log(
    'probe accuracy, mean (min–max) over seeds 1-3, steps 400',
    JSON.stringify(
      Object.fromEntries(
        results.map((r) => [`${r.position}/${r.normalization}`, [r.accuracy, r.accMin, r.accMax, r.outcome]]),
      ),
    ),
  );
  assert.equal(results.length, 18);
  checkDocFigures('docs/demos.md', 'probe-grid', probeSentence(results));
  for (const r of results) {
    assert.equal(r.seeds.length, 3, `${r.position} ${r.normalization}`);
    // Each seed's label is what its measured gaps say (the thresholds the "Why" text defines).
    for (const sd of r.seeds) {
      const expected =
        sd.spread <= 1e-5 * Math.max(1, sd.scale)
          ? 'collapsed'
          : sd.mirror <= 1e-4 * Math.max(1, sd.spread)
            ? 'mirror'
            : sd.accuracy >= 0.9
              ? 'learns'
              : 'partial';
      assert.equal(sd.outcome, expected, `${r.position} ${r.normalization} seed ${sd.seed}: ${JSON.stringify(sd)}`);
    }
    const kinds = new Set(r.seeds.map((sd) => sd.outcome));
    assert.equal(r.outcome, kinds.size === 1 ? [...kinds][0] : 'mixed');
  }
  for (const p of ['rope', 'alibi', 't5_bias', 'none']) {
    const c = cell(p, 'softmax');
    assert.equal(c.accuracy, 0.125, `${p} softmax`);
    assert.ok(c.spread < 1e-5, `${p} softmax spread ${c.spread}`);
    assert.equal(c.outcome, 'collapsed');
  }
  for (const [p, n] of [
    ['t5_bias', 'l2'],
    ['learned', 'softmax'],
    ['shaw', 'softmax'],
    ['rope', 'l2'],
  ]) {
    assert.ok(cell(p, n).accMin >= 0.9, `${p} ${n}: ${cell(p, n).accMin}`);
    assert.equal(cell(p, n).outcome, 'learns');
  }
  // alibi + l2 and alibi + sigmoid sit on the 50% mirror bound: mirror-limited, not "partly".
  for (const n of ['l2', 'sigmoid']) {
    const c = cell('alibi', n);
    assert.ok(c.accMax <= 0.5 && c.spread > 1e-3, JSON.stringify(c));
    assert.equal(c.outcome, 'mirror', `alibi ${n}`);
    assert.equal(
      await page.locator(`.apd-cell[data-pos="alibi"][data-norm="${n}"]`).getAttribute('data-outcome'),
      'mirror',
    );
  }
  // What a person sees: mean (min–max) when the seeds differ, the number of seeds, the summary.
  const rope = page.locator('.apd-cell[data-pos="rope"][data-norm="softmax"]');
  assert.match(await rope.textContent(), /^12\.5%spread \d\.\d×10⁻[⁶⁷] ≈ 0all positions equal$/);
  assert.equal(await rope.getAttribute('data-seeds'), '3');
  const alibi = cell('alibi', 'l2');
  if (alibi.accMin !== alibi.accMax)
    assert.match(
      await page.locator('.apd-cell[data-pos="alibi"][data-norm="l2"] .apd-acc').textContent(),
      /^\d+(\.\d)?% \(\d+(\.\d)?–\d+(\.\d)?%\)$/,
    );
  assert.match(
    await page.locator('.apd-cell[data-pos="none"][data-norm="l2"]').textContent(),
    /12\.5%spread 0all positions equal/,
  );
  for (const n of ['softmax', 'l2', 'sigmoid']) assert.equal(cell('none', n).spread, 0, `none ${n}`);
  const summary = await page.locator('.apd-summary').textContent();
  assert.match(summary, /Measured \(seeds 1, 2, 3, 400 steps/);
  assert.match(summary, /Mirror pairs identical .* on every seed \(\d+\): [^.]*alibi × l2/);
  assert.equal(
    await page.locator('.apd-summary li[data-outcome="collapsed"]').getAttribute('data-count'),
    String(results.filter((r) => r.outcome === 'collapsed').length),
  );
  await shot(page, 'demo-probe');
  await shotFourWays(page, 'demo-probe', 1000);
  // 375 px, dark: the grid (3 columns) stacks: no column cut off, every cell in view, no scroll cue.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 375, height: 900 });
  await page.waitForFunction(() => getComputedStyle(document.querySelector('.apd-grid')).display !== 'table');
  const widths = await page.evaluate(() => {
    const wrap = document.querySelector('.apd-grid-wrap');
    return {
      grid: wrap.scrollWidth,
      column: wrap.clientWidth,
      out: [...document.querySelectorAll('.apd-cell')]
        .filter((c) => c.getBoundingClientRect().left < 0 || c.getBoundingClientRect().right > innerWidth)
        .map((c) => `${c.dataset.pos} × ${c.dataset.norm}`),
      page: document.documentElement.scrollWidth,
      card: getComputedStyle(document.querySelector('.apd-card')).backgroundColor,
    };
  });
  assert.ok(widths.grid <= widths.column, `the grid ${widths.grid}px in ${widths.column}px`);
  assert.deepEqual(widths.out, [], 'every cell in view');
  assert.ok(widths.page <= 375, `page ${widths.page}px wide`);
  assert.notEqual(widths.card, 'rgb(255, 255, 255)', 'dark card');
  await page.waitForFunction(() => document.querySelector('.apd').dataset.gridOverflows === 'false');
  assert.equal(await page.locator('.apd-scroll-hint').isVisible(), false);
  await shot(page, 'demo-probe-375-dark');
  assert.deepEqual(errors, []);
  await page.close();
});

// The grid without anchors (the same cells collapse) is the test above; this one trains the anchored
// grid alone, from the link (a toggle's change rebuilds the grid: the causal box, below).
test('probe anchors: [CLS] … [SEP] makes softmax with rope, alibi and t5_bias learn; none still fails', async () => {
  const { page, errors } = await openPage(
    h.browser,
    `${h.url}probe.html?steps=400&position=none,rope,alibi,t5_bias&normalization=softmax&anchors=cls_sep`,
  );
  await demoReady(page);
  assert.equal(await page.inputValue('.apd-anchors'), 'cls_sep', "the anchors toggle shows the link's choice");
  assert.equal(await page.locator('.apd').getAttribute('data-anchors'), 'cls_sep');
  await page.waitForFunction(
    () =>
      document.querySelector('.apd').dataset.complete === 'true' &&
      [...document.querySelectorAll('.apd-cell')].every((c) => c.dataset.state === 'done'),
    null,
    { timeout: 60000 },
  );
  const results = await page.evaluate(() => window.demo.results());
  console.log('probe with [CLS]/[SEP]', JSON.stringify(results.map((r) => [r.position, r.accuracy, r.spread])));
  for (const p of ['rope', 'alibi', 't5_bias']) assert.ok(results.find((r) => r.position === p).accuracy >= 0.9, p);
  const none = results.find((r) => r.position === 'none');
  assert.equal(none.accuracy, 0.125);
  assert.ok(none.spread < 1e-6);
  await shot(page, 'demo-probe-anchors');
  assert.deepEqual(errors, []);
  await page.close();
});

test('probe, Catalogue 2 columns: row-sum labels; causal stick_breaking counts without positions; bidirectional it is refused with the reason', async () => {
  const { page, errors } = await openPage(
    h.browser,
    `${h.url}probe.html?steps=300&causal=1&positions=none&normalizations=softmax,sink,stick_breaking`,
    { width: 1280, height: 900 },
  );
  await demoReady(page);
  // Each column says what the registry declares about its row sums.
  assert.deepEqual(await page.locator('.apd-grid thead th .apd-rowsum').allTextContents(), [
    'Σ = 1',
    'Σ varies',
    'Σ varies',
  ]);
  // While a cell trains it shows its latest training accuracy (the sparkline's), named so.
  await page
    .locator('.apd-cell .apd-acc', { hasText: /^train \d+%$/ })
    .first()
    .waitFor({ timeout: 60000 });
  await page.locator('.apd[data-complete="true"]').waitFor({ timeout: 120000 });
  assert.match(await page.locator('.apd-progress').textContent(), /^3 of 3 cells done \(9 of 9 models/);
  let results = await page.evaluate(() => window.demo.results());
  const cell = (n) => results.find((r) => r.normalization === n);
  console.log(
    'probe causal none',
    JSON.stringify(results.map((r) => [r.normalization, r.accuracy, r.accMin, r.accMax])),
  );
  assert.equal(cell('softmax').accuracy, 0.125, 'softmax cannot count identical tokens causally (rows sum to 1)');
  assert.ok(cell('stick_breaking').accMin >= 0.9, `stick_breaking: ${cell('stick_breaking').accMin}`);
  await shot(page, 'demo-probe-catalogue2');
  // Bidirectional: stick_breaking's cell shows n/a and the engine's message naming the field.
  await page.uncheck('.apd-causal');
  await page.waitForFunction(
    () =>
      document.querySelector('.apd').dataset.causal === 'false' &&
      document.querySelector('.apd').dataset.complete === 'true' &&
      document.querySelector('.apd-cell[data-norm="stick_breaking"]')?.getAttribute('data-state') === 'invalid',
    null,
    { timeout: 120000 },
  );
  const sb = page.locator('.apd-cell[data-norm="stick_breaking"]');
  assert.equal(await sb.locator('.apd-acc').textContent(), 'n/a');
  assert.match(await sb.getAttribute('title'), /causal/);
  // ... and under the grid, in words (no tooltip on a phone); the count leaves it out.
  assert.match(
    await page.locator('.apd-invalid').textContent(),
    /^n\/a \(none × stick_breaking\): normalization=stick_breaking needs causal=true/,
  );
  assert.match(await page.locator('.apd-progress').textContent(), /^2 of 2 cells done/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('extrapolation: one curve per encoding, learned ends at L with a note, RoPE scaling curves and table', async () => {
  const { page, errors } = await openPage(
    h.browser,
    `${h.url}extrapolation.html?steps=300&position=learned,sinusoidal,rope,alibi,fire&rope_scaling=ntk`,
    { width: 1280, height: 1000 },
  );
  await demoReady(page);
  await page.locator('.apd[data-complete="true"]').waitFor({ timeout: 150000 });
  await page.waitForFunction(() => document.querySelector('.apd-rope').dataset.ratios);
  const block = (i) => data(page, `.apd-task-block[data-block="${i}"]`);
  for (const i of [0, 1]) {
    const b = await block(i);
    const curves = JSON.parse(b.curves);
    const ends = JSON.parse(b.ends);
    assert.deepEqual(curves, ['learned', 'sinusoidal', 'rope', 'rope+ntk', 'alibi', 'fire'], `block ${i}`);
    assert.equal(b.seeds, '3');
    assert.equal(ends.learned, 16);
    for (const k of ['sinusoidal', 'rope', 'rope+ntk', 'alibi', 'fire']) assert.equal(ends[k], 64, k);
    // Typeset titles with the engine's task names; the measured sentence.
    const title = page.locator(`.apd-task-block[data-block="${i}"] .apd-task-title`);
    assert.equal(await title.locator('code').textContent(), i === 0 ? 'copy_back' : 'copy_first');
    assert.ok((await title.locator('.katex').count()) === 1, 'title typeset');
    assert.doesNotMatch(await title.locator('.katex-html').textContent(), /[{}_]/);
    assert.match(
      await page.locator(`.apd-task-block[data-block="${i}"] .apd-measured`).textContent(),
      /Measured \(3 seeds, mean with lowest–highest\): accuracy at ℓ = 64: .*Not defined past ℓ = 16: learned\./,
    );
    const note = page.locator(`.apd-task-block[data-block="${i}"] .apd-note`);
    assert.ok(await note.isVisible());
    assert.match(
      await note.textContent(),
      /learned curve ends at ℓ = 16.*learned positions exist only for lengths up to 16/,
    );
  }
  // Toggling PI adds its curve without retraining.
  await page.check('.apd-scaling-pi');
  await page.waitForFunction(() =>
    JSON.parse(document.querySelector('.apd-task-block').dataset.curves).includes('rope+pi'),
  );
  const results = await page.evaluate(() => window.demo.results());
  console.log(
    'extrapolation (steps 300)',
    JSON.stringify(
      Object.fromEntries(
        Object.entries(results.copy_back).map(([k, v]) => [
          k,
          Object.fromEntries(Object.entries(v).map(([len, p]) => [len, p && Number(p.accuracy.toFixed(3))])),
        ]),
      ),
    ),
  );
  // docs/demos.md gives these figures for this setup: the measured ones (doc-figures.mjs).
  for (const task of ['copy_back', 'copy_first'])
    checkDocFigures('docs/demos.md', `extrapolation-${task}`, extrapolationSentence(results[task], 16, 64));
  // The table: PI divides every frequency by s; NTK keeps the fastest and divides the slowest by s.
  const ratios = JSON.parse((await data(page, '.apd-rope')).ratios);
  assert.ok(ratios.pi.every((r) => Math.abs(r - 0.5) < 1e-6));
  assert.ok(Math.abs(ratios.ntk[0] - 1) < 1e-6 && Math.abs(ratios.ntk.at(-1) - 0.5) < 1e-6);
  assert.ok(Math.abs(ratios.yarn[0] - 1) < 1e-6);
  assert.equal(await page.locator('.apd-rope-table tbody tr').count(), ratios.pi.length);
  // The charts draw; one distinct colour per encoding, the scalings' line styles in the legend.
  assert.ok((await page.locator('.apd-task-block[data-block="0"] .apd-chart-acc canvas').count()) > 0);
  const colors = await page
    .locator('.apd-encodings label')
    .evaluateAll((ls) => ls.map((l) => getComputedStyle(l).color));
  assert.equal(new Set(colors).size, colors.length, `colours ${colors}`);
  const legend = await page
    .locator('.apd-task-block[data-block="0"] .apd-chart-acc .u-legend .u-series')
    .evaluateAll((rows) =>
      rows.map((r) => ({
        text: r.textContent,
        border: r.querySelector('.u-marker')?.style.border ?? '',
      })),
    );
  const lg = (name) => legend.find((x) => x.text.startsWith(name));
  assert.match(lg('rope + pi (dotted)').border, /dotted/);
  assert.match(lg('rope + ntk (dashed)').border, /dashed/);
  assert.match(lg('alibi').border, /solid/);
  assert.notEqual(lg('alibi').border, lg('fire').border);
  // Values: mean (min–max) over the seeds.
  assert.match(
    await page.locator('.apd-task-block[data-block="0"] .apd-values td').nth(1).textContent(),
    /^\d+(\.\d)?%( \(\d+(\.\d)?–\d+(\.\d)?%\))?$/,
  );
  await shot(page, 'demo-extrapolation');
  await shotFourWays(page, 'demo-extrapolation');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 375, height: 900 });
  // Charts follow a ResizeObserver: nothing scrolls sideways once they have.
  await until(
    page,
    () => ({
      ok: document.documentElement.scrollWidth <= 375,
      wide: document.documentElement.scrollWidth,
    }),
    'the page at 375 px, no wider',
  );
  await shot(page, 'demo-extrapolation-375-dark');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the demo modules mount inside a Shadow DOM, styles included', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}permutation.html?autoplay=0&steps=50`);
  await demoReady(page);
  await page.evaluate(async () => {
    const host = document.createElement('div');
    document.body.append(host);
    const shadow = host.attachShadow({ mode: 'open' });
    const { mount } = await import('/src/demos/permutation/index.js');
    const { LightLineChart } = await import('/src/charts/light-line-chart.js');
    const d = mount(shadow, {
      pool: window.demoPool,
      LineChart: LightLineChart,
      compact: true,
      config: { steps: 50 },
    });
    await d.ready;
    window.__shadowDemo = { shadow, d };
  });
  // Its check (a worker reply) is shown: the difference it measured.
  await until(
    page,
    () => window.__shadowDemo.shadow.querySelector('.apd-diff')?.dataset.diff ?? null,
    "the shadow demo's check",
  );
  const r = await page.evaluate(async () => {
    const { shadow, d } = window.__shadowDemo;
    const card = shadow.querySelector('.apd-card');
    const diff = Number(shadow.querySelector('.apd-diff').dataset.diff);
    const out = {
      radius: getComputedStyle(card).borderRadius,
      diff,
      katex: Boolean(shadow.querySelector('.katex')),
      inDocument: document.querySelectorAll('.apd').length,
    };
    await d.dispose();
    out.after = shadow.childElementCount;
    return out;
  });
  assert.equal(r.radius, '8px');
  assert.ok(r.diff < 1e-5);
  assert.ok(r.katex);
  assert.equal(r.inDocument, 1); // the page's own demo; the shadow one is not visible to document queries
  assert.equal(r.after, 0);
  assert.deepEqual(errors, []);
  await page.close();
});
