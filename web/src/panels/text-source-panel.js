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
    const name = `${id}-source`;
    const status = el('p', { class: 'text-status', role: 'status' });
    const warning = el('p', { class: 'text-warning', role: 'alert', hidden: true });
    const area = el('textarea', {
      rows: 5,
      spellcheck: false,
      'aria-describedby': describedby,
      placeholder: 'Paste text here, drop a .txt file on this box, or upload one',
    });
    area.value = value;
    const upload = el('input', {
      type: 'file',
      accept: '.txt,text/plain',
      class: 'file-input',
      'aria-label': 'Upload a .txt file',
    });
    const ownBox = el(
      'div',
      { class: 'text-own' },
      area,
      el('label', { class: 'button small text-upload' }, 'Upload a .txt file', upload),
    );
    const corpus = el('input', { type: 'radio', name, value: 'corpus', checked: !this.own });
    const mine = el('input', { type: 'radio', name, value: 'own', checked: this.own });
    const root = el(
      'div',
      { class: 'text-source', dataset: { source: this.own ? 'own' : 'corpus' } },
      el(
        'div',
        { class: 'text-choices', role: 'radiogroup', 'aria-label': 'Training text' },
        el(
          'label',
          { class: 'text-choice' },
          corpus,
          el('span', {}, el('strong', {}, CORPUS.title), ` (${CORPUS.about})`),
        ),
        el(
          'label',
          { class: 'text-choice' },
          mine,
          el('span', {}, el('strong', {}, 'Your own text'), ' (paste, drop or upload)'),
        ),
      ),
      ownBox,
      warning,
      status,
    );

    /** @param {string|null} text a problem in words, or null */
    const warn = (text) => {
      warning.hidden = !text;
      warning.textContent = text ?? '';
    };
    const show = () => {
      root.dataset.source = this.own ? 'own' : 'corpus';
      ownBox.hidden = !this.own;
      // the form's label and error marks point at the control in use
      (this.own ? corpus : area).removeAttribute('id');
      (this.own ? area : corpus).id = id;
      if (!this.own) {
        warn(null);
        status.textContent = `${CORPUS.title}: loading…`;
        this.loadCorpus().then(
          (t) => {
            if (!this.own) status.textContent = `${CORPUS.title}: ${describeText(t)}`;
          },
          (err) => {
            if (!this.own)
              warn(`The bundled corpus could not be loaded (${err.message}). Paste or upload your own text instead.`);
          },
        );
        return;
      }
      const text = area.value;
      if (!text) {
        warn(null);
        status.textContent = 'No text yet: until there is one, the model trains on the bundled corpus.';
        return;
      }
      warn(lengthProblem(text, seqLen));
      const from = this.fileName ? `From ${this.fileName}: ` : '';
      const link =
        text.length > LINK_TEXT_MAX
          ? " Your text is too long for the page's link: a copied link trains on the bundled corpus."
          : '';
      status.textContent = `${from}${describeText(text)}${link}`;
    };
    /** Send a text to train on (a too-large one is refused here, with the reason). @param {string} text */
    const commit = (text) => {
      clearTimeout(this.timer);
      const bytes = new TextEncoder().encode(text).length;
      if (bytes > MAX_TEXT_BYTES) return warn(sizeProblem(bytes, this.fileName ?? 'The text'));
      show();
      if (text !== value) this.onChange(text);
    };
    /** @param {File} file */
    const readFile = async (file) => {
      if (file.size > MAX_TEXT_BYTES) return warn(sizeProblem(file.size, file.name));
      const text = await file.text();
      if (text.includes('\0'))
        return warn(`${file.name} does not look like a text file (it holds NUL bytes). Choose a plain .txt file.`);
      this.own = true;
      this.fileName = file.name;
      mine.checked = true;
      area.value = text;
      commit(text);
    };

    corpus.addEventListener('change', () => {
      this.own = false;
      this.fileName = null;
      show();
      if (value !== '') this.onChange('');
    });
    mine.addEventListener('change', () => {
      this.own = true;
      show();
      area.focus();
      if (area.value) commit(area.value);
    });
    area.addEventListener('input', () => {
      this.fileName = null;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => commit(area.value), TYPING_MS);
    });
    upload.addEventListener('change', () => {
      const file = upload.files?.[0];
      if (file) readFile(file);
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
      if (file) readFile(file);
      else if (dropped) {
        this.own = true;
        mine.checked = true;
        area.value = dropped;
        commit(dropped);
      }
    });
    show();
    return root;
  }
}
