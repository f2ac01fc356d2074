// The settings form, generated from the property list (so from the core's registries): one
// fieldset per group, one labelled control per active property, help text as its description.
// Reports edits through onChange(key, value); shows invalid values and config errors inline.
import { pairsField } from './pairs-field.js';
import { el } from './dom.js';
import { GROUP_TITLES, isActive } from '../state/properties.js';
import { parseValue } from '../state/hash.js';
import { hasMessage, t } from '../common/messages.js';
import { refusalOf } from '../common/refusal.js';

/** @typedef {import('../state/properties.js').Property} Property */
/** @typedef {import('../state/properties.js').State} State */
/** @typedef {import('../state/properties.js').Value} Value */
/**
 * The text task's text control, when the page has one (the playground's text-source-panel.js;
 * without it, a plain textarea).
 * @typedef {{field(id: string, value: string, seqLen: number, describedby: string): HTMLElement}} TextField
 */

const pretty = (/** @type {string} */ key) => key.replaceAll('_', ' ');

export class Controls {
  /**
   * @param {HTMLFormElement} form
   * @param {import('../state/properties.js').Property[]} props
   * @param {import('../wasm-api').Registry} registry
   * @param {(key: string, value: any) => void} onChange
   * @param {TextField} [textField]
   * @param {import('../common/messages.js').Lang} [lang] the language of its group titles (the message
   *   table); in another language than English the registry's own notes (English) are left out
   */
  constructor(form, props, registry, onChange, textField, lang = 'en') {
    this.lang = lang;
    this.form = form;
    this.props = props;
    this.registry = registry;
    /** @type {string|undefined} the key of the last field changed (a config error is said beside it) */
    this.lastKey = undefined;
    this.onChange = (/** @type {string} */ key, /** @type {any} */ value) => {
      this.lastKey = key;
      onChange(key, value);
    };
    /** @type {Record<string, ReturnType<typeof setTimeout>>} a pending edit per key (see #later) */
    this.timers = {};
    this.textField = textField;
    form.addEventListener('submit', (e) => e.preventDefault());
  }

