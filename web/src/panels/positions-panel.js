// The position encoding of the model being trained, rendered generically from positions():
// any 2-D numeric array becomes a labelled heatmap, a list of 2-D arrays one heatmap per head,
// a 1-D array a small bar chart, nested objects a subsection, scalars a key/value list. New
// encodings' keys (bias, buckets, angles, slopes, ...) show without code here; CAPTIONS only adds
// a sentence for the keys we know.
import { Heatmap, fmt } from '../charts/heatmap.js';
import { drawBarList } from '../charts/bar-list.js';
import { el } from './dom.js';
import { figureMenu } from './figure-menu.js';
import { t, hasMessage } from '../common/messages.js';
import { mapWords } from './map-words.js';
import { described } from '../state/registry.js';

// The captions of the keys we know are the message table's `pos.caption.<key>` (its positions part,
// common/messages/positions.<lang>.js, loaded before the panel: loadMessages(lang, ['positions'])).

/** Axis titles [x, y] of the keys we know (others: column, row), as the message table's `pos.axis.<word>`. */
/** @type {Record<string, [string, string]>} */
const AXES = {
  matrix: ['dimension', 'position'],
  similarity: ['positionQ', 'positionP'],
  bias: ['key', 'query'],
  buckets: ['key', 'query'],
  angles: ['frequency', 'position'],
};

/** 1-D keys with one value per head (numbered from 1, as the heads' maps are). */
const PER_HEAD = ['slopes'];

/** @type {(v: unknown) => v is number[][]} */
const is2D = (v) => Array.isArray(v) && v.length > 0 && Array.isArray(v[0]) && typeof v[0][0] === 'number';
/** @type {(v: unknown) => v is number[][][]} */
const is3D = (v) => Array.isArray(v) && v.length > 0 && is2D(v[0]);
/** @type {(v: unknown) => v is number[]} */
const is1D = (v) => Array.isArray(v) && v.length > 0 && typeof v[0] === 'number';

export class PositionsPanel {
  /**
   * @param {HTMLElement} body
   * @param {import('../common/messages.js').Lang} [lang] the language of its captions and axes
   */
  constructor(body, lang = 'en') {
    this.body = body;
    this.lang = lang;
    /** the maps' colour scale and download control, in its language */
    this.words = mapWords(lang);
    /** @type {Map<string, Heatmap>} */
    this.maps = new Map(); // path -> Heatmap
    this.layout = '';
    /** @type {string} the encoding's name, in figure titles */
    this.encoding = '';
    /** @type {Map<string, number[]>} path -> the values of a bar list (for its download) */
    this.bars = new Map();
    /** the model's causal mask: a (query, key) map greys the keys a query cannot see */
    this.causal = false;
  }

  /** A new model: forget the last one's maps; its mask decides what a (query, key) map shows. @param {{config: Record<string, unknown>}} info */
  setModel(info) {
    this.causal = info.config.causal === true;
    this.clear();
  }

  /** Draw a PositionDisplay. @param {import('../wasm-api').PositionDisplay} pos */
  update(pos) {
    const describe = described(pos.describe); // the prose is the registry's (state/registry.js)
    this.encoding = describe?.title || String(pos.kind ?? 'position encoding');
    const layout = JSON.stringify(shapeOf(pos));
    if (layout !== this.layout) {
      this.layout = layout;
      this.maps.clear();
      this.body.replaceChildren();
      this.#section(this.body, pos, '');
      if (!this.body.children.length)
        this.body.append(
          el(
            'p',
            { class: 'muted' },
            t(this.lang, 'pos.nothing', {
              title: describe?.title || 'This encoding',
              where: describe?.where || 'no position data',
            }),
          ),
        );
    }
    this.#fill(pos, '');
  }

