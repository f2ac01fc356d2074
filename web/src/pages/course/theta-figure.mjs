// Lesson 4's figure of θ′_m/θ_m against the pair index m for PI, NTK-aware scaling and YaRN:
// <figure data-theta="rope-scaling"></figure> becomes, at build time, grouped bars drawn as inline
// SVG from the engine's own numbers (web/course/figures/rope-scaling.json, written by
// build-scripts/course-figures.mjs and checked against the engine by a node test). Colours come
// from course.css classes (light and dark); the SVG holds no style and no script. Runs under Node.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { escapeHtml } from './exp-facts.mjs';
import { t } from './messages.mjs';

const FIGURES = resolve(import.meta.dirname, '../../../course/figures');
export const THETA_REF = /^rope-scaling$/;
const W = 520;
const H = 230;
const PAD = { left: 44, right: 10, top: 12, bottom: 44 };

/** @param {number} v */
const num = (v) => String(Math.round(v * 10) / 10);

/**
 * The figure's HTML in `lang`.
 * @param {string} ref the data file's name (rope-scaling)
 * @param {import('../../common/messages.js').Lang} lang
 */
export function thetaFigureHtml(ref, lang) {
  if (!THETA_REF.test(ref)) throw new Error(`write data-theta="rope-scaling", not "${ref}"`);
  /** @type {{factor: number, theta: number[], ratio: Record<string, number[]>}} */
  const d = JSON.parse(readFileSync(resolve(FIGURES, `${ref}.json`), 'utf8'));
  const methods = Object.keys(d.ratio);
  const pairs = d.theta.length;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const group = plotW / pairs;
  const bar = (group * 0.8) / methods.length;
  const y = (/** @type {number} */ v) => PAD.top + plotH * (1 - v);
  const parts = [];
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<line class="theta-grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${num(y(v))}" y2="${num(y(v))}"/>`);
    parts.push(`<text class="theta-tick" x="${PAD.left - 6}" y="${num(y(v) + 4)}" text-anchor="end">${v}</text>`);
  }
  for (let m = 0; m < pairs; m++) {
    const x0 = PAD.left + m * group + group * 0.1;
    methods.forEach((k, i) => {
      const v = d.ratio[k][m];
      const title = t(lang, 'theta.bar', { method: t(lang, `theta.${k}`), m, v: v.toFixed(3) });
      parts.push(
        `<rect class="theta-${escapeHtml(k)}" x="${num(x0 + i * bar)}" y="${num(y(v))}" width="${num(bar - 2)}" height="${num(plotH * v)}"><title>${escapeHtml(title)}</title></rect>`,
      );
    });
    const label = t(lang, 'theta.pair', { m, theta: d.theta[m] });
    parts.push(
      `<text class="theta-tick" x="${num(PAD.left + (m + 0.5) * group)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${escapeHtml(label)}</text>`,
    );
  }
  parts.push(
    `<text class="theta-tick" x="${num(PAD.left + plotW / 2)}" y="${H - 6}" text-anchor="middle">${escapeHtml(t(lang, 'theta.x'))}</text>`,
  );
  parts.push(
    `<text class="theta-tick" x="12" y="${num(PAD.top + plotH / 2)}" text-anchor="middle" transform="rotate(-90 12 ${num(PAD.top + plotH / 2)})">θ′/θ</text>`,
  );
  const aria = t(lang, 'theta.aria', { s: d.factor });
  const svg = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(aria)}">${parts.join('')}</svg>`;
  const legend = methods
    .map(
      (k) =>
        `<span class="theta-key"><span class="theta-swatch theta-${escapeHtml(k)}"></span>${escapeHtml(t(lang, `theta.${k}`))}</span>`,
    )
    .join(' ');
  const caption = `<figcaption>${legend}<br>${escapeHtml(t(lang, 'theta.caption', { s: d.factor, pairs }))}</figcaption>`;
  return `<figure class="theta-figure" data-ratios="${escapeHtml(JSON.stringify(d.ratio))}">${svg}${caption}</figure>`;
}
