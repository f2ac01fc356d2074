// The three demo pages in Chromium, at small settings, asserting what their text claims:
// permutation: f(πX) = πf(X) to < 1e-5 without positions, > 1e-2 with an encoding or the causal
// mask, the pooled prediction unchanged, and on `order` position=none stays at chance while an
// encoding learns; probe: softmax with rope, alibi and t5_bias stays at 1/n with spread 0, l2 with
// t5_bias, learned with softmax and (with anchors) t5_bias with softmax reach >= 0.9, symmetric
// ALiBi with l2 is mirror-limited; extrapolation: one curve per chosen encoding, learned ends at L
// with a note, RoPE scaling toggles add curves and the frequency table follows the formulas.
// Screenshots go to test-results/demo-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, openPage, shot } from './harness.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const data = (page, selector = '.apd') => page.evaluate((sel) => ({ ...document.querySelector(sel)?.dataset }), selector);

async function demoReady(page) {
  await page.locator('#module-status[data-ready="true"]').waitFor({ timeout: 30000 });
  await page.locator('.apd[data-ready="true"]').waitFor({ timeout: 60000 });
}

test('header links: the playground and every demo page link to each other', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}index.html`);
  const names = ['Playground', 'Permutation', 'Probe', 'Extrapolation'];
  for (const target of ['index.html', 'permutation.html?autoplay=0', 'probe.html?autoplay=0&positions=none&normalizations=softmax', 'extrapolation.html?autoplay=0&encodings=none']) {
    await page.goto(`${h.url}${target}`);
    const links = await page.locator('header nav a').allTextContents();
    assert.deepEqual(links, names, target);
    assert.equal(await page.locator('header nav a[aria-current="page"]').count(), 1, target);
  }
  await page.waitForTimeout(500);
  assert.deepEqual(errors, []);
  await page.close();
});

test('permutation: equivariant without positions, broken by an encoding or the causal mask; order learns only with positions', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}permutation.html?autoplay=0&steps=200`);
  await demoReady(page);
  const diff = async () => Number((await data(page, '.apd-diff')).diff);
  const settle = () => page.waitForFunction(() => !document.querySelector('.apd-diff-value').textContent.includes('…'));
  await settle();

  // The starting permutation swaps A and B: different true answers, the same prediction.
  assert.ok(await diff() < 1e-5, `none: ${await diff()}`);
  assert.equal((await data(page, '.apd-pooled')).same, 'true');
  const preds = await page.locator('.apd-pred').allTextContents();
  assert.match(preds[0], /true answer AB/);
  assert.match(preds[1], /true answer BA/);
  assert.equal(preds[0].match(/predicts (\w+) \(p = ([\d.]+)\)/).slice(1).join(), preds[1].match(/predicts (\w+) \(p = ([\d.]+)\)/).slice(1).join());

  // Any encoding breaks it (at the starting permutation, so the numbers are reproducible).
  const measured = { none: await diff() };
  for (const pos of ['learned', 'rope', 'alibi', 't5_bias']) {
    await page.selectOption('.apd-position', pos);
    await page.waitForFunction((p) => document.querySelector('.apd').dataset.checked === `${p}|false`
      && (p === 'learned' || document.querySelector('.apd').dataset.checkStep === '150'), pos, { timeout: 30000 });
    measured[pos] = await diff();
    assert.ok(measured[pos] > 1e-2, `${pos}: ${measured[pos]}`);
  }
  // Symmetric ALiBi is blind to a full reversal (the text's exception).
  await page.selectOption('.apd-position', 'alibi');
  await page.waitForFunction(() => document.querySelector('.apd').dataset.checked === 'alibi|false');
  await page.click('.apd-identity');
  await page.click('.apd-reverse');
  await page.waitForFunction(() => document.querySelector('.apd-perm-note').textContent.includes('7 6 5 4 3 2 1 0'));
  await page.waitForTimeout(500);
  measured.alibiReversed = await diff();
  assert.ok(measured.alibiReversed < 1e-5, `alibi reversed: ${measured.alibiReversed}`);
  await shot(page, 'demo-permutation-alibi');
  // So does the causal mask alone.
  await page.selectOption('.apd-position', 'none');
  await page.check('.apd-causal');
  await page.waitForFunction(() => document.querySelector('.apd').dataset.checked === 'none|true'
    && document.querySelector('.apd').dataset.checkStep === '150', null, { timeout: 30000 });
  measured.causal = await diff();
  assert.ok(measured.causal > 1e-2, `causal: ${measured.causal}`);
  await page.uncheck('.apd-causal');
  await page.waitForFunction(() => document.querySelector('.apd').dataset.checked === 'none|false');

  // Back to none: shuffle, drag and edit keep the identity.
  await page.click('.apd-shuffle');
  await page.waitForTimeout(300);
  await settle();
  assert.ok(await diff() < 1e-5);
  const before = await page.locator('.apd-perm-note').textContent();
  await page.dragAndDrop('.apd-px .apd-chip >> nth=0', '.apd-px .apd-chip >> nth=5');
  await page.waitForFunction((b) => document.querySelector('.apd-perm-note').textContent !== b, before);
  await page.waitForTimeout(300);
  assert.ok(await diff() < 1e-5, `after drag: ${await diff()}`);
  // Editing a token of X (click) keeps the identity.
  await page.click('.apd-x .apd-chip >> nth=2');
  await page.waitForTimeout(300);
  assert.ok(await diff() < 1e-5);
  measured.noneShuffled = await diff();
  await shot(page, 'demo-permutation-none');

  console.log('permutation differences', JSON.stringify(measured));

  // Training: same seed, position=none stays at chance, learned positions learn.
  await page.click('.apd-play');
  await page.waitForFunction(() => document.querySelector('.apd-counter').textContent.startsWith('step 200'), null, { timeout: 90000 });
  await page.waitForFunction(() => document.querySelector('.apd').dataset.playing === 'false');
  const d = await data(page);
  console.log('order accuracy', d.accNone, d.accEncoding);
  assert.ok(Number(d.accNone) <= 0.7, `none: ${d.accNone}`);
  assert.ok(Number(d.accEncoding) >= 0.9, `learned: ${d.accEncoding}`);
  assert.equal(await page.locator('.apd-chart-acc canvas').count() > 0, true);
  await page.waitForTimeout(500);
  await shot(page, 'demo-permutation');
  assert.deepEqual(errors, []);
  await page.close();
});

