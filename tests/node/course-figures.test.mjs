// The course's engine figures are the engine's numbers: lesson 4's θ′/θ bars
// (web/course/figures/rope-scaling.json, drawn by pages/course/theta-figure.mjs) are recomputed
// with the simd module and must equal the committed file; the lesson's sentence that lists NTK's
// ratios must read them; the built figure has one bar per pair and method, with its value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadModule, ROOT } from './load.mjs';
import { ropeScaling, FILE } from '../../build-scripts/course-figures.mjs';
import { thetaFigureHtml } from '../../web/src/pages/course/theta-figure.mjs';

const committed = JSON.parse(readFileSync(FILE, 'utf8'));

test('rope-scaling.json is what the engine computes (else: node build-scripts/course-figures.mjs)', async () => {
  assert.deepEqual(ropeScaling(await loadModule('simd')), committed);
});

test("lesson 4's sentences on the ratios read the figure's numbers", () => {
  const ntk = committed.ratio.ntk.map((/** @type {number} */ v) => (v === 1 ? '1' : v.toFixed(2)));
  for (const lang of ['en', 'zh']) {
    const text = readFileSync(resolve(ROOT, `web/course/lessons/longer.${lang}.md`), 'utf8');
    assert.ok(
      text.includes(ntk.join(lang === 'en' ? ', ' : '、')),
      `${lang}: NTK's ratios ${ntk.join(', ')} in the text`,
    );
    assert.ok(text.includes('<figure data-theta="rope-scaling"></figure>'), `${lang}: the figure is in the lesson`);
  }
  assert.deepEqual(committed.ratio.pi, [0.25, 0.25, 0.25, 0.25], 'interpolation: every pair at one quarter (the text)');
  assert.deepEqual(
    committed.ratio.yarn,
    [1, 0.25, 0.25, 0.25],
    'YaRN: the fastest pair at one, the others at a quarter (the text)',
  );
});

test('the figure: one bar per pair and method, each titled with its value, in both languages', () => {
  for (const lang of /** @type {const} */ (['en', 'zh'])) {
    const html = thetaFigureHtml('rope-scaling', lang);
    const bars = [...html.matchAll(/<rect class="theta-(\w+)"[^>]*height="([\d.]+)"><title>([^<]*)<\/title>/g)];
    assert.equal(bars.length, 12, `${lang}: 4 pairs × 3 methods`);
    for (const [, method, , title] of bars) assert.match(title, /θ′\/θ = \d\.\d{3}$/, `${lang} ${method}: ${title}`);
    assert.doesNotMatch(html, /style=|<script|on\w+=/, 'no style, script or handler in the SVG');
  }
  assert.throws(() => thetaFigureHtml('../x', 'en'), /write data-theta="rope-scaling"/);
});
