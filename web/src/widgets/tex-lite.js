// A few-kilobyte stand-in for KaTeX inside the widget build (web/build-widget.mjs maps `katex`
// here): it writes common TeX (Greek letters, operators, \frac, \sqrt, sub- and superscripts,
// \operatorname / \text / \mathrm) as text with <sub>/<sup>/<i> elements, so that the demos'
// formulas stay readable without KaTeX's ~70 KB of script and its fonts. It builds DOM nodes
// only (textContent), never HTML strings. The pages keep the real KaTeX.

/** @type {Record<string, string>} */
const SYMBOLS = {
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  delta: 'δ',
  epsilon: 'ε',
  varepsilon: 'ε',
  zeta: 'ζ',
  eta: 'η',
  theta: 'θ',
  vartheta: 'ϑ',
  iota: 'ι',
  kappa: 'κ',
  lambda: 'λ',
  mu: 'μ',
  nu: 'ν',
  xi: 'ξ',
  pi: 'π',
  rho: 'ρ',
  sigma: 'σ',
  tau: 'τ',
  upsilon: 'υ',
  phi: 'φ',
  varphi: 'φ',
  chi: 'χ',
  psi: 'ψ',
  omega: 'ω',
  Gamma: 'Γ',
  Delta: 'Δ',
  Theta: 'Θ',
  Lambda: 'Λ',
  Xi: 'Ξ',
  Pi: 'Π',
  Sigma: 'Σ',
  Phi: 'Φ',
  Psi: 'Ψ',
  Omega: 'Ω',
  top: '⊤',
  le: '≤',
  leq: '≤',
  ge: '≥',
  geq: '≥',
  ne: '≠',
  neq: '≠',
  approx: '≈',
  sim: '∼',
  equiv: '≡',
  cdot: '·',
  times: '×',
  div: '÷',
  pm: '±',
  mp: '∓',
  sum: 'Σ',
  prod: 'Π',
  int: '∫',
  infty: '∞',
  partial: '∂',
  nabla: '∇',
  in: '∈',
  notin: '∉',
  subset: '⊂',
  cup: '∪',
  cap: '∩',
  to: '→',
  rightarrow: '→',
  leftarrow: '←',
  Rightarrow: '⇒',
  mapsto: '↦',
  ldots: '…',
  dots: '…',
  cdots: '⋯',
  odot: '⊙',
  otimes: '⊗',
  oplus: '⊕',
  circ: '∘',
  lvert: '|',
  rvert: '|',
  vert: '|',
  mid: '|',
  lVert: '‖',
  rVert: '‖',
  Vert: '‖',
  langle: '⟨',
  rangle: '⟩',
  lfloor: '⌊',
  rfloor: '⌋',
  lceil: '⌈',
  rceil: '⌉',
  forall: '∀',
  exists: '∃',
  ell: 'ℓ',
  prime: '′',
  '{': '{',
  '}': '}',
  '|': '‖',
  '%': '%',
  '&': '&',
  '#': '#',
  _: '_',
  $: '$',
  ',': '\u2009',
  ';': '\u2005',
  ':': '\u2005',
  '!': '',
  ' ': ' ',
  quad: '\u2003',
  qquad: '\u2003\u2003',
};
// Operator names written upright.
const NAMES = [
  'max',
  'min',
  'exp',
  'log',
  'ln',
  'sin',
  'cos',
  'tan',
  'arg',
  'sup',
  'inf',
  'lim',
  'det',
  'dim',
  'softmax',
  'sign',
  'mod',
];
// Sizing and spacing commands that only change looks.
const IGNORED = [
  'left',
  'right',
  'big',
  'Big',
  'bigg',
  'Bigg',
  'bigl',
  'bigr',
  'Bigl',
  'Bigr',
  'displaystyle',
  'textstyle',
  'limits',
  'nolimits',
];
const TEXT = [
  'operatorname',
  'mathrm',
  'text',
  'textrm',
  'mathbf',
  'textbf',
  'boldsymbol',
  'mathit',
  'mathsf',
  'mathtt',
  'mathcal',
  'mathbb',
  'textit',
];
const FRACS = ['frac', 'tfrac', 'dfrac'];

/** @typedef {{cmd?: string, op?: string, ch?: string}} Token one of them set */

/** Tokens: {cmd}, {ch}, '{', '}', '^', '_'. @param {string} src */
function tokenize(src) {
  /** @type {Token[]} */
  const out = [];
  for (let i = 0; i < src.length;) {
    const c = src[i];
    if (c === '\\') {
      const m = /^\\([A-Za-z]+|.)/.exec(src.slice(i));
      if (!m) break;
      out.push({ cmd: m[1] });
      i += m[0].length;
      if (/^[A-Za-z]/.test(m[1])) while (src[i] === ' ') i++;
    } else {
      out.push(c === '{' || c === '}' || c === '^' || c === '_' ? { op: c } : { ch: c });
      i++;
    }
  }
  return out;
}

