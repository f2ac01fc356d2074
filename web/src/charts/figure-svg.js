// A figure's files without a page: the SVG (its layout from figure-layout.js written as standalone
// SVG text, every string from the data escaped: labels are text nodes and attribute values, never
// markup), the JSON of the numbers behind it (the same fields as `attnplay inspect --format json`)
// and CSV. No DOM (tests/node/figure.test.mjs runs it under Node).
import { layout, INK } from './figure-layout.js';
import { csvField, csvText } from '../common/csv.js';

/** @typedef {import('./figure-layout.js').Figure} Figure */
/** @typedef {import('./figure-layout.js').Item} Item */

const FONT_FAMILY = 'system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif';

/** Text for XML character data and attribute values (also strips characters XML 1.0 forbids). @param {unknown} s */
export function xmlEscape(s) {
  return String(s)
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/** A coordinate with at most 2 decimals. @param {number} v */
const n = (v) => String(Math.round(v * 100) / 100);

/** @param {Item} it @param {number} k the item's index (gradient ids) */
function svgItem(it, k) {
  const cls = it.cls ? ` class="${xmlEscape(it.cls)}"` : '';
  // Cells edge to edge: crisp edges, so that a viewer's anti-aliasing draws no seams between them.
  const crisp = it.cls === 'cell' ? ' shape-rendering="crispEdges"' : '';
  if (it.k === 'rect')
    return `<rect${cls} x="${n(it.x)}" y="${n(it.y)}" width="${n(it.w)}" height="${n(it.h)}" fill="${xmlEscape(it.fill)}"${crisp}/>`;
  if (it.k === 'text') {
    const rot = it.rotate ? ` transform="rotate(${it.rotate} ${n(it.x)} ${n(it.y)})"` : '';
    const anchor = it.anchor && it.anchor !== 'start' ? ` text-anchor="${it.anchor}"` : '';
    const weight = it.weight ? ` font-weight="${it.weight}"` : '';
    const fill = it.fill ? ` fill="${xmlEscape(it.fill)}"` : '';
    return `<text${cls} x="${n(it.x)}" y="${n(it.y)}" font-size="${it.size}"${anchor}${weight}${fill}${rot}>${xmlEscape(it.text)}</text>`;
  }
  if (it.k === 'path') {
    const d = it.segs.map((s) => s.map(([x, y], i) => `${i ? 'L' : 'M'}${n(x)} ${n(y)}`).join('')).join('');
    const dash = it.dash?.length ? ` stroke-dasharray="${it.dash.join(' ')}"` : '';
    return `<path${cls} d="${d}" fill="none" stroke="${xmlEscape(it.stroke)}" stroke-width="${it.width}"${dash}/>`;
  }
  const id = `grad${k}`;
  const stops = it.stops
    .map((c, i) => `<stop offset="${n(i / (it.stops.length - 1))}" stop-color="${xmlEscape(c)}"/>`)
    .join('');
  return (
    `<defs><linearGradient id="${id}" x1="0" x2="1" y1="0" y2="0">${stops}</linearGradient></defs>` +
    `<rect${cls} x="${n(it.x)}" y="${n(it.y)}" width="${n(it.w)}" height="${n(it.h)}" fill="url(#${id})"/>`
  );
}

/**
 * The figure as a standalone SVG document.
 * @param {Figure} f
 * @returns {string}
 */
export function figureSVG(f) {
  const L = layout(f);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${L.width}" height="${L.height}" viewBox="0 0 ${L.width} ${L.height}" ` +
    `font-family="${FONT_FAMILY}" fill="${INK}">\n<title>${xmlEscape(L.title)}</title>\n` +
    `<rect x="0" y="0" width="${L.width}" height="${L.height}" fill="#ffffff"/>\n` +
    `${L.items.map(svgItem).join('\n')}\n</svg>\n`
  );
}

/** A finite number, else null (JSON has no −∞). @param {number|null|undefined} v */
const num = (v) => (v === null || v === undefined || !Number.isFinite(v) ? null : v);

/**
 * The numbers behind the figure, as JSON (format "attnplay-figure", version 1).
 * @param {Figure} f
 * @returns {Record<string, unknown>}
 */
export function figureData(f) {
  const head = {
    format: 'attnplay-figure',
    version: 1,
    kind: f.kind,
    title: f.title,
    x_label: f.xLabel ?? '',
    y_label: f.yLabel ?? '',
  };
  if (f.kind === 'heatmap')
    return {
      ...head,
      quantity: f.quantity,
      rows: f.matrix.length,
      cols: f.matrix[0]?.length ?? 0,
      row_labels: f.rowLabels ?? null,
      col_labels: f.colLabels ?? null,
      range: [f.lo, f.hi],
      diverging: f.diverging,
      note: f.note ?? '',
      values: f.matrix.map((r) => r.map(num)),
      ...(f.side ? { side: { label: f.side.label, values: f.side.values.map(num) } } : {}),
      ...(f.extra ?? {}),
    };
  return {
    ...head,
    x: f.xs,
    series: f.series.map((s) => ({ label: s.label, values: s.values.map(num) })),
    markers: f.markers ?? [],
  };
}

/** @param {Figure} f */
export const figureJSON = (f) => `${JSON.stringify(figureData(f), null, 1)}\n`;

/**
 * One CSV field. Numbers as they are (−∞ as -inf, missing empty); text quoted, and text that a
 * spreadsheet would read as a formula (= + - @ first) gets a leading apostrophe (common/csv-safe.js).
 * @param {unknown} v
 */
export function csvCell(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : v === -Infinity ? '-inf' : v > 0 ? 'inf' : '';
  return csvField(String(v));
}

/**
 * The figure's numbers as CSV: a heatmap as its matrix (row labels first, column labels in the
 * header, the Σ column last), a line plot one column per series; `table` when the figure gives one.
 * @param {Figure} f
 * @returns {string}
 */
export function figureCSV(f) {
  /** @type {unknown[][]} */
  let rows;
  if (f.kind === 'heatmap' && f.table) rows = [f.table.header, ...f.table.rows];
  else if (f.kind === 'heatmap') {
    const cols = f.matrix[0]?.length ?? 0;
    const header = [
      `${f.yLabel || 'row'} \\ ${f.xLabel || 'column'}`,
      ...(f.colLabels ?? Array.from({ length: cols }, (_, j) => String(j))),
      ...(f.side ? [f.side.label] : []),
    ];
    rows = [
      header,
      ...f.matrix.map((r, i) => [f.rowLabels?.[i] ?? String(i), ...r, ...(f.side ? [f.side.values[i]] : [])]),
    ];
  } else
    rows = [
      [f.xLabel || 'x', ...f.series.map((s) => s.label)],
      ...f.xs.map((x, i) => [x, ...f.series.map((s) => s.values[i])]),
    ];
  return csvText(rows, csvCell);
}
