// The attributes that decide a widget's layout, as one key: the key of a row of measured heights
// for a widget written exactly so (reserve-heights.json "tags": a course's widget with its own
// heads, layers and view), read by reserve.js and written by build-scripts/measure-reserve.mjs
// --tag. No DOM, no JSON import (Node reads it too).

/** Attributes that change nothing of the layout: training budget, start, identity. */
const IGNORED = new Set(['steps', 'autoplay', 'seed', 'lr', 'id', 'class', 'style', 'lang', 'theme']);

/**
 * `name=value` pairs sorted by name (the ignored ones left out), then the language when not English.
 * @param {(name: string) => string|null} attr the element's getAttribute
 * @param {string[]} names the element's attribute names
 * @param {string} [lang]
 */
export function reserveKey(attr, names, lang = 'en') {
  const pairs = names
    .map((n) => n.toLowerCase())
    .filter((n) => !IGNORED.has(n))
    .sort()
    .map((n) => `${n}=${(attr(n) ?? '').trim()}`);
  return pairs.join(' ') + (lang === 'en' ? '' : ` ${lang}`);
}
