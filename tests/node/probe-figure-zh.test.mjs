// The probe grid's downloaded figure (web/src/demos/probe/figure.js) in both languages: in 中文 its
// SVG's every text (title, axes, colour scale, note, grey cells' note) has no English word (the
// rule of tests/browser/english-words.mjs: names, config values and identifiers pass), and the
// figure is wide enough for its Chinese note (a CJK character is a whole em wide); in English its
// words are what they were. Its JSON's and CSV's names are identifiers, the same in both.
import test from 'node:test';
import assert from 'node:assert/strict';
import { probeFigure } from '../../web/src/demos/probe/figure.js';
import { figureSVG, figureCSV } from '../../web/src/charts/figure-svg.js';
import { layout, textWidth } from '../../web/src/charts/figure-layout.js';
import { loadMessages, translator } from '../../web/src/common/messages.js';
import { englishWords } from '../browser/english-words.mjs';
import { parseSvg } from './figure-files.mjs';
import { loadModule } from './load.mjs';
import REGISTRY from '../../web/src/state/registry.gen.js';

/** A 2 × 2 grid, three cells trained (one with a single seed), one not yet. */
const cells = [
  {
    pos: 'none',
    norm: 'softmax',
    state: 'done',
    acc: { mean: 0.2, min: 0.1, max: 0.3 },
    spread: 0,
    mirror: 0,
    outcome: 'collapsed',
    runs: [{ seed: 1 }, { seed: 2 }],
  },
  {
    pos: 'none',
    norm: 'l2',
    state: 'done',
    acc: { mean: 0.95, min: 0.9, max: 1 },
    spread: 0.4,
    mirror: 0.3,
    outcome: 'learns',
    runs: [{ seed: 1 }, { seed: 2 }],
  },
  {
    pos: 'rope',
    norm: 'softmax',
    state: 'done',
    acc: { mean: 1, min: 1, max: 1 },
    spread: 0.5,
    mirror: 0.5,
    outcome: 'learns',
    runs: [{ seed: 1 }, { seed: 2 }],
  },
  { pos: 'rope', norm: 'l2', state: 'training', runs: [{ seed: 1 }, { seed: 2 }] },
];
const run = {
  positions: ['none', 'rope'],
  norms: ['softmax', 'l2'],
  n: 8,
  steps: 300,
  seeds: [1, 2],
  anchors: 'none',
  causal: true,
};

test('the probe figure in 中文: no English word in its SVG, and room for its note', async () => {
  await loadMessages('zh', ['probe']);
  await loadMessages('en', ['probe']);
  const registry = REGISTRY;
  const known = { fields: new Set(registry.config.map((c) => c.key)), values: new Set() };
  for (const c of registry.config) for (const v of c.choices ?? []) known.values.add(String(v));
  for (const list of ['positions', 'normalizations', 'tasks']) for (const x of registry[list]) known.values.add(x.name);
  const f = probeFigure(/** @type {any} */ (cells), run, translator('zh'));
  const svg = parseSvg(figureSVG(f));
  const english = svg.texts.map((t) => [t, englishWords(t, known)]).filter(([, w]) => w.length);
  assert.deepEqual(english, [], 'English words in the 中文 figure');
  assert.ok(svg.texts.includes('探针：留出集准确率'), svg.texts.join(' | '));
  assert.ok(svg.texts.includes('灰色：尚未训练'), svg.texts.join(' | '));
  assert.ok(
    svg.texts.some((t) => t.startsWith('n = 8，300 步，每格 2 个种子，锚点 none，因果掩码；')),
    svg.texts.join(' | '),
  );
  const L = layout(f);
  assert.ok(L.width >= 14 + textWidth(f.note ?? '', 10), `the figure (${L.width} px) holds its note`);
  assert.ok(textWidth('探针', 10) > textWidth('ab', 10), 'a CJK character is wider than a Latin one');
  // the CSV's names are the same identifiers in both languages
  const en = probeFigure(/** @type {any} */ (cells), run, translator('en'));
  assert.equal(figureCSV(f), figureCSV(en));
  assert.deepEqual(f.extra, en.extra);
});

test('the probe figure in English: its words as before', async () => {
  await loadMessages('en', ['probe']);
  const f = probeFigure(/** @type {any} */ (cells), { ...run, seeds: [7] }, translator('en'));
  assert.equal(f.title, 'Probe: held-out accuracy');
  assert.equal(f.xLabel, 'attention normalization');
  assert.equal(f.yLabel, 'position encoding');
  assert.equal(f.quantity, 'accuracy');
  assert.equal(
    f.note,
    'n = 8, 300 steps, 1 seed a cell, anchors none, causal mask; the mean over the seeds; chance 1/n = 12.5%',
  );
  assert.equal(f.maskNote, 'grey: not trained yet');
  assert.equal(textWidth('accuracy:', 11), 9 * 11 * 0.6);
});
