// Generate panel: continue a prompt with the model being trained, token by token, each token
// coloured by the probability the model gave it. Next-token tasks (text, elman ...) sample
// autoregressively; answer-slot tasks (copy, sort, addition ...) fill the answer slots, and a
// held-out example can be loaded so that the model's answer stands next to the right one.
// Works while training runs or is paused (the worker interleaves requests between chunks). Its
// words: the message table's panels part (`gen.*`, and the refusals part for the engine's refusals:
// engine-refusal.js), loaded before: loadMessages(lang, ['panels']).
import { el } from './dom.js';
import { translator } from '../common/messages.js';
import { refusalIn } from './engine-refusal.js';

/**
 * An answer-slot task (copy, sort, reverse, custom pairs): a slot token "_" and no space token
 * (a character vocabulary such as text's may hold "_" as a character).
 * @param {import('../wasm-api').SessionInfo} info
 */
export function isSlotTask(info) {
  return info.vocab.includes('_') && !info.vocab.includes('␣') && !info.vocab.includes(' ');
}

/** Background colour for a probability: red (unsure) to green (sure). @param {number} p */
export function probColour(p) {
  const hue = Math.round(120 * Math.max(0, Math.min(1, p)));
  return `hsl(${hue} 70% 85%)`;
}

/**
 * The model, as this panel uses it (client/session.js's EngineSession has it; the panel imports no
 * client module, not even its type).
 * @typedef {{generate(prompt: string, options?: {maxNew?: number, temperature?: number, topK?: number, seed?: number}):
 *   Promise<{mode: 'next_token'|'slots', ids: number[], tokens: string[], probs: number[], text: string}>}} Generator
 */

export class GeneratePanel {
  /**
   * @param {HTMLElement} root the panel body
   * @param {() => Generator|null} getModel
   * @param {() => Promise<import('../wasm-api').Predictions>} heldOut resolves with a predictions object (for slot tasks)
   * @param {import('../common/messages.js').Lang} [lang] the language of its words
   */
  constructor(root, getModel, heldOut, lang = 'en') {
    const tr = (this.tr = translator(lang));
    this.lang = lang;
    this.root = root;
    this.getModel = getModel;
    this.heldOut = heldOut;
    /** @type {import('../wasm-api').SessionInfo|null} */
    this.info = null;
    /** @type {string[]|null} the held-out example's answer, shown under the model's */
    this.expected = null;
    /** @type {(id: string, label: string, attrs: Record<string, any>) => HTMLLabelElement} */
    const field = (id, label, attrs) =>
      el('label', { class: 'gen-field', for: id }, label, el('input', { id, ...attrs }));
    this.prompt = el('input', { id: 'gen-prompt', type: 'text', autocomplete: 'off', spellcheck: false });
    /** @type {string|null} the tokens count before a held-out example set it (restored on a new prompt) */
    this.userTokens = null;
    // A prompt of one's own is no longer the example: no comparison with its answer, and the
    // tokens count goes back to what it was.
    this.prompt.addEventListener('input', () => this.#ownPrompt());
    this.tokens = field('gen-tokens', tr('gen.tokens'), { type: 'number', min: 1, max: 512, value: 32 });
    /** @type {boolean} the person typed a tokens count: a new model keeps it */
    this.tokensEdited = false;
    this.tokens.querySelector('input')?.addEventListener('input', () => (this.tokensEdited = true));
    this.temp = field('gen-temperature', tr('gen.temperature'), {
      type: 'number',
      min: 0,
      max: 5,
      step: 0.1,
      value: 0.8,
    });
    this.topk = field('gen-topk', tr('gen.topk'), { type: 'number', min: 0, max: 1000, value: 0 });
    this.seed = field('gen-seed', tr('gen.seed'), { type: 'number', min: 0, value: 1 });
    this.example = el(
      'button',
      { type: 'button', class: 'gen-example', onclick: () => this.#loadExample() },
      tr('gen.example'),
    );
    this.out = el('div', { class: 'gen-out', 'aria-live': 'polite' });
    this.form = el(
      'form',
      { class: 'gen-form', onsubmit: (/** @type {Event} */ e) => (e.preventDefault(), this.generate()) },
      el('label', { for: 'gen-prompt' }, tr('gen.prompt')),
      el('div', { class: 'free-row' }, this.prompt, el('button', { type: 'submit', id: 'gen-run' }, tr('gen.run'))),
      el('div', { class: 'gen-options' }, this.tokens, this.temp, this.topk, this.seed, this.example),
    );
    root.replaceChildren(this.form, this.out);
  }

  /** A new model: say what generation means for its task. @param {import('../wasm-api').SessionInfo} info */
  setModel(info) {
    this.info = info;
    this.#ownPrompt();
    const slots = isSlotTask(info);
    if (!this.tokensEdited) this.#defaultTokens(info, slots);
    const bidirectional = !info.config.causal;
    this.example.hidden = !slots;
    this.form.hidden = info.per_sequence || (!slots && bidirectional);
    const note = info.per_sequence ? 'perSequence' : !slots && bidirectional ? 'encoder' : slots ? 'slots' : 'next';
    this.out.replaceChildren(el('p', { class: 'muted' }, this.tr(`gen.note.${note}`)));
    if (!this.prompt.value) this.prompt.value = info.config.task === 'text' ? 'The ' : '';
  }

  /**
   * The tokens count a new model starts with: on an answer-slot task, its answer length (the
   * scored slots of a held-out example), so that a prompt of the training length fits; else 32.
   * @param {import('../wasm-api').SessionInfo} info
   * @param {boolean} slots
   */
  async #defaultTokens(info, slots) {
    const input = /** @type {HTMLInputElement} */ (this.tokens.querySelector('input'));
    if (!slots) input.value = '32';
    else
      try {
        const ex = (await this.heldOut()).examples[0];
        const n = /** @type {boolean[]} */ (ex?.mask ?? []).filter(Boolean).length;
        if (n > 0 && this.info === info && !this.tokensEdited && this.expected === null) input.value = String(n);
      } catch {
        // no held-out batch (a model being replaced): the count stays as it was
      }
    if (this.info === info) this.form.dataset.tokens = input.value; // the count is settled (tests wait for it)
  }

  async #loadExample() {
    const pred = await this.heldOut();
    const ex = pred.examples[0];
    const slot = ex.inputs.indexOf('_');
    const question = ex.inputs.slice(ex.inputs[0].startsWith('[') ? 1 : 0, slot);
    this.prompt.value = question.join(' ');
    const answer = /** @type {string[]} */ (ex.target)
      .slice(slot)
      .filter((t, i) => /** @type {boolean[]} */ (ex.mask)[slot + i]);
    this.expected = answer;
    const tokens = /** @type {HTMLInputElement} */ (this.tokens.querySelector('input'));
    this.userTokens ??= tokens.value;
    tokens.value = String(answer.length);
    return this.generate();
  }

