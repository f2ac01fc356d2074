// The text task's "training text" control (controls.js puts it in place of the `text` field):
// the bundled corpus, or the user's own text, pasted, dropped in or uploaded as a .txt file. It
// checks the text against seq_len and the held-out split (state/text.js) and says in words
// what is wrong: too short (how many characters are needed), too large (the 2 MiB limit), not
// text. The text is data only: it goes into a textarea's value and into the config, never into
// markup. Reports a text to train on through onChange(text) ('' = the bundled corpus); the page
// hands it the corpus's loader (run/text-source.js), to say how large the corpus is.
import { el } from './dom.js';
import { CORPUS, LINK_TEXT_MAX, MAX_TEXT_BYTES, describeText, lengthProblem, sizeProblem } from '../state/text.js';
import './text-source.css';

const TYPING_MS = 400; // apply typed or pasted text after this pause

export class TextSourcePanel {
  /** @param {(text: string) => void} onChange @param {() => Promise<string>} loadCorpus the bundled corpus's text */
  constructor(onChange, loadCorpus) {
    this.onChange = onChange;
    this.loadCorpus = loadCorpus;
    this.own = false; // the user chose their own text (kept across renders, even while it is empty)
    /** @type {string|null} the file the current text came from */
    this.fileName = null;
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.timer = undefined;
  }

  /**
   * The control for a state: `value` is the state's text ('' = the corpus).
   * @param {string} id the id the form's label and error marks use
   * @param {string} value
   * @param {number} seqLen
   * @param {string} describedby
   */
  field(id, value, seqLen, describedby) {
    if (value) this.own = true;
    return new TextSourceField(this, id, value, seqLen, describedby).root;
  }
}

/**
 * One rendering of the control (the form is rebuilt with each state). The choice, the file name
 * and the pending edit live in the panel, so that they outlast it.
 */
class TextSourceField {
  /**
   * @param {TextSourcePanel} panel
   * @param {string} id
   * @param {string} value the state's text
   * @param {number} seqLen
   * @param {string} describedby
   */
  constructor(panel, id, value, seqLen, describedby) {
    this.panel = panel;
    this.id = id;
    this.value = value;
    this.seqLen = seqLen;
    this.status = el('p', { class: 'text-status', role: 'status' });
    this.warning = el('p', { class: 'text-warning', role: 'alert', hidden: true });
    this.area = el('textarea', {
      rows: 5,
      spellcheck: false,
      'aria-describedby': describedby,
      placeholder: 'Paste text here, drop a .txt file on this box, or upload one',
    });
    this.area.value = value;
    this.upload = el('input', {
      type: 'file',
      accept: '.txt,text/plain',
      class: 'file-input',
      'aria-label': 'Upload a .txt file',
    });
    this.ownBox = el(
      'div',
      { class: 'text-own' },
      this.area,
      el('label', { class: 'button small text-upload' }, 'Upload a .txt file', this.upload),
    );
    const name = `${id}-source`;
    this.corpus = el('input', { type: 'radio', name, value: 'corpus', checked: !panel.own });
    this.mine = el('input', { type: 'radio', name, value: 'own', checked: panel.own });
    this.root = el(
      'div',
      { class: 'text-source', dataset: { source: panel.own ? 'own' : 'corpus' } },
      this.#choices(),
      this.ownBox,
      this.warning,
      this.status,
    );
    this.#wireChoice();
    this.#wireText();
    this.show();
  }

