// Shared pieces of the demo modules: the site's element builder (re-exported from panels/dom.js),
// styles injected into the demo's root (an element or a ShadowRoot, so the demos also work inside
// the embeddable widget), KaTeX formulas, number formats and the config overrides a demo accepts. No global document queries.
import katex from 'katex';
import katexCss from 'katex/dist/katex.min.css?inline';
import uplotCss from 'uplot/dist/uPlot.min.css?inline';
import demoCss from './demos.css?inline';
import { el } from '../panels/dom.js';

export { el };

/**
 * What each demo module (permutation/, probe/, extrapolation/) exports, as the demo pages and the
 * widget load it: mount(root, options) -> a handle.
 * @typedef {{pool: import('../client/pool.js').WorkerPool, registry?: import('../wasm-api').Registry,
 *   LineChart?: import('../charts/line-chart-base.js').LineChartClass, compact?: boolean, autoplay?: boolean,
 *   config?: Record<string, any>, lang?: import('../common/messages.js').Lang, onDone?: () => void}} DemoOptions lang: the language
 *   of its visible strings (the message table, common/messages.js; English when not given); onDone:
 *   called each time all its models have finished (completion, below)
 * @typedef {{start(): Promise<void>, pause(): Promise<void>, dispose(): Promise<void>, ready: Promise<void>,
 *   root: HTMLElement, results?(): any, refusals: import('../state/fields.js').FieldRefusal[]}} DemoHandle
 * @typedef {{mount(root: HTMLElement|ShadowRoot, options: DemoOptions): DemoHandle}} DemoModule
 */

/**
 * A demo's "all done" signal: calls onDone (the mount option) once each time the demo's models all
 * become finished (their budget reached, learned, or failed), and again after "Train longer" or a
 * rebuild has made them finish anew. The widget turns it into its `trained` event.
 * @param {(() => void)|undefined} onDone
 * @returns {(complete: boolean) => void} told, at each change, whether every model has finished
 */
export function completion(onDone) {
  let was = false;
  return (complete) => {
    if (complete && !was) onDone?.();
    was = complete;
  };
}

/**
 * The handle a demo module's mount() returns, for a demo object (a class of the demo's index.js).
 * @template {{ui: {box: HTMLElement}, ready: Promise<void>, start(): Promise<void>, pause(): Promise<void>,
 *   results(): any, dispose(): Promise<void>, refusals: import('../state/fields.js').FieldRefusal[]}} D
 * @param {D} demo
 */
export function demoHandle(demo) {
  return {
    root: demo.ui.box,
    /** Resolves once the demo's models are built (a rebuild makes a new one). */
    get ready() {
      return demo.ready;
    },
    start: () => demo.start(),
    pause: () => demo.pause(),
    /** @returns {ReturnType<D['results']>} the demo's measured results (see its results()) */
    results: () => demo.results(),
    dispose: () => demo.dispose(),
    /** @type {import('../state/fields.js').FieldRefusal[]} the options it refused (options.js), its defaults taken instead */
    refusals: demo.refusals,
  };
}

/**
 * The options every demo needs, or an error naming the one missing.
 * @param {string} demo its name, for the message
 * @param {DemoOptions|Record<string, any>} options
 * @param {boolean} [chart] whether it draws line charts (options.LineChart)
 * @returns {{pool: import('../client/pool.js').WorkerPool, LineChart: import('../charts/line-chart-base.js').LineChartClass}}
 *   (LineChart: undefined when `chart` is false)
 */
export function requireOptions(demo, options, chart = true) {
  if (!options.pool) throw new Error(`${demo} demo: options.pool (a WorkerPool) is required`);
  if (chart && !options.LineChart)
    throw new Error(`${demo} demo: options.LineChart (a line chart class of web/src/charts/) is required`);
  return { pool: options.pool, LineChart: /** @type {any} */ (options.LineChart) };
}

const fontDocs = new WeakSet();

/**
 * Put the demos' CSS (with uPlot's and KaTeX's) into `root`. Inside a ShadowRoot, @font-face
 * rules are ignored, so KaTeX's stylesheet also goes once into the owning document's head.
 * @param {HTMLElement|ShadowRoot} root
 * @returns {HTMLStyleElement}
 */
export function injectStyles(root) {
  const style = document.createElement('style');
  style.dataset.demoStyles = '';
  style.textContent = `${uplotCss}\n${katexCss}\n${demoCss}`;
  root.prepend(style);
  const doc = root.ownerDocument ?? document;
  if (typeof ShadowRoot !== 'undefined' && root instanceof ShadowRoot && !fontDocs.has(doc)) {
    fontDocs.add(doc);
    const fonts = doc.createElement('style');
    fonts.dataset.katexFonts = '';
    fonts.textContent = katexCss;
    doc.head.append(fonts);
  }
  return style;
}

