// A comparison's heads (compare-view.js, view "heads"): one table, a row per layer × head and a
// column per run, each cell the labels that run's head earned at its latest step with their
// evidence in numbers ("positional offset share 0.99 ≥ 0.50 at offset +6"), or "no label" with the
// head's entropy. So the runs' heads read side by side: with positions, a head that reads a fixed
// offset; without, a uniform one. A head one run does not have (fewer layers or heads) reads "–".
// Layers and heads count from 1, as in the attention maps. The engine measures (Session.heads).
import { el } from './dom.js';
import { evidenceOf, fixed, INDUCTION_NEEDS } from './heads-labels.js';

/** @typedef {import('../wasm-api').HeadDiagnostics} HeadDiagnostics */

export class CompareHeads {
  /**
   * @param {HTMLElement} box where the table goes
   * @param {{name: string, swatch: () => HTMLElement}[]} runs the runs' names and colour swatches, in order
   * @param {string} [measuring] what it says before the first measure (in the view's language)
   */
  constructor(box, runs, measuring = 'Measuring the heads…') {
    this.box = box;
    this.measuring = measuring;
    this.runs = runs;
    /** @type {(HeadDiagnostics|null)[]} */
    this.shown = runs.map(() => null);
    this.#render();
  }

  /** A run's latest diagnostics (null: a new model, not measured yet). @param {number} i @param {HeadDiagnostics|null} d */
  set(i, d) {
    this.shown[i] = d; // the engine's labels follow the induction rule (withheld: why not)
    this.#render();
  }

  #render() {
    const layers = Math.max(0, ...this.shown.map((d) => d?.layers.length ?? 0));
    const rows = [];
    for (let l = 0; l < layers; l++) {
      const heads = Math.max(0, ...this.shown.map((d) => d?.layers[l]?.heads.length ?? 0));
      for (let h = 0; h < heads; h++)
        rows.push(
          el(
            'tr',
            { dataset: { layer: String(l), head: String(h) } },
            el('th', { scope: 'row' }, el('span', {}, `layer ${l + 1} ·`), ' ', el('span', {}, `head ${h + 1}`)),
            ...this.shown.map((d, i) => this.#cell(d, l, h, i)),
          ),
        );
    }
    if (!rows.length) {
      this.box.replaceChildren(el('p', { class: 'muted' }, this.measuring));
      return;
    }
    const steps = this.shown
      .map((d, i) => (d ? `${this.runs[i].name} at step ${d.step}` : `${this.runs[i].name} not yet`))
      .join(', ');
    this.box.replaceChildren(
      el(
        'table',
        { class: 'ap-compare-heads' },
        el(
          'caption',
          {},
          `What each head does, measured on held-out example 0 at each run's latest step (${steps}). A label is earned at the threshold its evidence states. ${INDUCTION_NEEDS}`,
        ),
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            el('th', { scope: 'col' }, 'head'),
            ...this.runs.map((r) => el('th', { scope: 'col' }, r.swatch(), r.name)),
          ),
        ),
        el('tbody', {}, rows),
      ),
    );
  }

  /** @param {HeadDiagnostics|null} d @param {number} l @param {number} h @param {number} i */
  #cell(d, l, h, i) {
    const head = d?.layers[l]?.heads[h];
    if (!d || !head) return el('td', { class: 'muted', dataset: { run: String(i) } }, '–');
    const labels = head.labels.map((lab) =>
      el(
        'div',
        { class: 'ap-compare-label', dataset: { label: lab.name } },
        el('strong', {}, lab.name),
        ' ',
        el('span', { class: 'muted' }, evidenceOf(lab, head, d.thresholds)),
      ),
    );
    const withheld = head.withheld;
    return el(
      'td',
      { dataset: { run: String(i), labels: head.labels.map((x) => x.name).join(',') } },
      ...(labels.length ? labels : [el('span', { class: 'muted' }, `no label (entropy ${fixed(head.entropy)})`)]),
      ...(withheld ? [el('div', { class: 'muted ap-compare-withheld' }, withheld)] : []),
    );
  }
}
