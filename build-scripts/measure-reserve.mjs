// Measures the room each widget preset takes once built, at the column widths of reserve.js, and
// writes web/src/widgets/reserve-heights.json (the placeholder holds that room: no layout shift).
// Run after a change to a widget's layout: `node build-scripts/measure-reserve.mjs` (builds dist/
// when stale; about 15 minutes on 2 cores). tests/browser/widget-reserve.test.mjs checks a few
// presets against the table.
//   node build-scripts/measure-reserve.mjs [--lang zh] [preset ...]   (only these; the others are kept)
//   node build-scripts/measure-reserve.mjs --tag '<attention-playground ...>' [--tag ...]
// --tag measures a widget written exactly so (a course's widget whose heads, layers or length the
// parts of reserve.js do not model) into "tags", keyed by web/src/widgets/reserve-key.js; a tag with
// lang="zh" is measured in Chinese. Only the given tags are measured then.
// With --lang zh the widgets are measured in Chinese (lang="zh": shorter captions and labels, so
// less room) and written as rows "<preset> zh", which reserve.js takes for a widget in Chinese.
// Every run also writes "options", the engine's variant options (registry: a task's, an encoding's
// or a normalization's own fields, shown only while it is chosen) as {key: [selector, variants...]},
// from which reserve.js knows a `controls` field that will not show, and "title_lengths", each
// encoding's title's length (the widget's subtitle); `--options` writes only those (no measuring;
// tests/node/reserve-options.test.mjs fails when they are stale).
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startWidgetServer } from '../tests/browser/widget-fixtures.mjs';
import { columnPage, measureWidget } from '../tests/browser/widget-height.mjs';
import { PRESETS, ENCODING_PRESETS } from '../web/src/widgets/presets.js';
import registry from '../web/src/state/registry.gen.js';
import { variantOptions, titleLengths } from '../tests/node/reserve-options.mjs';
import { reserveKey } from '../web/src/widgets/reserve-key.js';

const FILE = resolve(import.meta.dirname, '../web/src/widgets/reserve-heights.json');
const table = JSON.parse(readFileSync(FILE, 'utf8'));
const DEMOS = ['permutation', 'probe', 'extrapolation'];
const args = process.argv.slice(2);
const langAt = args.indexOf('--lang');
const lang = langAt >= 0 ? args.splice(langAt, 2)[1] : 'en';
if (!['en', 'zh'].includes(lang)) throw new Error(`--lang: en or zh, not ${lang}`);
const optionsOnly = args.includes('--options');
/** @type {string[]} the widgets given whole (--tag) */
const tags = [];
for (let i = args.indexOf('--tag'); i >= 0; i = args.indexOf('--tag')) tags.push(args.splice(i, 2)[1]);
const only = args.filter((a) => a !== '--options');
const langAttr = lang === 'en' ? '' : ` lang="${lang}"`;
const suffix = lang === 'en' ? '' : ` ${lang}`;
// every preset: the named ones and one per encoding of the registry (rope has no entry of its own in
// ENCODING_PRESETS, which only adjusts some, and was left out of a measurement by name)
const names = [
  ...new Set([
    ...Object.keys(PRESETS),
    ...Object.keys(ENCODING_PRESETS),
    ...registry.positions.map((/** @type {{name: string}} */ p) => p.name),
  ]),
].filter((n) => !only.length || only.includes(n));
if (only.some((n) => !names.includes(n)))
  throw new Error(`no such preset: ${only.filter((n) => !names.includes(n)).join(', ')}`);
/** A tag's attributes as [name, value] pairs (a build script's own argument, read as data). @param {string} tag */
function attributesOf(tag) {
  const open = /^<attention-playground\s([^>]*)>/.exec(tag.trim());
  if (!open) throw new Error(`--tag: not an <attention-playground ...> tag: ${tag}`);
  return [...open[1].matchAll(/([a-z][a-z0-9-]*)(?:="([^"]*)")?/g)].map((m) => [m[1], m[2] ?? '']);
}
/** A tag's row name: its reserve key. @param {string} tag */
function tagKey(tag) {
  const attrs = new Map(attributesOf(tag));
  return reserveKey((n) => attrs.get(n) ?? null, [...attrs.keys()], attrs.get('lang') || 'en');
}
/** Each preset as a blogger writes it; a config preset trains 20 steps, a demo runs as it does. */
const cases = tags.length
  ? tags.map((t) => [
      tagKey(t),
      t
        .replace(/\ssteps="[^"]*"/, '')
        .replace(/^<attention-playground\s/, '<attention-playground steps="20" autoplay '),
    ])
  : names.flatMap((n) =>
      DEMOS.includes(n)
        ? [
            [`${n}${suffix}`, `<attention-playground preset="${n}"${langAttr} autoplay></attention-playground>`],
            [
              `${n} compact${suffix}`,
              `<attention-playground preset="${n}"${langAttr} compact autoplay></attention-playground>`,
            ],
          ]
        : [
            [
              `${n}${suffix}`,
              `<attention-playground preset="${n}"${langAttr} steps="20" autoplay></attention-playground>`,
            ],
          ],
    );
/** One entry a line. @param {Record<string, unknown>} o */
const lines = (o) =>
  Object.entries(o)
    .map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(',\n');
/** The table, a row per preset, the rows of whole tags, then the options and title lengths. @param {{widths: number[], presets: Record<string, number[]>, tags: Record<string, number[]>, options: Record<string, string[]>, title_lengths: Record<string, number>}} t */
const format = (t) =>
  `{\n "widths": ${JSON.stringify(t.widths)},\n "presets": {\n${lines(t.presets)}\n },\n "tags": {\n${lines(t.tags)}\n },\n "options": {\n${lines(t.options)}\n },\n "title_lengths": {\n${lines(t.title_lengths)}\n }\n}\n`;
table.tags ??= {};
table.options = variantOptions(registry);
table.title_lengths = titleLengths(registry);
writeFileSync(FILE, format(table));
if (optionsOnly) process.exit(0);
const pages = {};
for (const [i, [, tag]] of cases.entries())
  for (const w of table.widths) pages[`/reserve/${i}-${w}.html`] = columnPage(tag, w);
const server = await startWidgetServer(pages);
try {
  for (const [i, [name]] of cases.entries()) {
    const row = [];
    for (const w of table.widths) {
      const m = await measureWidget(server, `/reserve/${i}-${w}.html`, w);
      if (m.errors.length) throw new Error(`${name} at ${w} px: ${m.errors.join('; ')}`);
      row.push(m.natural);
    }
    (tags.length ? table.tags : table.presets)[name] = row;
    console.log(name, row.join(' '));
    writeFileSync(FILE, format(table));
  }
} finally {
  await server.close();
}