/**
 * A KaTeX formula element (display or inline).
 * @param {string} tex
 * @param {boolean} [display]
 */
export function tex(tex, display = false) {
  const box = el(display ? 'div' : 'span', { class: display ? 'apd-formula' : 'apd-math' });
  try {
    katex.render(tex, box, { displayMode: display, throwOnError: false, output: 'htmlAndMathml' });
  } catch {
    box.textContent = tex;
  }
  return box;
}

/**
 * A paragraph from a template of text and inline math: p`text ${m('x')} more`.
 * Parts are strings or nodes.
 * @param {...import('../panels/dom.js').Child} parts
 */
export function para(...parts) {
  return el('p', {}, ...parts);
}

/** Inline math. */
export const m = (/** @type {string} */ s) => tex(s, false);

/**
 * A sentence of the message table with nodes in it: `text`'s {name} placeholders replaced by
 * `parts[name]` (a formula, a control), the rest kept as text.
 * @param {string} text
 * @param {Record<string, Node|string>} parts
 * @returns {(Node|string)[]}
 */
export function rich(text, parts) {
  return text
    .split(/(\{[a-zA-Z0-9]+\})/)
    .map((piece) => {
      const name = /^\{([a-zA-Z0-9]+)\}$/.exec(piece)?.[1];
      return name !== undefined && Object.hasOwn(parts, name) ? parts[name] : piece;
    })
    .filter((p) => p !== '');
}

/**
 * A difference or spread: '0' when exactly zero, else 2 significant digits in scientific form.
 * @param {number|null|undefined} v
 */
export function sci(v) {
  if (v == null || Number.isNaN(v)) return '–';
  if (v === 0) return '0';
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a >= 0.01 && a < 1e4) return Number(v.toPrecision(2)).toString();
  const [mant, exp] = v.toExponential(1).split('e');
  /** @type {Record<string, string>} */
  const sup = { '-': '⁻', '+': '', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
  return `${mant}×10${[...exp].map((ch) => sup[ch]).join('')}`;
}

export { pct } from './percent.js';

/**
 * Max |a − b| over two equally shaped matrices.
 * @param {number[][]} a
 * @param {number[][]} b
 */
export function maxAbsDiff(a, b) {
  let d = 0;
  for (let i = 0; i < a.length; i++) for (let j = 0; j < a[i].length; j++) d = Math.max(d, Math.abs(a[i][j] - b[i][j]));
  return d;
}

/** A disposable group of event listeners and timers. */
export class Disposer {
  constructor() {
    /** @type {(() => void)[]} */
    this.fns = [];
  }
  /**
   * @template {() => void} F
   * @param {F} fn
   */
  add(fn) {
    this.fns.push(fn);
    return fn;
  }
  /**
   * @param {EventTarget} target
   * @param {string} type
   * @param {EventListener} fn
   */
  listen(target, type, fn) {
    target.addEventListener(type, fn);
    this.fns.push(() => target.removeEventListener(type, fn));
  }
  /** @param {() => void} fn @param {number} ms */
  interval(fn, ms) {
    const id = setInterval(fn, ms);
    this.fns.push(() => clearInterval(id));
    return id;
  }
  run() {
    for (const f of this.fns.splice(0).reverse()) {
      try {
        f();
      } catch {
        /* already gone */
      }
    }
  }
}

/**
 * Colours for curves, one per encoding, stable across demos: the Okabe–Ito palette (distinct
 * under the common colour-vision deficiencies) for the eight most used, then Paul Tol's muted
 * colours, then five of ColorBrewer's Dark2, then Tableau's cyan, then ColorBrewer's Set1 brown, Dark2 teal and
 * Paired blue for the TDLM variants; none is grey. All readable on the light and the dark background.
 * @type {Record<string, string>}
 */
export const ENCODING_COLORS = {
  none: '#8a8f94',
  learned: '#0072b2',
  sinusoidal: '#009e73',
  rope: '#e69f00',
  alibi: '#cc79a7',
  t5_bias: '#d55e00',
  shaw: '#56b4e9',
  urpe: '#b8a200',
  fire: '#7b5ea7',
  xpos: '#999933',
  contextual1: '#44aa99',
  contextual2: '#aa4499',
  kerple: '#cc6677',
  scaled_sinusoidal: '#66a61e',
  dynamic_bias: '#a6761d',
  cope: '#7570b3',
  forget: '#e7298a',
  randomized: '#17becf',
  rope_embed: '#a65628',
  qk_sinusoidal: '#1b9e77',
  qk_learned: '#1f78b4',
};

export const colorOf = (/** @type {string} */ name) => ENCODING_COLORS[name] ?? '#3c4043';
