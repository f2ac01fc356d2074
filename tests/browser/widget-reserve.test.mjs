// The room a widget holds before it loads (reserve.js) against the height it takes once built, in
// columns 375, 600, 798, 1000 and 1280 px wide (issue 33: the room was too large past 798 px): a
// preset as a blogger writes it (its measured table, reserve-heights.json) and a widget with its
// own view and controls (added up from measured parts), each within a few px at every width. A preset that fails here after a layout change: `node build-scripts/measure-reserve.mjs NAME`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startWidgetServer } from './widget-fixtures.mjs';
import { columnPage, measureWidget } from './widget-height.mjs';

const WIDTHS = [375, 600, 798, 1000, 1280];
const NEAR = 4; // px: a preset's table is measured, so only rounding and font hinting differ
const CASES = {
  // the presets a post uses most: the default, two encodings (ALiBi: 8 heads), a compact demo
  playground: ['<attention-playground steps="20" autoplay></attention-playground>', NEAR],
  rope: ['<attention-playground preset="rope" steps="20" autoplay></attention-playground>', NEAR],
  alibi: ['<attention-playground preset="alibi" steps="20" autoplay></attention-playground>', NEAR],
  'probe compact': ['<attention-playground preset="probe" compact autoplay></attention-playground>', NEAR],
  // the blog post's own widget: its parts added up
  parts: [
    '<attention-playground preset="playground" task="copy_back" position="sinusoidal" steps="20" controls="play,reset,position" view="chart,attention" autoplay></attention-playground>',
    NEAR,
  ],
};

const pages = {};
for (const [name, [tag]] of Object.entries(CASES))
  for (const w of WIDTHS) pages[`/reserve/${name.replace(' ', '-')}-${w}.html`] = columnPage(tag, w);
let server;
before(async () => {
  server = await startWidgetServer(pages);
});
after(() => server?.close());

for (const [name, [, tolerance]] of Object.entries(CASES))
  test(`${name}: the room held before loading is the built widget's height at ${WIDTHS.join(', ')} px`, async () => {
    const rows = [];
    for (const w of WIDTHS) {
      const m = await measureWidget(server, `/reserve/${name.replace(' ', '-')}-${w}.html`, w);
      assert.deepEqual(m.errors, [], `${name} at ${w} px`);
      rows.push({ w, ...m, off: m.reserved - m.natural });
    }
    console.log(`${name}: ${rows.map((r) => `${r.w} px held ${r.reserved}, built ${r.natural}`).join('; ')}`);
    for (const r of rows) {
      assert.ok(
        Math.abs(r.off) <= tolerance,
        `${name} at ${r.w} px: held ${r.reserved} px, built ${r.natural} px (${r.off > 0 ? 'an empty band' : 'a jump'} of ${Math.abs(r.off)} px; allowed ${tolerance})`,
      );
    }
  });