  #ownPrompt() {
    if (this.expected === null) return;
    this.expected = null;
    if (this.userTokens !== null)
      /** @type {HTMLInputElement} */ (this.tokens.querySelector('input')).value = this.userTokens;
    this.userTokens = null;
  }

  /** Run the generation and draw the tokens. */
  async generate() {
    const model = this.getModel();
    if (!model) return;
    const num = (/** @type {HTMLElement} */ f) =>
      Number(/** @type {HTMLInputElement} */ (f.querySelector('input')).value);
    // On an answer-slot task the engine adds the slots: slots typed at the end ("3 1 4 _ _ _",
    // a held-out input pasted) are taken off the prompt and set the count.
    let prompt = this.prompt.value;
    let maxNew = num(this.tokens);
    if (this.info && isSlotTask(this.info)) {
      const typed = prompt.match(/(?:\s*_)+\s*$/)?.[0] ?? '';
      const n = (typed.match(/_/g) ?? []).length;
      if (n > 0) [prompt, maxNew] = [prompt.slice(0, prompt.length - typed.length), n];
    }
    try {
      const r = await model.generate(prompt, {
        maxNew,
        temperature: num(this.temp),
        topK: num(this.topk),
        seed: num(this.seed),
      });
      const toks = r.tokens.map((t, i) =>
        el(
          'span',
          {
            class: 'gen-tok',
            title: `p = ${r.probs[i].toFixed(3)}`,
            style: `background:${probColour(r.probs[i])};color:#202124`,
          },
          t,
        ),
      );
      const tr = this.tr;
      const rows = [el('div', { class: 'gen-line' }, el('span', { class: 'gen-label' }, tr('pred.model')), ...toks)];
      if (this.expected && r.mode === 'slots') {
        const right = this.expected.every((t, i) => r.tokens[i] === t);
        rows.push(
          el(
            'div',
            { class: 'gen-line' },
            el('span', { class: 'gen-label' }, tr('gen.right')),
            ...this.expected.map((t) => el('span', { class: 'gen-tok' }, t)),
          ),
        );
        rows.push(el('p', { class: right ? 'ok' : 'error' }, tr(right ? 'gen.isRight' : 'gen.differs')));
      }
      this.out.replaceChildren(...rows);
      this.out.dataset.generated = String(r.tokens.length);
    } catch (err) {
      // the engine's refusal (a character not in the vocabulary, a prompt too long ...) in the panel's language
      this.out.replaceChildren(el('p', { class: 'error' }, refusalIn(this.lang, err)));
    }
  }
}
