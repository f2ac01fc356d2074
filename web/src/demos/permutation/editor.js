// The permutation demo's sequence editor: the row X (click or ↑/↓ changes a token) and the row
// πX (drag, or ←/→, reorders), Shuffle / Reverse / Original order. It edits `s.x` and `s.perm`
// and calls `changed()` after each edit; it knows nothing of models.
import { el } from '../common.js';

const START_TOKENS = ['c', 'A', 'e', 'd', 'B', 'f', 'c', 'e'];

export class SequenceEditor {
  /**
   * @param {{xRow: HTMLElement, pRow: HTMLElement, permNote: HTMLElement, shuffle: HTMLElement,
   *   reverse: HTMLElement, identity: HTMLElement}} ui
   * @param {{vocab: string[], x: number[], perm: number[]}} s the sequence (token ids) and π
   * @param {() => void} changed
   * @param {import('./view.js').Tr} tr the demo's strings
   */
  constructor(ui, s, changed, tr) {
    this.tr = tr;
    this.ui = ui;
    this.s = s;
    this.changed = changed;
    ui.shuffle.addEventListener('click', () => this.shuffle());
    ui.reverse.addEventListener('click', () => {
      s.perm.reverse();
      this.#edited();
    });
    ui.identity.addEventListener('click', () => {
      s.perm = s.x.map((_, i) => i);
      this.#edited();
    });
  }

  /** @param {number} id */
  #name(id) {
    return this.s.vocab[id] ?? '?';
  }

  #edited() {
    this.render();
    this.changed();
  }

  /**
   * The first sequence, once the vocabulary is known (the model's).
   * @param {string[]} vocab
   * @param {number} seqLen
   */
  start(vocab, seqLen) {
    const { s } = this;
    s.vocab = vocab;
    s.x = START_TOKENS.slice(0, seqLen).map((t) => Math.max(0, vocab.indexOf(t)));
    while (s.x.length < seqLen) s.x.push(2 + (s.x.length % Math.max(1, vocab.length - 2)));
    s.perm = s.x.length === 8 ? [6, 4, 2, 7, 1, 3, 0, 5] : s.x.map((_, i) => s.x.length - 1 - i);
    this.render();
  }

  render() {
    const { ui, s } = this;
    ui.xRow.replaceChildren(...s.x.map((id, i) => this.#tokenChip(id, i)));
    ui.pRow.replaceChildren(...s.perm.map((src, i) => this.#permChip(src, i)));
    const identity = s.perm.every((p, i) => p === i);
    ui.permNote.textContent = identity ? this.tr('perm.permIdentity') : `π = (${s.perm.join(' ')})`;
  }

  /** @param {number} id @param {number} i */
  #tokenChip(id, i) {
    const name = this.#name(id);
    return el(
      'button',
      {
        type: 'button',
        class: `apd-chip tok-${name}`,
        dataset: { index: i },
        title: this.tr('perm.tokenTitle'),
        'aria-label': this.tr('perm.tokenAria', { i, name }),
        onclick: (/** @type {MouseEvent} */ e) => this.editToken(i, e.shiftKey ? -1 : 1),
        onkeydown: (/** @type {KeyboardEvent} */ e) => {
          if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
            e.preventDefault();
            this.editToken(i, e.key === 'ArrowUp' ? -1 : 1);
          }
        },
      },
      name,
      el('sub', {}, String(i)),
    );
  }

  /** @param {number} src @param {number} i */
  #permChip(src, i) {
    const { ui, s } = this;
    const name = this.#name(s.x[src]);
    const chip = el(
      'button',
      {
        type: 'button',
        class: `apd-chip tok-${name}`,
        draggable: 'true',
        dataset: { index: i, src },
        title: this.tr('perm.chipTitle'),
        'aria-label': this.tr('perm.chipAria', { i, name, src }),
        onkeydown: (/** @type {KeyboardEvent} */ e) => {
          if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
          e.preventDefault();
          const j = i + (e.key === 'ArrowLeft' ? -1 : 1);
          if (j < 0 || j >= s.perm.length) return;
          this.move(i, j);
          /** @type {HTMLElement|undefined} */ (ui.pRow.children[j])?.focus();
        },
        ondragstart: (/** @type {DragEvent} */ e) => {
          const dt = /** @type {DataTransfer} */ (e.dataTransfer);
          dt.setData('text/plain', String(i));
          dt.effectAllowed = 'move';
          chip.classList.add('dragging');
        },
        ondragend: () => chip.classList.remove('dragging'),
        ondragover: (/** @type {DragEvent} */ e) => {
          e.preventDefault();
          chip.classList.add('drop');
        },
        ondragleave: () => chip.classList.remove('drop'),
        ondrop: (/** @type {DragEvent} */ e) => {
          e.preventDefault();
          const from = Number(/** @type {DataTransfer} */ (e.dataTransfer).getData('text/plain'));
          if (Number.isInteger(from) && from !== i) this.move(from, i);
        },
      },
      name,
      el('sub', {}, String(src)),
    );
    return chip;
  }

  /** @param {number} i @param {number} dir */
  editToken(i, dir) {
    const { s } = this;
    const n = s.vocab.length;
    s.x[i] = (s.x[i] + dir + n) % n;
    this.render();
    /** @type {HTMLElement|undefined} */ (this.ui.xRow.children[i])?.focus();
    this.changed();
  }

  /** @param {number} from @param {number} to */
  move(from, to) {
    const [v] = this.s.perm.splice(from, 1);
    this.s.perm.splice(to, 0, v);
    this.#edited();
  }

  shuffle() {
    const p = this.s.perm.slice();
    do {
      for (let i = p.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [p[i], p[j]] = [p[j], p[i]];
      }
    } while (p.every((v, i) => v === i) && p.length > 1);
    this.s.perm = p;
    this.#edited();
  }
}
