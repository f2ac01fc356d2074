// The knobs of "Explore the encoding" (explore-panel.js), for one kind of view: rotary (pair,
// position, scaling, factor, q/k probe, head), bias (head or every head), absolute (from p), and
// the layer where the view has one. Each knob writes its value into the panel's choice and asks
// for a redraw; the panel owns the choice, the request and the charts.
import { probeRows } from './explore-views.js';
import { el } from './dom.js';

/** @typedef {import('../wasm-api').ExploreData} ExploreData */
/** @typedef {'none'|'pi'|'ntk'|'yarn'} Scaling */
/**
 * What the knobs show: the panel's choice, written by them.
 * @typedef {{pair: number, position: number, scaling: Scaling, factor: number, layer: number, head: number, probe: string}} ExploreChoice
 */

const PROBE_NAMES = /** @type {const} */ ([
  ['trained', 'trained'],
  ['init', 'at init'],
  ['random', 'random'],
  ['ones', 'all ones'],
]);
/** @type {[Scaling, string][]} */
const SCALINGS = [
  ['none', 'none'],
  ['pi', 'pi'],
  ['ntk', 'ntk'],
  ['yarn', 'yarn'],
];

/** `k` options "word 1".."word k", valued 0..k-1. @param {number} k @param {string} word */
const numbered = (k, word) =>
  Array.from({ length: k }, (_, i) => /** @type {[string, string]} */ ([String(i), `${word} ${i + 1}`]));

/** The labelled controls of one view, in order, each calling `changed` after it sets its value. */
class Knobs {
  /** @param {() => void} changed */
  constructor(changed) {
    this.changed = changed;
    /** @type {HTMLElement[]} */
    this.out = [];
  }

  /**
   * @param {string} id
   * @param {string} label
   * @param {[string, string][]} opts [value, text]
   * @param {string} value
   * @param {(v: string) => void} set
   */
  select(id, label, opts, value, set) {
    const s = el(
      'select',
      {
        id,
        onchange: () => {
          set(s.value);
          this.changed();
        },
      },
      opts.map(([val, text]) => el('option', { value: val }, text)),
    );
    s.value = value;
    this.out.push(el('label', { for: id }, label), s);
  }

  /**
   * A slider 0..max with its value shown beside it.
   * @param {string} id
   * @param {string} label
   * @param {number} max
   * @param {number} value
   * @param {(v: number) => void} set
   */
  range(id, label, max, value, set) {
    const shown = el('output', { for: id }, String(value));
    const r = el('input', {
      type: 'range',
      id,
      min: '0',
      max: String(max),
      step: '1',
      value: String(Math.min(value, max)),
      oninput: () => {
        shown.textContent = r.value;
        set(Number(r.value));
        this.changed();
      },
    });
    this.out.push(el('label', { for: id }, label), r, shown);
  }

  /** The RoPE scaling factor, 1..64 (other values are ignored). @param {ExploreChoice} c */
  factor(c) {
    const f = el('input', {
      type: 'number',
      id: 'explore-factor',
      min: '1',
      max: '64',
      step: '0.5',
      value: String(c.factor),
      onchange: () => {
        const x = Number(f.value);
        if (x >= 1 && x <= 64) {
          c.factor = x;
          this.changed();
        }
      },
    });
    this.out.push(el('label', { for: 'explore-factor' }, 'factor'), f);
  }
}

/**
 * The rotary view's knobs: pair, position, scaling, factor, q/k probe, head (one head: none is -1).
 * @param {Knobs} k
 * @param {ExploreData} d
 * @param {ExploreChoice} c
 * @param {number} heads
 */
function rotaryKnobs(k, d, c, heads) {
  const n = d.now.distance?.length ?? 1;
  c.head = Math.max(0, c.head);
  const pairs = Array.from(
    { length: d.now.pairs ?? 1 },
    (_, i) => /** @type {[string, string]} */ ([String(i), String(i)]),
  );
  k.select('explore-pair', 'pair i', pairs, String(c.pair), (x) => {
    c.pair = Number(x);
  });
  k.range('explore-position', 'position m', n - 1, c.position, (x) => {
    c.position = x;
  });
  k.select('explore-scaling', 'scaling', SCALINGS, c.scaling, (x) => {
    c.scaling = /** @type {Scaling} */ (x);
  });
  k.factor(c);
  const probes = PROBE_NAMES.filter(([p]) => probeRows(d, 'cosine')[p]).map(
    ([p, t]) => /** @type {[string, string]} */ ([p, t]),
  );
  k.select('explore-probe', 'q, k', probes, c.probe, (x) => {
    c.probe = x;
  });
  k.select('explore-head', 'head', numbered(heads, 'head'), String(c.head), (x) => {
    c.head = Number(x);
  });
}

/**
 * The knobs for one kind of view, rebuilt by the panel when the kind or its sizes change. They
 * write into `c` (and bring its head into the kind's range now) and call `changed` on an edit.
 * @param {ExploreData} d
 * @param {ExploreChoice} c
 * @param {{heads: number, layers: number}} sizes the model's
 * @param {() => void} changed
 * @returns {HTMLElement[]}
 */
export function exploreKnobs(d, c, { heads, layers }, changed) {
  const v = d.now;
  const k = new Knobs(changed);
  if (v.kind === 'rotary') rotaryKnobs(k, d, c, heads);
  else if (v.kind === 'bias')
    k.select(
      'explore-head',
      'head',
      [['-1', 'every head'], ...numbered(heads, 'head')],
      String((c.head = c.head > 0 ? c.head : -1)),
      (x) => {
        c.head = Number(x);
      },
    );
  else
    k.range('explore-position', 'from p', (v.distance?.length ?? 1) - 1, c.position, (x) => {
      c.position = x;
    });
  if (layers > 1 && (v.kind === 'rotary' || v.layer !== undefined))
    k.select('explore-layer', 'layer', numbered(layers, 'layer'), String(c.layer), (x) => {
      c.layer = Number(x);
    });
  return k.out;
}
