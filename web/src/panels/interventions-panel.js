// "Interventions": pick a layer and head, what to do to it (zero it, replace its attention rows
// by a pattern, or patch its output from a donor example), apply; the held-out loss, accuracy and
// predictions then show beside the unmodified model's (interventions-view.js). The engine does it
// all (Session::evaluate_interventions, evaluation only): the weights and training are untouched,
// a new model or a reset clears the list, and while one is set every refresh re-evaluates it. Its
// words: the message table's panels part (`iv.*`), loaded before: loadMessages(lang, ['panels']).
import { el } from './dom.js';
import { translator } from '../common/messages.js';
import { refusalIn } from './engine-refusal.js';
import { describeChange, changedPositions, exampleViews } from './interventions-view.js';
import './interventions.css';

/**
 * The model, as this panel uses it (client/session.js's EngineSession has it; the panel imports no
 * client module, not even its type).
 * @typedef {{intervene(interventions: import('../wasm-api').Intervention[], n?: number):
 *   Promise<import('../wasm-api').InterventionResult>}} Session
 */
/** @typedef {import('../wasm-api').Intervention} Intervention */

/** The kinds, with the field each needs (the core's list: core/model/intervention.cpp); each one's words: `iv.kind.<name>`. */
export const KINDS = /** @type {const} */ ([
  { name: 'zero', field: null },
  { name: 'uniform', field: null },
  { name: 'previous', field: null },
  { name: 'position', field: 'position' },
  { name: 'offset', field: 'offset' },
  { name: 'patch', field: 'donor' },
]);

/** @param {string} text @param {string} name @param {HTMLElement} control */
const field = (text, name, control) =>
  el('label', { class: 'iv-field', dataset: { field: name } }, el('span', {}, text), control);
/** @param {number} n @param {(i: number) => string} [label] */
const options = (n, label = String) =>
  Array.from({ length: n }, (_, i) => el('option', { value: String(i) }, label(i)));

/**
 * An intervention as the page names it: layer and head from 1, then what was done: in English the
 * engine's label ("zero", "previous", "patch at 3 from example 1"; positions and examples from 0),
 * else the table's words for its kind and numbers.
 * @param {Intervention} iv @param {ReturnType<typeof translator>} tr @param {boolean} english
 */
const shown = (iv, tr, english) => {
  const done = iv.kind === 'patch' && iv.position !== undefined ? 'patchAt' : /** @type {string} */ (iv.kind);
  const what = english
    ? (iv.label ?? '').replace(/^layer \d+ head \d+: /, '')
    : tr(`iv.done.${done}`, { p: iv.position ?? 0, k: iv.offset ?? 0, d: iv.donor ?? 0 });
  return tr('iv.shown', { l: iv.layer + 1, h: iv.head + 1, what });
};

