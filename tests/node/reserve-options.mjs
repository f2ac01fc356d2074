// What reserve.js reads of the engine's registry (web/src/widgets/reserve-heights.json): "options",
// each field a task, an encoding or a normalization adds, with the selector and the variants that
// have it ({vocab: ['task', 'copy', 'reverse', ...]}), and "title_lengths", the length of each
// encoding's title (the widget's subtitle names it). Written by build-scripts/measure-reserve.mjs,
// checked by reserve-options.test.mjs.

/** @param {{tasks: any[], positions: any[], normalizations: any[]}} registry the engine's, parsed */
export function variantOptions(registry) {
  /** @type {Record<string, string[]>} */
  const out = {};
  for (const [selector, list] of [
    ['task', registry.tasks],
    ['position', registry.positions],
    ['normalization', registry.normalizations],
  ])
    for (const v of list) for (const o of v.options ?? []) (out[o.key] ??= [selector]).push(v.name);
  return out;
}

/** The length of each encoding's title ({rope: 13}: 'Rotary (RoPE)'). @param {{positions: any[]}} registry */
export const titleLengths = (registry) =>
  Object.fromEntries(registry.positions.map((p) => [p.name, (p.title ?? p.name).length]));
