// Attention maps of every layer and head for one held-out example: rows are queries, columns
// keys; the Σ column shows each row's sum (1 under softmax, anything under other normalizations).
import { Heatmap, fmt } from '../../charts/heatmap.js';
import { el } from './dom.js';

export class AttentionPanel {
  /** @param {HTMLElement} grid */
  constructor(grid) {
    this.grid = grid;
    this.maps = [];
    this.shape = '';
    this.show = 'weights';
  }

  /** @param {'weights'|'logits'} what */
  setShow(what) {
    this.show = what;
    if (this.last) this.update(this.last);
  }

  /** Draw a RunResult ({tokens, layers: [{heads: [{weights, logits, row_sums}]}]}). */
  update(att) {
    this.last = att;
    const tokens = att.tokens;
    const shape = `${att.layers.length}x${att.layers[0]?.heads.length}`;
    if (shape !== this.shape) this.#build(att, shape);
    att.layers.forEach((layer, l) =>
      layer.heads.forEach((head, h) => {
        const map = this.maps[l][h];
        map.head = head;
        map.tokens = tokens;
        const m = this.show === 'logits' ? head.logits.map((r) => r.map((v) => (v === null ? -Infinity : v))) : head.weights;
        map.update(m, { rowLabels: tokens, colLabels: tokens, side: head.row_sums, sideLabel: 'Σ' });
      }),
    );
  }

  #build(att, shape) {
    this.grid.replaceChildren();
    this.shape = shape;
    this.maps = att.layers.map((layer, l) => {
      const row = el('div', { class: 'attn-layer' }, el('h3', {}, `Layer ${l + 1}`));
      this.grid.append(row);
      return layer.heads.map((_, h) => {
        const cell = el('figure', { class: 'attn-head' }, el('figcaption', {}, `head ${h + 1}`));
        row.append(cell);
        const map = new Heatmap(cell, {
          label: `Attention of layer ${l + 1}, head ${h + 1}: queries down, keys across`,
          maxSize: 250,
          describe: (i, j, v) =>
            `query ${i} “${map.tokens[i]}” → key ${j} “${map.tokens[j]}”: ${this.show === 'logits' ? 'logit' : 'weight'} ${fmt(v)} (row sum ${fmt(map.head.row_sums[i])})`,
        });
        return map;
      });
    });
  }

  clear() {
    this.grid.replaceChildren();
    this.shape = '';
    this.last = null;
  }
}