  /** The two radio buttons, labelled: the bundled corpus, or your own text. */
  #choices() {
    return el(
      'div',
      { class: 'text-choices', role: 'radiogroup', 'aria-label': 'Training text' },
      el(
        'label',
        { class: 'text-choice' },
        this.corpus,
        el('span', {}, el('strong', {}, CORPUS.title), ` (${CORPUS.about})`),
      ),
      el(
        'label',
        { class: 'text-choice' },
        this.mine,
        el('span', {}, el('strong', {}, 'Your own text'), ' (paste, drop or upload)'),
      ),
    );
  }

  /** @param {string|null} text a problem in words, or null */
  warn(text) {
    this.warning.hidden = !text;
    this.warning.textContent = text ?? '';
  }

  /** Show the choice in use, and what its text is (or what is wrong with it). */
  show() {
    const own = this.panel.own;
    this.root.dataset.source = own ? 'own' : 'corpus';
    this.ownBox.hidden = !own;
    // the form's label and error marks point at the control in use
    (own ? this.corpus : this.area).removeAttribute('id');
    (own ? this.area : this.corpus).id = this.id;
    if (own) this.#showOwn();
    else this.#showCorpus();
  }

  /** The bundled corpus: its size once loaded, or why it could not be. */
  #showCorpus() {
    this.warn(null);
    this.status.textContent = `${CORPUS.title}: loading…`;
    this.panel.loadCorpus().then(
      (t) => {
        if (!this.panel.own) this.status.textContent = `${CORPUS.title}: ${describeText(t)}`;
      },
      (err) => {
        if (!this.panel.own)
          this.warn(`The bundled corpus could not be loaded (${err.message}). Paste or upload your own text instead.`);
      },
    );
  }

  /** The user's text: its size and source, a problem with its length, and whether a link can carry it. */
  #showOwn() {
    const text = this.area.value;
    if (!text) {
      this.warn(null);
      this.status.textContent = 'No text yet: until there is one, the model trains on the bundled corpus.';
      return;
    }
    this.warn(lengthProblem(text, this.seqLen));
    const from = this.panel.fileName ? `From ${this.panel.fileName}: ` : '';
    const link =
      text.length > LINK_TEXT_MAX
        ? " Your text is too long for the page's link: a copied link trains on the bundled corpus."
        : '';
    this.status.textContent = `${from}${describeText(text)}${link}`;
  }

  /** Send a text to train on (a too-large one is refused here, with the reason). @param {string} text */
  commit(text) {
    clearTimeout(this.panel.timer);
    const bytes = new TextEncoder().encode(text).length;
    if (bytes > MAX_TEXT_BYTES) return this.warn(sizeProblem(bytes, this.panel.fileName ?? 'The text'));
    this.show();
    if (text !== this.value) this.panel.onChange(text);
  }

  /** A dropped or uploaded file: its text, when it is text and not too large. @param {File} file */
  async readFile(file) {
    if (file.size > MAX_TEXT_BYTES) return this.warn(sizeProblem(file.size, file.name));
    const text = await file.text();
    if (text.includes('\0'))
      return this.warn(`${file.name} does not look like a text file (it holds NUL bytes). Choose a plain .txt file.`);
    this.panel.fileName = file.name;
    this.#takeOwn(text);
  }

  /** Choose the user's own text, and train on `text`. @param {string} text */
  #takeOwn(text) {
    this.panel.own = true;
    this.mine.checked = true;
    this.area.value = text;
    this.commit(text);
  }

  /** The radio buttons: the corpus, or the user's text (focused, and sent if there is one). */
  #wireChoice() {
    const panel = this.panel;
    this.corpus.addEventListener('change', () => {
      panel.own = false;
      panel.fileName = null;
      this.show();
      if (this.value !== '') panel.onChange('');
    });
    this.mine.addEventListener('change', () => {
      panel.own = true;
      this.show();
      this.area.focus();
      if (this.area.value) this.commit(this.area.value);
    });
  }

  /** Typing (sent after a pause), uploading, and dropping a file or text on the control. */
  #wireText() {
    const { panel, area, upload, root } = this;
    area.addEventListener('input', () => {
      panel.fileName = null;
      clearTimeout(panel.timer);
      panel.timer = setTimeout(() => this.commit(area.value), TYPING_MS);
    });
    upload.addEventListener('change', () => {
      const file = upload.files?.[0];
      if (file) this.readFile(file);
    });
    root.addEventListener('dragover', (e) => {
      e.preventDefault();
      root.classList.add('dragging');
    });
    root.addEventListener('dragleave', () => root.classList.remove('dragging'));
    root.addEventListener('drop', (e) => {
      e.preventDefault();
      root.classList.remove('dragging');
      const file = e.dataTransfer?.files?.[0];
      const dropped = e.dataTransfer?.getData('text/plain');
      if (file) this.readFile(file);
      else if (dropped) this.#takeOwn(dropped);
    });
  }
}
