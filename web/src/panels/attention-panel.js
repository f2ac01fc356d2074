// Attention maps of every layer and head for one held-out example: rows are queries, columns
// keys; the Σ column shows each row's sum (1 under softmax, anything under other normalizations).
// With {frameMs} (the widget, several to a page), the maps are drawn a few per task, each task
// stopping after frameMs, and a new grid only after the frame that lays it out, so that a panel
// of many heads never makes one long main-thread task.
import { Heatmap, fmt } from '../charts/heatmap.js';
import { el } from './dom.js';
import { figureMenu } from './figure-menu.js';
import { mapWords } from './map-words.js';
import { translator } from '../common/messages.js';

/** @typedef {Pick<import('../wasm-api').RunResult, 'tokens'|'layers'>} RunResult what the maps draw (a RunResult or a replay frame's attention) */
/** A head's map, with what its tooltip reads (set before each draw). */
/** @typedef {Heatmap & {head: import('../wasm-api').HeadAttention, tokens: string[]}} HeadMap */

export class AttentionPanel {
  /**
   * @param {HTMLElement} grid
   * @param {{frameMs?: number, lang?: import('../common/messages.js').Lang}} [opts] lang: the language of
   *   its words (the message table's widget part, loaded before; English by default)
   */
  constructor(grid, { frameMs = Infinity, lang = 'en' } = {}) {
    this.grid = grid;
    this.tr = translator(lang);
    this.words = mapWords(lang);
    this.frameMs = frameMs;
    this.drawing = 0; // bumped to drop the maps still queued from an older update
    /** @type {HeadMap[][]} by layer, then head */
    this.maps = [];
    this.shape = '';
    /** @type {'weights'|'logits'} */
    this.show = 'weights';
    /** @type {RunResult|null} the last update's data */
    this.last = null;
    /** @type {{layer: number, head: number, row: number|null}|null} the head picked by highlight() */
    this.selected = null;
    /** the length the model trained at (setTrainLength): a longer map marks it with dashed lines */
    this.trainLen = 0;
    this.past = el('p', { class: 'attn-past', hidden: true });
  }

  /** The model's training length (seq_len; 0: none marked). @param {number} n */
  setTrainLength(n) {
    this.trainLen = n;
  }

  /**
   * Pick one head (0-based layer and head; optionally a query row, outlined), or none (null):
   * its map is framed and marked aria-current, and stays so across updates.
   * @param {{layer: number, head: number, row: number|null}|null} sel
   */
  highlight(sel) {
    this.selected = sel;
    this.#mark();
  }

