// A comparison's heads (compare-view.js, view "heads"): one table, a row per layer × head and a
// column per run, each cell the labels that run's head earned at its latest step with their
// evidence in numbers ("positional offset share 0.99 ≥ 0.50 at offset +6"), or "no label" with the
// head's entropy. So the runs' heads read side by side: with positions, a head that reads a fixed
// offset; without, a uniform one. A head one run does not have (fewer layers or heads) reads "–".
// Layers and heads count from 1, as in the attention maps. The engine measures (Session.heads). Its
// words: the message table's panels part (`cmph.*`, `heads.*`), loaded before in its language.
import { el } from './dom.js';
import { evidenceOf, fixed, labelWord, withheldOf } from './heads-labels.js';
import { translator } from '../common/messages.js';

/** @typedef {import('../wasm-api').HeadDiagnostics} HeadDiagnostics */

export class CompareHeads {
  /**
   * @param {HTMLElement} box where the table goes
   * @param {{name: string, swatch: () => HTMLElement}[]} runs the runs' names and colour swatches, in order
   * @param {string} [measuring] what it says before the first measure (in the view's language)
   * @param {import('../common/messages.js').Lang} [lang] the language of its words
   */
  constructor(box, runs, measuring = 'Measuring the heads…', lang = 'en') {
    this.box = box;
    this.lang = lang;
    this.tr = translator(lang);
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
    const tr = this.tr;
    const layers = Math.max(0, ...this.shown.map((d) => d?.layers.length ?? 0));
    const rows = [];
    for (let l = 0; l < layers; l++) {
      const heads = Math.max(0, ...this.shown.map((d) => d?.layers[l]?.heads.length ?? 0));
      for (let h = 0; h < heads; h++)
        rows.push(
          el(
            'tr',
            { dataset: { layer: String(l), head: String(h) } },
            el(
              'th',
              { scope: 'row' },
              el('span', {}, tr('cmph.layer', { n: l + 1 })),
              ' ',
              el('span', {}, tr('cmph.head', { n: h + 1 })),
            ),
            ...this.shown.map((d, i) => this.#cell(d, l, h, i)),
          ),
        );
    }
    if (!rows.length) {
      this.box.replaceChildren(el('p', { class: 'muted' }, this.measuring));
      return;
    }
    const steps = this.shown
      .map((d, i) => tr(d ? 'cmph.at' : 'cmph.notYet', { name: this.runs[i].name, step: d?.step ?? 0 }))
      .join(tr('cmph.sep'));
    this.box.replaceChildren(
      el(
        'table',
        { class: 'ap-compare-heads' },
        el('caption', {}, tr('cmph.caption', { steps }) + tr('heads.inductionNeeds')),
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            el('th', { scope: 'col' }, tr('cmph.col')),
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
        el('strong', {}, labelWord('label', lab.name, lab.name, this.lang)),
        ' ',
        el('span', { class: 'muted' }, evidenceOf(lab, head, d.thresholds, this.lang)),
      ),
    );
    const withheld = withheldOf(head, l, this.lang);
    return el(
      'td',
      { dataset: { run: String(i), labels: head.labels.map((x) => x.name).join(',') } },
      ...(labels.length
        ? labels
        : [el('span', { class: 'muted' }, this.tr('cmph.noLabel', { v: fixed(head.entropy) }))]),
      ...(withheld ? [el('div', { class: 'muted ap-compare-withheld' }, withheld)] : []),
    );
  }
}