class Parser {
  /** @param {Token[]} tokens @param {Document} doc */
  constructor(tokens, doc) {
    this.t = tokens;
    this.i = 0;
    this.doc = doc;
  }

  /** @param {string} tag @param {...(Node|string)} kids */
  node(tag, ...kids) {
    const e = this.doc.createElement(tag);
    e.append(...kids);
    return e;
  }

  // A group: {...} or one token.
  /** @returns {Node} */
  atom(upright = false) {
    const tok = this.t[this.i];
    if (!tok) return this.doc.createTextNode('');
    if (tok.op === '{') {
      this.i++;
      const f = this.list('}', upright);
      this.i++; // the closing brace
      return f;
    }
    return this.list(null, upright, true);
  }

  // Items until `end` (or one item when `one`).
  /** @param {string|null} end */
  list(end, upright = false, one = false) {
    const f = this.doc.createDocumentFragment();
    while (this.i < this.t.length) {
      const tok = this.t[this.i];
      if (end && tok.op === end) break;
      if (!end && !one && tok.op === '}') {
        this.i++;
        continue;
      }
      let item;
      if (tok.op === '{') item = this.atom(upright);
      else if (tok.op === '^' || tok.op === '_') {
        this.i++;
        item = this.node(tok.op === '^' ? 'sup' : 'sub', this.atom(upright));
      } else if (tok.op === '}') {
        this.i++;
        continue;
      } else if (tok.cmd !== undefined) item = this.command(tok.cmd);
      else {
        this.i++;
        const ch = /** @type {string} */ (tok.ch); // neither an op nor a command
        item =
          !upright && /[A-Za-z]/.test(ch)
            ? this.node('i', ch)
            : this.doc.createTextNode(ch === '~' ? '\u00a0' : ch === '&' ? ' ' : ch);
      }
      f.append(item);
      if (one) break;
    }
    return f;
  }

  /** @param {string} cmd @returns {Node} */
  command(cmd) {
    this.i++;
    const text = (/** @type {string} */ s) => this.doc.createTextNode(s);
    if (Object.hasOwn(SYMBOLS, cmd)) return text(SYMBOLS[cmd]);
    if (NAMES.includes(cmd)) return text(cmd);
    if (IGNORED.includes(cmd)) return text('');
    if (cmd === '\\') return this.node('br');
    if (TEXT.includes(cmd)) return this.node('span', this.atom(true));
    if (FRACS.includes(cmd)) {
      const num = this.node('span', this.atom());
      const den = this.node('span', this.atom());
      const wrap = (/** @type {HTMLElement} */ e) => (e.textContent.length > 1 ? [text('('), e, text(')')] : [e]);
      return this.node('span', ...wrap(num), text('/'), ...wrap(den));
    }
    if (cmd === 'sqrt') {
      const arg = this.node('span', this.atom());
      return this.node('span', text('√'), ...(arg.textContent.length > 1 ? [text('('), arg, text(')')] : [arg]));
    }
    if (['hat', 'bar', 'tilde', 'vec', 'overline', 'widehat', 'widetilde'].includes(cmd)) {
      /** @type {Record<string, string>} */
      const marks = {
        hat: '\u0302',
        widehat: '\u0302',
        bar: '\u0304',
        overline: '\u0305',
        tilde: '\u0303',
        widetilde: '\u0303',
        vec: '\u20d7',
      };
      const arg = this.node('span', this.atom());
      arg.append(text(marks[cmd]));
      return arg;
    }
    return text(cmd); // unknown: its name, readable
  }
}

/**
 * KaTeX's render(), as text: replaces the element's content.
 * @param {string} tex
 * @param {HTMLElement} element
 * @param {{displayMode?: boolean}} [options]
 */
export function render(tex, element, options = {}) {
  const doc = element.ownerDocument ?? document;
  const p = new Parser(tokenize(String(tex)), doc);
  const box = doc.createElement(options.displayMode ? 'div' : 'span');
  box.className = `tex-lite${options.displayMode ? ' display' : ''}`;
  box.setAttribute('role', 'math');
  box.setAttribute('aria-label', String(tex));
  box.append(p.list(null));
  element.replaceChildren(box);
}

/** KaTeX's renderToString is not offered: the widget never builds HTML from strings. */
export function renderToString() {
  throw new Error('tex-lite: renderToString is not available in the widget build');
}

export default { render, renderToString };