test('probe grid: Lemma 1 cells stay at 1/n with spread 0; l2 + t5_bias, learned + softmax learn; symmetric ALiBi is mirror-limited', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}probe.html?steps=400`, { width: 1280, height: 1000 });
  await demoReady(page);
  await page.locator('.apd[data-complete="true"]').waitFor({ timeout: 150000 });
  const results = await page.evaluate(() => window.demo.results());
  const cell = (p, n) => results.find((r) => r.position === p && r.normalization === n);
  const table = {};
  for (const r of results) (table[r.position] ??= {})[r.normalization] = r.accuracy;
  console.log('probe accuracy (steps 400, no anchors, bidirectional)', JSON.stringify(table));
  console.log('probe spreads', JSON.stringify(Object.fromEntries(results.map((r) => [`${r.position}/${r.normalization}`, r.spread]))));
  assert.equal(results.length, 40);
  for (const p of ['rope', 'alibi', 't5_bias', 'none']) {
    const c = cell(p, 'softmax');
    assert.equal(c.accuracy, 0.125, `${p} softmax`);
    assert.ok(c.spread < 1e-6, `${p} softmax spread ${c.spread}`);
    assert.equal(c.outcome, 'collapsed');
  }
  for (const [p, n] of [['t5_bias', 'l2'], ['learned', 'softmax'], ['sinusoidal', 'softmax'], ['shaw', 'softmax'], ['urpe', 'softmax'], ['rope', 'l2']]) {
    assert.ok(cell(p, n).accuracy >= 0.9, `${p} ${n}: ${cell(p, n).accuracy}`);
    assert.equal(cell(p, n).outcome, 'learns');
  }
  const mirror = cell('alibi', 'l2');
  assert.ok(mirror.accuracy <= 0.5 && mirror.mirror < 1e-5 && mirror.spread > 1e-3, JSON.stringify(mirror));
  assert.equal(mirror.outcome, 'mirror');
  // What a person sees: colours and numbers in the cells.
  const rope = page.locator('.apd-cell[data-pos="rope"][data-norm="softmax"]');
  assert.equal(await rope.getAttribute('data-outcome'), 'collapsed');
  assert.match(await rope.textContent(), /12\.5%.*spread \d\.\d×10⁻⁷ ≈ 0/);
  assert.match(await page.locator('.apd-cell[data-pos="none"][data-norm="l2"]').textContent(), /12\.5%spread 0all positions equal/);
  for (const n of ['softmax', 'l2', 'relu2', 'sigmoid', 'softmax1']) assert.equal(cell('none', n).spread, 0, `none ${n}`);
  assert.equal(await page.locator('.apd-cell[data-pos="t5_bias"][data-norm="l2"]').getAttribute('data-outcome'), 'learns');
  await shot(page, 'demo-probe');
  assert.deepEqual(errors, []);
  await page.close();
});

test('probe anchors: [CLS] … [SEP] makes softmax with rope, alibi and t5_bias learn; none still fails', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}probe.html?steps=400&positions=none,rope,alibi,t5_bias&normalizations=softmax`);
  await demoReady(page);
  await page.locator('.apd[data-complete="true"]').waitFor({ timeout: 60000 });
  await page.selectOption('.apd-anchors', 'cls_sep');
  await page.waitForFunction(() => document.querySelector('.apd').dataset.anchors === 'cls_sep');
  await page.waitForFunction(() => document.querySelector('.apd').dataset.complete === 'true'
    && [...document.querySelectorAll('.apd-cell')].every((c) => c.dataset.state === 'done'), null, { timeout: 60000 });
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