export class InterventionsPanel {
  /**
   * @param {HTMLElement} box the panel's body
   * @param {() => Session|null} model the current model
   * @param {import('../common/messages.js').Lang} [lang] the language of its words
   */
  constructor(box, model, lang = 'en') {
    this.model = model;
    this.lang = lang;
    const tr = (this.tr = translator(lang));
    /** @type {Intervention[]} */
    this.list = [];
    this.token = 0;
    this.layer = el('select', { name: 'iv-layer' });
    this.head = el('select', { name: 'iv-head' });
    this.kind = el(
      'select',
      { name: 'iv-kind' },
      KINDS.map((k) => el('option', { value: k.name }, tr(`iv.kind.${k.name}`))),
    );
    const number = (/** @type {string} */ name) =>
      el('input', { type: 'number', name, min: '0', value: '0', inputMode: 'numeric' });
    this.position = number('iv-position');
    this.offset = number('iv-offset');
    this.donor = number('iv-donor');
    this.offset.value = '1';
    this.fields = {
      position: field(tr('iv.field.position'), 'position', this.position),
      offset: field(tr('iv.field.offset'), 'offset', this.offset),
      donor: field(tr('iv.field.donor'), 'donor', this.donor),
    };
    this.apply = el('button', { type: 'submit', class: 'iv-apply' }, tr('iv.apply'));
    this.clearButton = el('button', { type: 'button', class: 'iv-clear', disabled: true }, tr('iv.clear'));
    this.items = el('ul', { class: 'iv-list', 'aria-label': tr('iv.listAria') });
    this.status = el('p', { class: 'iv-status', role: 'status' }, tr('iv.none'));
    this.error = el('p', { class: 'error iv-error', role: 'alert', hidden: true });
    this.examples = el('div', { class: 'predictions iv-examples' });
    const form = el(
      'form',
      { class: 'iv-form', noValidate: true }, // the engine's message names a bad value
      field(tr('iv.field.layer'), 'layer', this.layer),
      field(tr('iv.field.head'), 'head', this.head),
      field(tr('iv.field.kind'), 'kind', this.kind),
      this.fields.position,
      this.fields.offset,
      this.fields.donor,
      this.apply,
      this.clearButton,
    );
    box.replaceChildren(form, this.error, this.items, this.status, this.examples);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.add();
    });
    this.kind.addEventListener('change', () => this.#showFields());
    this.clearButton.addEventListener('click', () => void this.clear());
    this.#showFields();
  }

  #showFields() {
    const k = KINDS.find((x) => x.name === this.kind.value);
    for (const [name, f] of Object.entries(this.fields))
      f.hidden = !(k?.field === name || (k?.name === 'patch' && name === 'position'));
    /** @type {HTMLElement} */ (this.fields.position.firstElementChild).textContent = this.tr(
      k?.name === 'patch' ? 'iv.field.at' : 'iv.field.position',
    );
  }

  /**
   * A new model, a reset or an import: the list is emptied (the engine's went with its session)
   * and the choices follow its shape. @param {import('../wasm-api').SessionInfo} info
   */
  setModel(info) {
    const c = info.config;
    const anchors = c.anchors === 'none' || !c.anchors ? 0 : c.anchors === 'cls_sep' ? 2 : 1;
    // Layers and heads are counted from 1 on the page (as in the attention view); the engine, the
    // CLI and the API take indices from 0, which the options' values carry.
    this.layer.replaceChildren(...options(Number(c.layers), (i) => String(i + 1)));
    this.head.replaceChildren(...options(Number(c.heads), (i) => String(i + 1)));
    this.position.max = String(Number(c.seq_len) + anchors - 1);
    this.offset.max = this.position.max;
    this.donor.max = String(Number(c.batch) - 1);
    this.token++;
    this.list = [];
    this.#render(null);
  }

  /** The intervention the controls describe (declared fields only). @returns {Intervention} */
  #chosen() {
    const kind = /** @type {Intervention['kind']} */ (this.kind.value);
    /** @type {Intervention} */
    const iv = { layer: Number(this.layer.value), head: Number(this.head.value), kind };
    if (kind === 'position' || kind === 'patch') iv.position = Number(this.position.value);
    if (kind === 'offset') iv.offset = Number(this.offset.value);
    if (kind === 'patch') iv.donor = Number(this.donor.value);
    return iv;
  }

  /** Add the chosen intervention (replacing one on the same head) and evaluate. */
  add() {
    const iv = this.#chosen();
    return this.#evaluate([...this.list.filter((x) => x.layer !== iv.layer || x.head !== iv.head), iv]);
  }

  /** Remove every intervention: the numbers return to the unmodified model's. */
  clear() {
    return this.#evaluate([]);
  }

  /** Re-evaluate the list in effect (after training moved on); nothing when it is empty. */
  refresh() {
    return this.list.length ? this.#evaluate(this.list) : Promise.resolve();
  }

  /** @param {Intervention[]} list */
  async #evaluate(list) {
    const model = this.model();
    if (!model) return;
    const token = ++this.token;
    // The list asked for is the list in effect from now on, so that a refresh that starts before
    // this answer evaluates it (not the one it replaces); a refusal puts the previous one back.
    const previous = this.list;
    this.list = list;
    this.apply.disabled = true;
    try {
      const r = await model.intervene(
        list.map(({ label, ...iv }) => iv),
        4,
      );
      if (token !== this.token) return;
      this.list = r.interventions.map(({ label, ...iv }) => iv);
      this.error.hidden = true;
      this.#render(r);
    } catch (err) {
      if (token !== this.token) return;
      this.list = previous;
      this.error.hidden = false;
      this.error.textContent = this.tr('iv.notApplied', {
        message: refusalIn(this.lang, err),
      });
    } finally {
      if (token === this.token) this.apply.disabled = false;
    }
  }

  /** @param {import('../wasm-api').InterventionResult|null} r null: nothing evaluated yet */
  #render(r) {
    const { tr } = this;
    const name = (/** @type {Intervention} */ iv) => shown(iv, tr, this.lang === 'en');
    const active = Boolean(r?.interventions.length);
    this.clearButton.disabled = !active;
    this.items.replaceChildren(
      ...(r?.interventions ?? []).map((iv, i) =>
        el(
          'li',
          {},
          el('span', {}, name(iv)),
          el(
            'button',
            {
              type: 'button',
              class: 'iv-remove',
              'aria-label': tr('iv.remove', { what: name(iv) }),
              onclick: () => void this.#evaluate(this.list.filter((_, j) => j !== i)),
            },
            '×',
          ),
        ),
      ),
    );
    if (!r || !active) {
      // after a clear, the unmodified model's numbers again
      const b = r?.base;
      this.status.textContent = b
        ? tr('iv.noneAt', { step: r?.step ?? 0, loss: b.loss.toFixed(3), acc: (100 * b.token_accuracy).toFixed(1) })
        : tr('iv.none');
      this.examples.replaceChildren();
      return;
    }
    const changed = changedPositions(r);
    this.status.textContent =
      tr('iv.at', { step: r.step, change: describeChange(r, tr) }) +
      tr(changed === 1 ? 'iv.changed1' : 'iv.changedN', {
        n: changed,
        total: r.predictions?.base.examples.length ?? 0,
      });
    this.examples.replaceChildren(...exampleViews(r, tr));
  }
}