  #mark() {
    const sel = this.selected;
    this.maps.forEach((heads, l) =>
      heads.forEach((map, h) => {
        const on = Boolean(sel && sel.layer === l && sel.head === h);
        const cell = /** @type {HTMLElement} */ (map.wrap.parentElement);
        cell.classList.toggle('attn-selected', on);
        if (on) cell.setAttribute('aria-current', 'true');
        else cell.removeAttribute('aria-current');
        map.markRow(on && sel ? sel.row : null);
      }),
    );
  }

  /** @param {'weights'|'logits'} what */
  setShow(what) {
    this.show = what;
    if (this.last) this.update(this.last);
  }

  /** Draw a RunResult ({tokens, layers: [{heads: [{weights, logits, row_sums}]}]}). @param {RunResult} att */
  update(att) {
    this.last = att;
    const tokens = att.tokens;
    const shape = `${att.layers.length}x${att.layers[0]?.heads.length}`;
    const built = shape !== this.shape;
    if (built) this.#build(att, shape);
    if (built) this.#mark();
    const edge = this.trainLen && tokens.length > this.trainLen ? this.trainLen : undefined;
    this.past.hidden = !edge;
    if (edge) this.past.textContent = this.tr('attn.pastTraining', { len: tokens.length, train: edge });
    const jobs = att.layers.flatMap((layer, l) =>
      layer.heads.map((head, h) => () => {
        const map = this.maps[l][h];
        map.head = head;
        map.tokens = tokens;
        const logits = this.show === 'logits';
        const m = logits ? head.logits.map((r) => r.map((v) => (v === null ? -Infinity : v))) : head.weights;
        map.legendName = this.tr(logits ? 'attn.logit' : 'attn.weight');
        map.update(m, {
          rowLabels: tokens,
          colLabels: tokens,
          side: head.row_sums,
          sideLabel: 'Σ',
          scaleNote: scaleNote(head, logits, this.tr),
          edge,
        });
      }),
    );
    const token = ++this.drawing;
    const run = () => {
      if (token !== this.drawing) return;
      const t0 = performance.now();
      while (jobs.length && performance.now() - t0 < this.frameMs) /** @type {() => void} */ (jobs.shift())();
      if (jobs.length) setTimeout(run, 0);
    };
    // A new grid is laid out by the next frame first: drawn now, its first map would force that
    // layout inside this task.
    if (built && Number.isFinite(this.frameMs)) requestAnimationFrame(() => setTimeout(run, 0));
    else run();
  }

  /** @param {RunResult} att @param {string} shape */
  #build(att, shape) {
    this.grid.replaceChildren(this.past);
    this.shape = shape;
    this.maps = att.layers.map((layer, l) => {
      const row = el('div', { class: 'attn-layer' }, el('h3', {}, this.tr('attn.layer', { n: l + 1 })));
      this.grid.append(row);
      return layer.heads.map((_, h) => {
        const what = () => (this.show === 'logits' ? 'logits' : 'weights');
        const tr = this.tr;
        const menu = figureMenu(
          () =>
            map.figure({
              title: tr(`attn.fig.${what()}`, { l: l + 1, h: h + 1 }),
              xLabel: tr('attn.fig.key'),
              yLabel: tr('attn.fig.query'),
            }),
          () => `attnplay-attention-${what()}-layer${l + 1}-head${h + 1}`,
          this.words.menu,
        );
        const cell = el(
          'figure',
          { class: 'attn-head' },
          el('figcaption', {}, el('span', {}, this.tr('attn.head', { n: h + 1 })), menu),
        );
        row.append(cell);
        const map = /** @type {HeadMap} */ (
          new Heatmap(cell, {
            label: tr('attn.aria', { l: l + 1, h: h + 1 }),
            maxSize: 250,
            legend: this.tr('attn.weight'),
            words: this.words.heatmap,
            describe: (i, j, v) =>
              tr('attn.describe', {
                i,
                j,
                q: map.tokens[i],
                k: map.tokens[j],
                what: tr(this.show === 'logits' ? 'attn.logit' : 'attn.weight'),
                v: fmt(v),
                sum: fmt(map.head.row_sums[i]),
              }),
          })
        );
        return map;
      });
    });
  }

  clear() {
    this.drawing++;
    this.grid.replaceChildren();
    this.shape = '';
    this.last = null;
  }
}

/**
 * What a map's colour range is: each map is scaled to its own largest value, which under a
 * normalization whose rows do not sum to 1 (l2, sigmoid ...) is no fixed number: say so.
 * @param {import('../wasm-api').HeadAttention} head
 * @param {boolean} logits
 * @param {(key: string, params?: Record<string, string|number>) => string} tr the panel's words
 */
export function scaleNote(head, logits, tr) {
  if (logits) return tr('attn.scaleLogits');
  const sums = head.row_sums.filter(Number.isFinite);
  const lo = Math.min(...sums);
  const hi = Math.max(...sums);
  const rows =
    !sums.length || (Math.abs(lo - 1) < 1e-3 && Math.abs(hi - 1) < 1e-3)
      ? tr('attn.rowsOne')
      : tr('attn.rowsRange', { lo: lo.toFixed(2), hi: hi.toFixed(2) });
  return tr('attn.scaleWeights', { rows });
}
