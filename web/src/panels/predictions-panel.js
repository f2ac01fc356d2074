// A held-out batch: input, target and prediction per position, errors highlighted; and a
// free-input box that runs the model on the user's own tokens when every vocabulary entry is a
// single character (text tasks, digit tasks). An example wider than its column scrolls sideways,
// with a cue: the summary says so in words and the hidden side fades (data-more, style.css). Its
// words: the message table's panels part (`pred.*`, and the refusals part for the engine's refusals:
// engine-refusal.js), loaded before: loadMessages(lang, ['panels']).
import { el } from './dom.js';
import { translator } from '../common/messages.js';
import { refusalIn } from './engine-refusal.js';

/** @typedef {ReturnType<typeof translator>} Tr */

const SPACE = '␣';
// A probability for a tooltip (null when the model produced NaN).
const pct = (/** @type {number} */ p, /** @type {number} */ d) => (Number.isFinite(p) ? p.toFixed(d) : 'NaN');

/**
 * The examples without repeats (a small held-out set, such as a custom task's few held-out pairs,
 * fills the batch by drawing the same example again): the first of each input and target.
 * @param {import('../wasm-api').PredictionExample[]} examples
 */
export function distinct(examples) {
  const seen = new Set();
  return examples.filter((ex) => {
    const key = JSON.stringify([ex.inputs, ex.target]);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

export class PredictionsPanel {
  /**
   * @param {HTMLElement} list where examples go
   * @param {HTMLElement} free the free-input area
   * @param {(ids: number[]) => Promise<import('../wasm-api').RunResult>} run forward pass on token ids
   * @param {import('../common/messages.js').Lang} [lang] the language of its words
   */
  constructor(list, free, run, lang = 'en') {
    this.tr = translator(lang);
    this.lang = lang;
    this.list = list;
    this.free = free;
    this.run = run;
    /** @type {import('../wasm-api').SessionInfo|null} */
    this.info = null;
    /** @type {ResizeObserver|undefined} */
    this.resize = undefined;
  }

  /** Draw a Predictions object. @param {import('../wasm-api').Predictions} pred */
  update(pred) {
    const examples = distinct(pred.examples);
    const n = examples.length;
    const ok = examples.filter((e) => e.correct).length;
    const repeats = pred.examples.length - n;
    const tr = this.tr;
    this.list.replaceChildren(
      el(
        'p',
        { class: 'summary' },
        tr(n === 1 ? 'pred.summary1' : 'pred.summaryN', { ok, n }) +
          (repeats ? tr('pred.repeats', { n: pred.examples.length }) : ''),
      ),
      ...examples.map((ex, k) => (pred.per_sequence ? sequenceRow(ex, k, tr) : tokenRows(ex, k, tr))),
    );
    this.#watchOverflow();
  }

  // After layout: mark each example that does not fit (data-more = right, left or both, kept up
  // to date as it scrolls) and add the cue to the summary. Again when the column's width changes.
  #watchOverflow() {
    if (!this.resize && typeof ResizeObserver === 'function') {
      this.resize = new ResizeObserver(() => this.#markOverflow());
      this.resize.observe(this.list);
    }
    // Now, so that redrawn rows never show without their cue (a busy tab may run the next frame
    // late), and after the next layout in case the list was not laid out yet.
    this.#markOverflow();
    requestAnimationFrame(() => this.#markOverflow());
  }

  #markOverflow() {
    let cut = 0;
    let widest = 0;
    for (const ex of /** @type {NodeListOf<HTMLElement>} */ (this.list.querySelectorAll('.example'))) {
      const mark = () => {
        const hidden = ex.scrollWidth - ex.clientWidth;
        const left = ex.scrollLeft > 1;
        const right = ex.scrollLeft < hidden - 1;
        if (left || right) ex.dataset.more = left && right ? 'both' : left ? 'left' : 'right';
        else delete ex.dataset.more;
        ex.tabIndex = hidden > 1 ? 0 : -1; // one that scrolls takes the focus: keyboard users scroll it too
        return hidden > 1;
      };
      if (!ex.dataset.watched) {
        ex.dataset.watched = '';
        ex.addEventListener('scroll', mark, { passive: true });
      }
      if (mark()) cut++;
      widest = Math.max(widest, ex.querySelectorAll('.tok-row:last-child .tok').length);
    }
    const summary = this.list.querySelector('.summary');
    let cue = /** @type {HTMLElement|null} */ (this.list.querySelector('.scroll-cue'));
    if (!cut) return cue?.remove();
    if (!cue && summary) summary.append((cue = el('span', { class: 'scroll-cue' })));
    if (cue) cue.textContent = this.tr('pred.scroll', { n: widest });
  }

  /**
   * Set up the free-input box for a model (hidden when its vocabulary is not characters).
   * @param {import('../wasm-api').SessionInfo} info
   */
  setModel(info) {
    this.info = info;
    // Single characters, anchors ("[CLS]") and escapes ("\n", not typeable in one line) allowed.
    const chars = info.vocab.every((t) => [...t].length === 1 || /^\[.*\]$/.test(t) || /^\\.$/.test(t));
    this.free.hidden = !chars;
    /** @type {HTMLElement} */ (this.free.querySelector('.free-out')).replaceChildren();
  }

  /**
   * Map the typed text to ids, run the model, show its prediction at every position.
   * @param {string} text
   */
  async runText(text) {
    const { vocab, classes, config } = /** @type {import('../wasm-api').SessionInfo} */ (this.info); // setModel() came first
    const out = /** @type {HTMLElement} */ (this.free.querySelector('.free-out'));
    /** @type {number[]} */
    const ids = [];
    /** @type {Set<string>} */
    const unknown = new Set();
    // Without a space token (digit tasks), spaces only separate the tokens.
    const spaced = vocab.includes(SPACE) || vocab.includes(' ');
    for (const ch of text) {
      if (!spaced && /\s/.test(ch)) continue;
      const id = vocab.indexOf(ch === ' ' ? SPACE : ch);
      if (id < 0) unknown.add(ch);
      else ids.push(id);
    }
    // An answer-slot task (copy, sort, reverse: n symbols, then n slots): a question typed
    // without its slots gets them, so that the model has somewhere to answer.
    const slot = spaced ? -1 : vocab.indexOf('_');
    if (slot >= 0 && ids.length > 0 && !ids.includes(slot)) ids.push(...ids.map(() => slot));
    if (unknown.size) {
      out.replaceChildren(
        el(
          'p',
          { class: 'error' },
          this.tr('pred.notInVocab', { chars: [...unknown].map((c) => `“${c}”`).join(' '), vocab: vocab.join(' ') }),
        ),
      );
      return;
    }
    // The anchors the model was trained with go around the input, as in training.
    const anchor = (/** @type {string} */ name) => vocab.indexOf(name);
    if (config.anchors === 'cls' || config.anchors === 'cls_sep') ids.unshift(anchor('[CLS]'));
    if (config.anchors === 'bos') ids.unshift(anchor('[BOS]'));
    if (config.anchors === 'cls_sep') ids.push(anchor('[SEP]'));
    if (ids.length === 0 || ids.includes(-1)) {
      out.replaceChildren(el('p', { class: 'error' }, this.tr('pred.typeOne')));
      return;
    }
    try {
      const r = await this.run(ids);
      const best = r.probs.map((row) => row.indexOf(Math.max(...row)));
      const conf = r.probs.map((row) => Math.max(...row));
      out.replaceChildren(
        tokRow(this.tr('pred.input'), ...r.tokens.map((t) => tok(t))),
        tokRow(
          this.tr('pred.model'),
          ...best.map((c, i) =>
            tok(classes[c], { title: `p = ${pct(conf[i], 2)}`, style: `opacity:${0.35 + 0.65 * conf[i]}` }),
          ),
        ),
      );
    } catch (err) {
      // the engine's refusal (learned positions past their table, a pass too big ...) in the panel's language
      out.replaceChildren(el('p', { class: 'error' }, refusalIn(this.lang, err)));
    }
  }

  clear() {
    this.list.replaceChildren();
  }

  /** Stop watching the column's width. */
  dispose() {
    this.resize?.disconnect();
  }
}

/**
 * @param {string} text
 * @param {Record<string, string>} [attrs]
 */
function tok(text, attrs = {}) {
  return el('span', { class: 'tok', ...attrs }, text === '' ? '·' : text);
}

/**
 * One labelled row of tokens.
 * @param {string} label
 * @param {...(Node|string)} tokens
 */
function tokRow(label, ...tokens) {
  return el('div', { class: 'tok-row' }, el('span', { class: 'row-label' }, label), ...tokens);
}

/** @typedef {import('../wasm-api').PredictionExample} Example */

/** @param {Example} ex @param {number} k @param {Tr} tr */
function tokenRows(ex, k, tr) {
  const mask = /** @type {boolean[]} */ (ex.mask); // per-token examples have one
  const target = /** @type {string[]} */ (ex.target);
  const cls = (/** @type {number} */ i) =>
    !mask[i] ? 'tok off' : ex.prediction[i] === target[i] ? 'tok right' : 'tok wrong';
  return el(
    'div',
    {
      class: `example ${ex.correct ? 'correct' : 'incorrect'}`,
      'aria-label': tr(ex.correct ? 'pred.exampleCorrect' : 'pred.exampleErrors', { k: k + 1 }),
    },
    tokRow(tr('pred.input'), ...ex.inputs.map((t) => tok(t))),
    tokRow(tr('pred.target'), ...target.map((t, i) => tok(mask[i] ? t : '', { class: mask[i] ? 'tok' : 'tok off' }))),
    tokRow(
      tr('pred.model'),
      ...ex.prediction.map((t, i) =>
        tok(t, {
          class: cls(i),
          title:
            mask[i] && t !== target[i]
              ? tr('pred.wrongTitle', { p: pct(ex.confidence[i], 2) })
              : `p = ${pct(ex.confidence[i], 2)}`,
        }),
      ),
    ),
  );
}

/** @param {Example} ex @param {number} k @param {Tr} tr */
function sequenceRow(ex, k, tr) {
  const right = ex.correct;
  return el(
    'div',
    {
      class: `example ${right ? 'correct' : 'incorrect'}`,
      'aria-label': tr(right ? 'pred.exampleCorrect' : 'pred.exampleWrong', { k: k + 1 }),
    },
    tokRow(tr('pred.input'), ...ex.inputs.map((t) => tok(t))),
    tokRow(
      tr('pred.target'),
      tok(/** @type {string} */ (ex.target)),
      el('span', { class: 'row-label' }, tr('pred.model')),
      tok(ex.prediction[0], { class: right ? 'tok right' : 'tok wrong', title: `p = ${pct(ex.confidence[0], 2)}` }),
    ),
  );
}