  /**
   * @param {HTMLElement} parent
   * @param {object} obj
   * @param {string} prefix
   */
  #section(parent, obj, prefix) {
    const scalars = el('dl', { class: 'kv' });
    for (const [k, v] of Object.entries(obj)) {
      if (k === 'describe' || k === 'kind') continue;
      const path = prefix + k;
      if (is3D(v)) {
        const fig = el(
          'figure',
          { class: 'pos-figure wide' },
          el('figcaption', {}, this.#title(k, t(this.lang, 'pos.heads', { n: v.length }))),
        );
        const row = el('div', { class: 'pos-heads' });
        fig.append(this.#picker(row, v.length), row);
        v.forEach((_, h) => {
          const cell = el(
            'div',
            { class: h === 0 ? 'pos-head on' : 'pos-head', dataset: { head: String(h) } },
            el('span', { class: 'muted' }, t(this.lang, 'pos.head', { n: h + 1 })),
          );
          row.append(cell);
          this.maps.set(`${path}.${h}`, this.#map(cell, `${k}, head ${h + 1}`, k, cell));
        });
        parent.append(fig);
      } else if (is2D(v)) {
        const cap = el('figcaption', {}, this.#title(k, `${v.length}×${v[0].length}`));
        const fig = el('figure', { class: 'pos-figure' }, cap);
        parent.append(fig);
        this.maps.set(path, this.#map(fig, k, k, cap));
      } else if (is1D(v)) {
        const cap = el('figcaption', {}, this.#title(k, t(this.lang, 'pos.values', { n: v.length })));
        const fig = el('figure', { class: 'pos-figure bars', dataset: { path } }, cap);
        cap.append(
          ' ',
          figureMenu(
            () => this.#barFigure(path, k),
            () => `attnplay-positions-${this.encoding}-${path}`,
            this.words.menu,
          ),
        );
        parent.append(fig);
      } else if (v && typeof v === 'object' && !Array.isArray(v)) {
        const sub = el('div', { class: 'pos-sub' }, el('h3', {}, this.#name(k)));
        parent.append(sub);
        this.#section(sub, v, `${path}.`);
      } else {
        scalars.append(el('dt', {}, this.#name(k)), el('dd', { dataset: { path } }));
      }
    }
    if (scalars.children.length) parent.prepend(scalars);
  }

  /**
   * The head picker of a map per head: in a narrow column (a phone: style.css, under 560 px) only
   * the picked head's map shows, one at a time, instead of every head's map in a column (ALiBi's 8
   * heads took 3400 px at 375 px); wider, every map shows and the picker is hidden.
   * @param {HTMLElement} row the heads' cells (.pos-head, data-head = the index) @param {number} n
   */
  #picker(row, n) {
    const buttons = Array.from({ length: n }, (_, h) =>
      el(
        'button',
        {
          type: 'button',
          'aria-pressed': String(h === 0),
          'aria-label': t(this.lang, 'pos.head', { n: h + 1 }),
          onclick: () => {
            buttons.forEach((b, i) => b.setAttribute('aria-pressed', String(i === h)));
            for (const c of row.children)
              c.classList.toggle('on', /** @type {HTMLElement} */ (c).dataset.head === String(h));
          },
        },
        String(h + 1),
      ),
    );
    return el(
      'div',
      { class: 'pos-pick', role: 'group', 'aria-label': t(this.lang, 'pos.pick') },
      el('span', { class: 'muted' }, t(this.lang, 'pos.pick')),
      buttons,
    );
  }

  /**
   * A map and its download control (in `caption`).
   * @param {HTMLElement} parent @param {string} name @param {string} key @param {HTMLElement} caption
   */
  #map(parent, name, key, caption) {
    const [xLabel, yLabel] = (AXES[key] ?? ['column', 'row']).map((w) => t(this.lang, `pos.axis.${w}`));
    const what = name.replaceAll('_', ' ');
    // The control before the map (a head's cell is both caption and parent: label, control, map).
    caption.append(
      ' ',
      figureMenu(
        () => map.figure({ title: `${this.encoding}: ${what}`, xLabel, yLabel }),
        () => `attnplay-positions-${this.encoding}-${name}`,
        this.words.menu,
      ),
    );
    const map = new Heatmap(parent, {
      label: `position encoding: ${name}`,
      maxSize: 250,
      legend: this.#name(key),
      describe: (i, j, v) => t(this.lang, 'pos.cell', { name, i, j, v: fmt(v) }),
      words: this.words.heatmap,
    });
    return map;
  }

  /**
   * A bar list as a figure (bars over index or head).
   * @param {string} path @param {string} key
   * @returns {import('../charts/figure-layout.js').LineFigure|null}
   */
  #barFigure(path, key) {
    const v = this.bars.get(path);
    if (!v) return null;
    const first = PER_HEAD.includes(key) ? 1 : 0;
    const what = key.replaceAll('_', ' ');
    return {
      kind: 'lines',
      bars: true,
      title: `${this.encoding}: ${what}`,
      xLabel: t(this.lang, first ? 'pos.axis.head' : 'pos.axis.index'),
      yLabel: what,
      xs: v.map((_, i) => i + first),
      series: [{ label: what, values: v, color: '#1a73e8' }],
    };
  }

  /** @param {object} obj @param {string} prefix */
  #fill(obj, prefix) {
    for (const [k, v] of Object.entries(obj)) {
      if (k === 'describe' || k === 'kind') continue;
      const path = prefix + k;
      if (is3D(v)) {
        // One scale for all heads, so that their colours compare (a bias is centred on 0).
        const heads = this.#masked(k, v);
        const range = sharedRange(heads);
        heads.forEach((m, h) =>
          this.maps
            .get(`${path}.${h}`)
            ?.update(m, { ...axisLabels(m), range, scaleNote: t(this.lang, 'pos.sameScale') }),
        );
      } else if (is2D(v)) this.maps.get(path)?.update(this.#masked(k, [v])[0], axisLabels(v));
      else if (is1D(v)) {
        const fig = /** @type {HTMLElement|null} */ (
          this.body.querySelector(`figure[data-path="${CSS.escape(path)}"]`)
        );
        fig?.querySelector('canvas')?.remove();
        this.bars.set(path, v);
        // Per-head values are numbered from 1, as the heads are everywhere else.
        if (fig)
          drawBarList(fig, v, {
            label: k,
            first: PER_HEAD.includes(k) ? 1 : 0,
            axis: t(this.lang, PER_HEAD.includes(k) ? 'pos.axis.head' : 'pos.axis.index'),
          });
      } else if (v && typeof v === 'object' && !Array.isArray(v)) this.#fill(v, `${path}.`);
      else {
        const dd = this.body.querySelector(`dd[data-path="${CSS.escape(path)}"]`);
        if (dd) dd.textContent = typeof v === 'number' ? fmt(v) : this.#value(String(v));
      }
    }
  }

  /**
   * Under the causal mask, the keys after each query of a (query, key) map (ALiBi's or T5's bias)
   * never reach the attention: they are drawn as masked (grey, −∞), not as the bias they would get.
   * @param {string} key @param {number[][][]} maps
   */
  #masked(key, maps) {
    if (!this.causal || AXES[key]?.[1] !== 'query') return maps;
    return maps.map((m) => m.map((row, i) => row.map((x, j) => (j > i ? -Infinity : x))));
  }

  /** A figure's caption: the key, its size and, for the keys we know, what it is. @param {string} key @param {string} dims */
  #title(key, dims) {
    const caption = hasMessage(this.lang, `pos.caption.${key}`) ? t(this.lang, `pos.caption.${key}`) : '';
    return [
      el('strong', {}, this.#name(key)),
      ` (${dims})`,
      caption ? el('span', { class: 'muted' }, ` — ${caption}`) : null,
    ];
  }

  /**
   * The name of a key the engine sends (matrix, rotated_dims ...): in English the key in words; in
   * another language the message table's `pos.name.<key>`, else the key as the engine writes it.
   * @param {string} key
   */
  #name(key) {
    if (this.lang === 'en') return key.replaceAll('_', ' ');
    return hasMessage(this.lang, `pos.name.${key}`) ? t(this.lang, `pos.name.${key}`) : key;
  }

  /** A word the engine sends as a value (interleaved, half ...), as #name. @param {string} v */
  #value(v) {
    return this.lang !== 'en' && hasMessage(this.lang, `pos.value.${v}`) ? t(this.lang, `pos.value.${v}`) : v;
  }

  clear() {
    this.body.replaceChildren();
    this.layout = '';
    this.maps.clear();
    this.bars.clear();
  }
}

/** The finite range over every head's matrix. @param {number[][][]} heads @returns {[number, number]} */
function sharedRange(heads) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const m of heads)
    for (const row of m) for (const x of row) if (Number.isFinite(x)) ((lo = Math.min(lo, x)), (hi = Math.max(hi, x)));
  return Number.isFinite(lo) ? [lo, hi] : [0, 1];
}

/** @param {number[][]} m */
function axisLabels(m) {
  // Index labels (thinned by the heatmap so that they never touch) up to a size worth reading.
  if (m.length > 128 || m[0].length > 128) return {};
  return { rowLabels: m.map((_, i) => String(i)), colLabels: m[0].map((_, j) => String(j)) };
}

/** @param {unknown} v @returns {unknown} */
function shapeOf(v) {
  if (is3D(v)) return [v.length, v[0].length, v[0][0].length];
  if (is2D(v)) return [v.length, v[0].length];
  if (is1D(v)) return [v.length];
  if (v && typeof v === 'object' && !Array.isArray(v))
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => k !== 'describe')
        .map(([k, x]) => [k, shapeOf(x)]),
    );
  return typeof v;
}
