// "Explore the encoding" (issue 17 §3): the current model's position encoding as a function of
// distance, with its knobs (pair, position slider, RoPE scaling and factor, head, layer, probe).
// Every number comes from the engine's explore() (core/session_explore.cpp and the encoding's own
// file); explore-views.js picks the lines, this file owns the controls, the formula and the charts.
import { LineChart } from '../charts/line-chart.js';
import { drawPairDial } from '../charts/pair-dial.js';
import { chartsFor, pairSummary } from './explore-views.js';
import { exploreKnobs } from './explore-knobs.js';
import { formula } from './explain-panel.js';
import { el } from './dom.js';
import { described } from '../state/registry.js';
import { figureMenu } from './figure-menu.js';
import './explore.css';

/** @typedef {import('../wasm-api').ExploreData} ExploreData */
/** @typedef {import('../wasm-api').ExploreRequest} ExploreRequest */
/** @typedef {import('./explore-views.js').ChartSpec} ChartSpec */

const MAX_LENGTH = 512; // the engine's bound (session_explore.cpp)

export class ExplorePanel {
  /**
   * @param {HTMLElement} body
   * @param {(req: ExploreRequest) => Promise<ExploreData|undefined>} fetchData the current model's explore()
   */
  constructor(body, fetchData) {
    this.body = body;
    this.fetchData = fetchData;
    /** @type {import('./explore-knobs.js').ExploreChoice} */
    this.choice = {
      pair: 0,
      position: 0,
      scaling: 'none',
      factor: 4,
      layer: 0,
      head: 0,
      probe: 'trained',
    };
    /** @type {import('../wasm-api').SessionInfo|null} */
    this.info = null;
    /** @type {ExploreData|null} the last answer drawn */
    this.data = null;
    this.busy = false;
    this.dirty = false;
    this.visible = true;
    /** @type {LineChart[]} */
    this.charts = [];
    this.layout = '';
    this.knobs = '';
    this.controls = el('div', { class: 'explore-controls panel-tools' });
    this.formula = el('div', { class: 'explore-formula' });
    this.source = el('p', { class: 'muted explore-source' });
    this.summary = el('p', { class: 'explore-summary' });
    this.dial = el('canvas', { class: 'pair-dial', role: 'img' });
    this.grid = el('div', { class: 'explore-charts' });
    this.status = el('p', {
      class: 'muted explore-status',
      'aria-live': 'polite',
    });
    body.replaceChildren(
      this.controls,
      this.formula,
      this.source,
      this.status,
      el('div', { class: 'explore-main' }, this.grid, this.dial),
      this.summary,
    );
    // The system's light/dark switch: the dial redrawn in the new colours (LineChart restyles itself).
    matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', () => {
      if (this.data?.now.kind === 'rotary') this.#drawDial(this.data);
    });
    // Work only while on screen: a refresh off screen is remembered and made on the way in.
    new IntersectionObserver((entries) => {
      this.visible = entries.some((e) => e.isIntersecting);
      if (this.visible && this.dirty) this.refresh();
    }).observe(body);
  }

  /** A new model: controls back to their start. @param {import('../wasm-api').SessionInfo} info */
  setModel(info) {
    this.info = info;
    this.choice = { ...this.choice, pair: 0, position: 0, layer: 0, head: 0 };
    this.layout = '';
    this.knobs = '';
    this.data = null;
    this.refresh();
  }

  /** The model changed (a training step): fetch and redraw, coalesced, and only when visible. */
  refresh() {
    if (!this.info) return;
    if (this.busy || !this.visible) {
      this.dirty = true;
      return;
    }
    this.busy = true;
    this.dirty = false;
    this.fetchData(this.#request())
      .then((d) => d && this.#draw(d))
      .catch((err) => {
        this.status.textContent = `The engine could not compute this view: ${err.message}`;
      })
      .finally(() => {
        this.busy = false;
        if (this.dirty) this.refresh();
      });
  }

  /** @returns {ExploreRequest} */
  #request() {
    const seqLen = Number(this.info?.config.seq_len ?? 16);
    const length = Math.min(MAX_LENGTH, Math.max(16, 4 * seqLen));
    const c = this.choice;
    return {
      length,
      layer: c.layer,
      pair: c.pair,
      position: Math.min(c.position, length - 1),
      scaling: c.scaling,
      factor: c.factor,
    };
  }

  /** @param {ExploreData} d */
  #draw(d) {
    d = { ...d, describe: described(d.describe) }; // the prose is the registry's (state/registry.js)
    this.data = d;
    const kind = d.now.kind ?? 'none';
    this.body.dataset.kind = kind;
    this.body.dataset.step = String(d.step);
    const title = d.describe.title ?? d.describe.name;
    if (kind === 'none') return this.#drawNone(d, title);
    // The controls, formula and source change with the kind and the sizes (not while a slider moves).
    const knobs = JSON.stringify([
      kind,
      d.describe.name,
      d.now.pairs,
      d.now.distance?.length,
      d.now.layer !== undefined,
      d.now.formula,
    ]);
    if (knobs !== this.knobs) {
      this.knobs = knobs;
      this.#controlsFor(d);
      this.formula.replaceChildren(formula(d.now.formula ?? ''));
      this.source.replaceChildren(
        'Computed by the engine in ',
        el('code', {}, d.now.source ?? ''),
        '; at init: a fresh model with the same config and seed.',
      );
    }
    const specs = chartsFor(d, this.choice);
    const layout = JSON.stringify([knobs, specs.map((s) => [s.title, s.series, s.markers, s.yRange])]);
    if (layout !== this.layout) {
      this.layout = layout;
      this.#clearCharts();
      for (const s of specs) this.#addChart(s, d.describe.name);
    }
    specs.forEach((s, i) => {
      const chart = this.charts[i];
      chart.reset();
      s.xs.forEach((x, r) =>
        chart.addDataPoint(x, Object.fromEntries(s.series.map((q) => [q.key, s.cols[q.key]?.[r] ?? null]))),
      );
    });
    this.status.textContent = `${title} at step ${d.step}; ${d.now.distance?.length ?? 0} distances.`;
    this.summary.textContent = kind === 'rotary' ? pairSummary(d) : this.#biasSummary(d);
    this.dial.hidden = kind !== 'rotary';
    if (kind === 'rotary') this.#drawDial(d);
  }

  /**
   * An encoding with no explorer view: everything emptied, and the status says where to look.
   * @param {ExploreData} d
   * @param {string} title the encoding's
   */
  #drawNone(d, title) {
    this.#clearCharts();
    this.controls.replaceChildren();
    this.formula.replaceChildren();
    this.source.textContent = '';
    this.summary.textContent = '';
    this.dial.hidden = true;
    this.status.textContent = `${title} has no explorer view: it ${d.describe.where}. The Position encoding panel above shows what it computes.`;
  }

  /**
   * One chart of the view, with its title and figure menu, at the end of the grid.
   * @param {ChartSpec} s
   * @param {string} name the encoding's (in the figure's file name)
   */
  #addChart(s, name) {
    const box = el('div', { class: 'explore-chart' });
    this.grid.append(box);
    const chart = new LineChart(box, {
      title: s.title,
      series: s.series,
      xLabel: s.xLabel,
      markers: s.markers,
      yRange: s.yRange,
      height: 190,
    });
    this.charts.push(chart);
    const file = () => `attnplay-explore-${name}-${this.charts.indexOf(chart) + 1}`;
    box.prepend(
      el(
        'div',
        { class: 'explore-chart-head' },
        el('p', { class: 'explore-chart-title' }, s.title),
        figureMenu(() => (chart.run.xs.length ? chart.figure() : null), file),
      ),
    );
  }

  #clearCharts() {
    for (const c of this.charts) c.destroy();
    this.charts = [];
    this.grid.replaceChildren();
  }

  /** @param {ExploreData} d */
  #drawDial(d) {
    const p = d.now.pair;
    if (!p) return;
    const h = Math.max(0, this.choice.head);
    const probe = this.choice.probe;
    const pick = (/** @type {'q'|'q_rotated'|'k_rotated'} */ f) =>
      ({ ...p[f], ...(d.init.pair?.[f] ?? {}) })[probe]?.[h] ?? [0, 0];
    drawPairDial(this.dial, {
      q: pick('q'),
      qRot: pick('q_rotated'),
      k: pick('k_rotated'),
    });
    this.dial.setAttribute(
      'aria-label',
      `pair ${p.index} of head ${h + 1}: the query turned by ${p.angle.toFixed(2)} rad at m = ${p.position}, the key at position 0`,
    );
  }

  /** @param {ExploreData} d */
  #biasSummary(d) {
    const v = d.now;
    if (v.buckets)
      return `Dashed vertical lines: where T5's logarithmic buckets start (exact buckets up to |d| = ${v.max_exact}; every distance from ${v.max_distance} on shares the last bucket).`;
    if (v.slopes)
      return `Slopes m_h: ${/** @type {number[]} */ (v.slopes).map((m) => m.toPrecision(3)).join(', ')}; fixed, so the dashed (init) and solid lines coincide.`;
    if (v.kind === 'absolute')
      return `From p = ${d.request.position}: the similarity of position ${d.request.position} to the positions around it.`;
    return '';
  }

  /** The knobs of this kind of view, rebuilt when the kind or its sizes change. @param {ExploreData} d */
  #controlsFor(d) {
    const sizes = {
      heads: Number(this.info?.config.heads ?? 1),
      layers: Number(this.info?.config.layers ?? 1),
    };
    this.controls.replaceChildren(...exploreKnobs(d, this.choice, sizes, () => this.refresh()));
  }
}
