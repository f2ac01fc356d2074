// The room a widget holds before it loads (reserve.js) against the height it takes once built, in
// columns 375, 600, 798, 1000 and 1280 px wide (issue 33: the room was too large past 798 px): a
// preset as a blogger writes it (its measured table, reserve-heights.json) and a widget with its
// own view and controls (added up from measured parts), each within a few px at every width; a
// probe demo, whose cells change height as they train, within 15%; two presets in Chinese; the
// course's check widgets (at its 700 px column too) and one with many settings (their fields by
// group; the header's lines from its buttons and subtitle, reserve.js headerHeight). A preset that fails
// here after a layout change: `node build-scripts/measure-reserve.mjs NAME` measures it again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startWidgetServer } from './widget-fixtures.mjs';
import { columnPage, measureWidget } from './widget-height.mjs';

const WIDTHS = [375, 600, 798, 1000, 1280];
const COURSE = [375, 600, 700, 798, 1000, 1280]; // and the course's column (700 px from an 800 px window)
const NEAR = 4; // px: a preset's table is measured, so only rounding and font hinting differ
// A demo's height moves while its models train (a finished cell is shorter than one in training),
// and when it is measured depends on the machine's load (the same widget measured 767 and 832 px
// at 600 px, 846 and 927 px at 1280 px on two runs): within 15%.
const DEMO = 0.15;
const CASES = {
  // the presets a post uses most: the default, two encodings (ALiBi: 8 heads), a compact demo
  playground: ['<attention-playground steps="20" autoplay></attention-playground>', NEAR],
  rope: ['<attention-playground preset="rope" steps="20" autoplay></attention-playground>', NEAR],
  alibi: ['<attention-playground preset="alibi" steps="20" autoplay></attention-playground>', NEAR],
  'probe compact': ['<attention-playground preset="probe" compact autoplay></attention-playground>', DEMO],
  // the example post's probe: 5 rows and 2 columns of the 8 × 6 measured
  'probe 5 x 2': [
    '<attention-playground preset="probe" positions="none,learned,sinusoidal,rope,alibi" normalizations="softmax,relu2" compact autoplay></attention-playground>',
    DEMO,
  ],
  // in Chinese (lang="zh"): shorter captions and labels, their own measured rows ("sinusoidal zh":
  // with the English row the zh lessons showed an empty band of about 100 px under it)
  'sinusoidal zh': [
    '<attention-playground preset="sinusoidal" lang="zh" steps="20" autoplay></attention-playground>',
    NEAR,
  ],
  'permutation compact zh': [
    '<attention-playground preset="permutation" lang="zh" compact autoplay></attention-playground>',
    DEMO,
  ],
  // every preset has its zh row: the compact probe and an encoding's preset (t5_bias: its bucket maps)
  'probe compact zh': ['<attention-playground preset="probe" lang="zh" compact autoplay></attention-playground>', DEMO],
  't5_bias zh': ['<attention-playground preset="t5_bias" lang="zh" steps="20" autoplay></attention-playground>', NEAR],
  // the example post's config widget: its parts added up
  parts: [
    '<attention-playground preset="playground" task="copy_back" position="sinusoidal" steps="20" controls="play,reset,position" view="chart,attention" autoplay></attention-playground>',
    NEAR,
  ],
  // the course's checks, also in the course's column. Lesson 4's: RoPE scaling is RoPE's own menu,
  // not shown while the position is learned (it held 52 px too many at 375 px); lesson 2's:
  // position and placement are one group of settings, stacked in one column, not side by side (it
  // held 50 px too few from 798 px), and at 700 px its subtitle ("copy back · No position encoding
  // (NoPE) · softmax") takes two lines (70 px too few there, both together)
  'lesson 4 check': [
    '<attention-playground task="copy_back" position="learned" seq-len="8" eval-len="32" steps="20" view="chart" controls="play,reset,position,rope_scaling" autoplay></attention-playground>',
    NEAR,
    COURSE,
  ],
  // lesson 4's maps past the training length: attention at eval_len (inspect-len), one layer of 4
  // heads, in both languages: measured whole (reserve-heights.json "tags"; it held 436 px too few at
  // 375 px from the parts)
  'lesson 4 maps': [
    '<attention-playground task="copy_back" copy-back-k="2" position="rope" d-model="32" heads="4" layers="1" seq-len="16" eval-len="64" steps="20" rope-factor="4" view="attention" inspect-len="eval-len" controls="play,reset,rope_scaling" autoplay></attention-playground>',
    NEAR,
    COURSE,
  ],
  'lesson 4 maps zh': [
    '<attention-playground lang="zh" task="copy_back" copy-back-k="2" position="rope" d-model="32" heads="4" layers="1" seq-len="16" eval-len="64" steps="20" rope-factor="4" view="attention" inspect-len="eval-len" controls="play,reset,rope_scaling" autoplay></attention-playground>',
    NEAR,
    COURSE,
  ],
  'lesson 2 check': [
    '<attention-playground task="copy_back" position="none" steps="20" view="chart" controls="play,reset,position,placement" autoplay></attention-playground>',
    NEAR,
    COURSE,
  ],
  // five groups of settings, of three widths, wrapping into lines (held 216 px too many at 375 px,
  // 112 too few at 798 px): within 20 px (a number field is 52 px high, a menu 50, a checkbox 20)
  'many settings': [
    '<attention-playground steps="20" view="chart" controls="play,task,seq_len,position,placement,normalization,lr,layers,heads,d_model,seed,steps,anchors,batch,causal" autoplay></attention-playground>',
    20,
  ],
};

const pages = {};
for (const [name, [tag, , widths = WIDTHS]] of Object.entries(CASES))
  for (const w of widths) pages[`/reserve/${name.replaceAll(' ', '-')}-${w}.html`] = columnPage(tag, w);
let server;
before(async () => {
  server = await startWidgetServer(pages);
});
after(() => server?.close());

for (const [name, [, tolerance, widths = WIDTHS]] of Object.entries(CASES))
  test(`${name}: the room held before loading is the built widget's height at ${widths.join(', ')} px`, async () => {
    const rows = [];
    for (const w of widths) {
      const m = await measureWidget(server, `/reserve/${name.replaceAll(' ', '-')}-${w}.html`, w);
      assert.deepEqual(m.errors, [], `${name} at ${w} px`);
      rows.push({ w, ...m, off: m.reserved - m.natural });
    }
    console.log(`${name}: ${rows.map((r) => `${r.w} px held ${r.reserved}, built ${r.natural}`).join('; ')}`);
    for (const r of rows) {
      const allowed = tolerance < 1 ? Math.round(tolerance * r.natural) : tolerance;
      assert.ok(
        Math.abs(r.off) <= allowed,
        `${name} at ${r.w} px: held ${r.reserved} px, built ${r.natural} px (${r.off > 0 ? 'an empty band' : 'a jump'} of ${Math.abs(r.off)} px; allowed ${allowed})`,
      );
    }
  });