test('extrapolation: one curve per encoding, learned ends at L with a note, RoPE scaling curves and table', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}extrapolation.html?steps=300&encodings=learned,sinusoidal,rope,alibi&scaling=ntk`, { width: 1280, height: 1000 });
  await demoReady(page);
  await page.locator('.apd[data-complete="true"]').waitFor({ timeout: 150000 });
  await page.waitForFunction(() => document.querySelector('.apd-rope').dataset.ratios);
  const block = (i) => data(page, `.apd-task-block[data-block="${i}"]`);
  for (const i of [0, 1]) {
    const b = await block(i);
    const curves = JSON.parse(b.curves);
    const ends = JSON.parse(b.ends);
    assert.deepEqual(curves, ['learned', 'sinusoidal', 'rope', 'rope+ntk', 'alibi'], `block ${i}`);
    assert.equal(ends.learned, 16);
    for (const k of ['sinusoidal', 'rope', 'rope+ntk', 'alibi']) assert.equal(ends[k], 64, k);
    const note = page.locator(`.apd-task-block[data-block="${i}"] .apd-note`);
    assert.ok(await note.isVisible());
    assert.match(await note.textContent(), /learned curve ends at ℓ = 16.*learned positions exist only for lengths up to 16/);
  }
  // Toggling PI adds its curve without retraining.
  await page.check('.apd-scaling-pi');
  await page.waitForFunction(() => JSON.parse(document.querySelector('.apd-task-block').dataset.curves).includes('rope+pi'));
  const results = await page.evaluate(() => window.demo.results());
  console.log('extrapolation (steps 300)', JSON.stringify(Object.fromEntries(Object.entries(results.copy_back).map(([k, v]) =>
    [k, Object.fromEntries(Object.entries(v).map(([len, p]) => [len, p && Number(p.accuracy.toFixed(3))]))]))));
  // The table: PI divides every frequency by s; NTK keeps the fastest and divides the slowest by s.
  const ratios = JSON.parse((await data(page, '.apd-rope')).ratios);
  assert.ok(ratios.pi.every((r) => Math.abs(r - 0.5) < 1e-6));
  assert.ok(Math.abs(ratios.ntk[0] - 1) < 1e-6 && Math.abs(ratios.ntk.at(-1) - 0.5) < 1e-6);
  assert.ok(Math.abs(ratios.yarn[0] - 1) < 1e-6);
  assert.equal(await page.locator('.apd-rope-table tbody tr').count(), ratios.pi.length);
  // The charts draw.
  assert.ok(await page.locator('.apd-task-block[data-block="0"] .apd-chart-acc canvas').count() > 0);
  await page.waitForTimeout(500);
  await shot(page, 'demo-extrapolation');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the demo modules mount inside a Shadow DOM, styles included', async () => {
  const { page, errors } = await openPage(h.browser, `${h.url}permutation.html?autoplay=0&steps=50`);
  await demoReady(page);
  const r = await page.evaluate(async () => {
    const host = document.createElement('div');
    document.body.append(host);
    const shadow = host.attachShadow({ mode: 'open' });
    const { mount } = await import('/src/demos/permutation/index.js');
    const { LightLineChart } = await import('/src/charts/light-line-chart.js');
    const d = mount(shadow, { pool: window.demoPool, LineChart: LightLineChart, compact: true, config: { steps: 50 } });
    await d.ready;
    await new Promise((res) => setTimeout(res, 500));
    const card = shadow.querySelector('.apd-card');
    const diff = Number(shadow.querySelector('.apd-diff').dataset.diff);
    const out = { radius: getComputedStyle(card).borderRadius, diff, katex: Boolean(shadow.querySelector('.katex')), inDocument: document.querySelectorAll('.apd').length };
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