  /** Rebuild the form for a state (which properties show depends on the selectors). @param {State} state */
  render(state) {
    const open = new Set(
      [...this.form.querySelectorAll('details[open]')].map((d) => /** @type {HTMLElement} */ (d).dataset.group),
    );
    const first = this.form.children.length === 0;
    this.form.replaceChildren();
    const seen = new Set();
    for (const [group, title] of Object.entries(GROUP_TITLES)) {
      const fields = this.props.filter(
        (p) => p.group === group && isActive(p, state) && !seen.has(p.key) && seen.add(p.key),
      );
      if (!fields.length) continue;
      const isOpen = first ? group !== 'advanced' : open.has(group);
      this.form.append(
        el(
          'details',
          { class: 'group', open: isOpen, dataset: { group } },
          el('summary', {}, this.lang === 'en' ? title : t(this.lang, `group.${group}`)),
          ...fields.map((p) => this.#field(p, state[p.key], state)),
        ),
      );
    }
  }

  /**
   * @param {Property} p
   * @param {Value|undefined} value
   * @param {State} state
   */
  #field(p, value, state) {
    const id = `ctl-${p.key}`;
    const help = el('small', { class: 'help', id: `help-${p.key}` }, this.#helpText(p, value));
    const msg = el('small', {
      class: 'field-error',
      id: `err-${p.key}`,
      hidden: true,
    });
    const describedby = `help-${p.key} err-${p.key}`;
    if (p.kind === 'bool') {
      const input = el('input', {
        type: 'checkbox',
        id,
        checked: Boolean(value),
        'aria-describedby': describedby,
        onchange: () => this.onChange(p.key, input.checked),
      });
      return el('div', { class: 'field check' }, input, el('label', { for: id }, this.#label(p.key)), help, msg);
    }
    const input = this.#input(p, value, state, id, describedby);
    return el('div', { class: 'field' }, el('label', { for: id }, this.#label(p.key)), input, help, msg);
  }

  /**
   * A field's label: its key in English ('seq len'); in another language the message table's
   * `field.<key>`, else the key as the config writes it (an identifier: seq_len).
   * @param {string} key
   */
  #label(key) {
    if (this.lang === 'en') return pretty(key);
    return hasMessage(this.lang, `field.${key}`) ? t(this.lang, `field.${key}`) : key;
  }

  /**
   * A menu's choice: the registry's label in English; in another language the value as the config
   * writes it, a position encoding's after its name (`enc.<value>`: 旋转位置 RoPE（rope）).
   * @param {string} key @param {{value: string, label: string}} c
   */
  #choice(key, c) {
    if (this.lang === 'en') return c.label;
    return key === 'position' && hasMessage(this.lang, `enc.${c.value}`)
      ? `${t(this.lang, `enc.${c.value}`)}（${c.value}）`
      : c.value;
  }

  /**
   * The control of a property that is not a checkbox: a select, the text control, a textarea or
   * an input.
   * @param {Property} p
   * @param {Value|undefined} value
   * @param {State} state
   * @param {string} id
   * @param {string} describedby
   * @returns {HTMLElement}
   */
  #input(p, value, state, id, describedby) {
    if (p.kind === 'enum') {
      const select = el(
        'select',
        {
          id,
          'aria-describedby': describedby,
          onchange: () => this.onChange(p.key, select.value),
        },
        // the registry's labels are English: in another language, the names the config uses (an
        // encoding's with its name from the message table, `enc.<name>`, when it is loaded)
        ...(p.choices ?? []).map((c) =>
          el('option', { value: c.value, selected: c.value === value }, this.#choice(p.key, c)),
        ),
      );
      return select;
    }
    if (p.key === 'text' && this.textField)
      return this.textField.field(
        id,
        /** @type {string} */ (value ?? ''),
        /** @type {number} */ (state.seq_len),
        describedby,
      );
    if (p.kind === 'string') return this.#textArea(p, /** @type {string} */ (value ?? ''), id, describedby);
    return this.#textInput(p, value, id, describedby);
  }

  /**
   * A string property's textarea (the custom pairs' one inside its pairs field), applied after a pause.
   * @param {Property} p
   * @param {string} value
   * @param {string} id
   * @param {string} describedby
   */
  #textArea(p, value, id, describedby) {
    const area = el('textarea', {
      id,
      rows: 3,
      'aria-describedby': describedby,
      placeholder: p.key === 'text' ? '(the built-in corpus)' : '',
    });
    area.value = value;
    area.addEventListener('input', () => this.#later(p, area));
    return p.key === 'custom_pairs'
      ? pairsField(
          area,
          (m) => this.fieldError(p.key, m),
          () => this.#commit(p, area),
        )
      : area;
  }

  /**
   * A number's or a short string's input, applied after a pause or on change.
   * @param {Property} p
   * @param {Value|undefined} value
   * @param {string} id
   * @param {string} describedby
   */
  #textInput(p, value, id, describedby) {
    const numeric = p.kind === 'int' || p.kind === 'float';
    const field = el('input', {
      id,
      type: numeric ? 'number' : 'text',
      'aria-describedby': describedby,
      inputmode: numeric ? (p.kind === 'int' ? 'numeric' : 'decimal') : undefined,
      min: p.min,
      max: p.max,
      step: p.kind === 'int' ? 1 : 'any',
    });
    field.value = String(value ?? '');
    field.addEventListener('input', () => this.#later(p, field));
    field.addEventListener('change', () => this.#commit(p, field));
    return field;
  }

  /**
   * @param {Property} p
   * @param {Value|undefined} value
   */
  #helpText(p, value) {
    if (p.key === 'text' && this.textField) return ''; // the text control says what the text is
    if (this.lang !== 'en') return ''; // the registry's notes and the fields' help are English only
    if (p.key === 'task') {
      const t = this.registry.tasks.find((x) => x.name === value);
      return t ? `${t.description} e.g. ${t.example}` : p.help;
    }
    if (p.key === 'position' || p.key === 'normalization') {
      const e = this.registry[p.key === 'position' ? 'positions' : 'normalizations'].find((x) => x.name === value);
      return e?.note ?? p.help;
    }
    return p.help;
  }

  // Typing: apply after a pause, so that "3" on the way to "32" does not rebuild the model.
  /** @param {Property} p @param {HTMLInputElement|HTMLTextAreaElement} input */
  #later(p, input) {
    clearTimeout(this.timers[p.key]);
    this.timers[p.key] = setTimeout(() => this.#commit(p, input), 400);
  }

  /** @param {Property} p @param {HTMLInputElement|HTMLTextAreaElement} input */
  #commit(p, input) {
    clearTimeout(this.timers[p.key]);
    const r = parseValue(p, input.value);
    if ('error' in r) return this.fieldError(p.key, `${input.value || '(empty)'} is ${r.error}`);
    this.fieldError(p.key, null);
    this.onChange(p.key, r.value);
  }

  /**
   * Mark one field invalid with a message (null clears it).
   * @param {string} key
   * @param {string|null} message
   */
  fieldError(key, message) {
    const input = this.form.querySelector(`#ctl-${CSS.escape(key)}`);
    const msg = /** @type {HTMLElement|null} */ (this.form.querySelector(`#err-${CSS.escape(key)}`));
    if (!input || !msg) return false;
    input.toggleAttribute('aria-invalid', Boolean(message));
    msg.hidden = !message;
    msg.textContent = message ?? '';
    // A message inside a closed group would be unseen: open it.
    const group = msg.closest('details');
    if (message && group) group.open = true;
    return true;
  }

  /**
   * A config error, said once: beside the field it names that was changed last (else its
   * refusal's field: "d_model: 32 is not divisible by heads = 3" from a link goes to heads),
   * announced (role=alert); the other fields it names are marked invalid and described by that
   * one message.
   * @param {string} message
   * @param {string[]} keys the fields its refusal names that have a control (keysOf)
   */
  configError(message, keys) {
    if (!keys.length) return false;
    const at = this.lastKey && keys.includes(this.lastKey) ? this.lastKey : keys[0];
    this.form.querySelector(`#err-${CSS.escape(at)}`)?.setAttribute('role', 'alert'); // before its text: announced
    if (!this.fieldError(at, message)) return false;
    for (const k of keys) {
      const input = this.form.querySelector(`#ctl-${CSS.escape(k)}`);
      if (k === at || !input) continue;
      input.setAttribute('aria-invalid', '');
      const own = input.getAttribute('aria-describedby') ?? '';
      input.setAttribute('data-describedby', own);
      input.setAttribute('aria-describedby', `${own} err-${at}`.trim());
    }
    return true;
  }

  /** Clear every field's error mark. */
  clearErrors() {
    for (const m of /** @type {NodeListOf<HTMLElement>} */ (this.form.querySelectorAll('.field-error'))) {
      m.hidden = true;
      m.textContent = '';
      m.removeAttribute('role');
    }
    for (const i of this.form.querySelectorAll('[aria-invalid]')) i.removeAttribute('aria-invalid');
    for (const i of this.form.querySelectorAll('[data-describedby]')) {
      i.setAttribute('aria-describedby', i.getAttribute('data-describedby') ?? '');
      i.removeAttribute('data-describedby');
    }
  }

  /**
   * The fields a refused config is about that have a control: its refusal's `field`
   * (common/refusal.js), then each parameter named after a field (config.heads_divide's d_model
   * and heads); `task`, the setting a task's field belongs to, is not one at fault. Never read
   * from the message's text.
   * @param {{refusal?: import('../common/refusal.js').Refusal}} check a CheckResult
   */
  keysOf(check) {
    const { field, params } = refusalOf(check);
    const named = [field, ...Object.keys(params).filter((k) => k !== 'task')];
    return [...new Set(named)].filter((k) => k && this.form.querySelector(`#ctl-${CSS.escape(k)}`));
  }
}
