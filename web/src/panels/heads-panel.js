// "Heads": what each attention head does, measured by the engine on the replay's frames
// (core/session_diagnostics.cpp, core/model/head_stats.hpp): one card per layer × head with its
// measures, a sparkline of each over the replay's kept steps (the dot: the step shown; dashed:
// a label's threshold), and the labels it earns, each with its evidence (the measured value
// against the threshold). The thresholds are stated above the cards, from the engine's own list.
// It follows the replay: the latest step while the replay is live, else the step it shows. Its
// words: the message table's panels part, in its language (loaded before: loadMessages(lang, ['panels'])).
import { el } from './dom.js';
import { drawSparkline } from '../charts/sparkline.js';
import { nearestIndex } from '../common/nearest.js';
import { MEASURES, evidenceOf, nameOf, hintOf, fixed, signed, labelWord, whyOf, withheldOf } from './heads-labels.js';
import { translator } from '../common/messages.js';
import { refusalIn } from './engine-refusal.js';
/** @typedef {import('./heads-labels.js').HeadResult} HeadResult */
import './heads.css';

/**
 * The model, as this panel uses it (client/session.js's EngineSession has it; the panel imports no
 * client module, not even its type).
 * @typedef {{heads(step?: number, history?: boolean): Promise<{diagnostics: import('../wasm-api').HeadDiagnostics,
 *   history?: import('../wasm-api').HeadHistory}>}} Session
 */
/** @typedef {import('../wasm-api').HeadDiagnostics} HeadDiagnostics */
/** @typedef {import('../wasm-api').HeadHistory} HeadHistory */
/** @typedef {import('../wasm-api').HeadMeasures} HeadMeasures */

export class HeadsPanel {
  /**
   * @param {HTMLElement} box the panel's body @param {() => Session|null} model the current model
   * @param {{replay?: boolean, lang?: import('../common/messages.js').Lang}} [opts] replay: false
   *   where no replay bar goes with the panel (a widget): the sparklines are then said to run over
   *   the steps the engine kept; lang: the language of its words (default en)
   */
  constructor(box, model, { replay = true, lang = 'en' } = {}) {
    this.model = model;
    this.lang = lang;
    const tr = (this.tr = translator(lang));
    this.replay = replay;
    this.box = box; // data-step: the step shown; data-kept: the history's length
    this.token = 0;
    this.step = -1; // the replay step asked for (-1: the latest)
    /** @type {HeadHistory|null} */
    this.history = null;
    /** @type {HeadDiagnostics|null} */
    this.shown = null;
    this.status = el('p', { class: 'heads-status', role: 'status' }, tr('heads.noModel'));
    this.rules = el('ul', { class: 'heads-rules', 'aria-label': tr('heads.rulesAria') });
    this.grid = el('div', { class: 'heads-grid' });
    this.error = el('p', { class: 'error heads-error', role: 'alert', hidden: true });
    // The sparklines take the theme's ink: drawn again when the colour scheme changes.
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => this.shown && this.#render(this.shown));
    box.replaceChildren(
      this.status,
      el('p', { class: 'heads-rules-title' }, tr('heads.rulesTitle')),
      this.rules,
      this.error,
      this.grid,
    );
  }

  /** A new model, a reset or an import: forget the last one's numbers. @param {import('../wasm-api').SessionInfo} _info */
  setModel(_info) {
    this.token++;
    this.step = -1;
    this.history = this.shown = null;
    this.grid.replaceChildren();
    this.status.textContent = this.tr('heads.measuring');
    delete this.box.dataset.step;
  }

  /**
   * Measure again at `step` (-1: the latest). The history crosses only when the replay's kept
   * steps changed (`steps`: ReplayIndex.steps); otherwise its latest point is updated here.
   * @param {number} step @param {number[]} [steps]
   */
  async refresh(step = this.step, steps) {
    const model = this.model();
    if (!model) return;
    this.step = step;
    const token = ++this.token;
    const h = this.history;
    const kept = (/** @type {number[]} */ s) => s.slice(0, -1).join();
    const stale = !h || !steps || kept(h.steps) !== kept(steps) || (step >= 0 && !h.steps.includes(step));
    try {
      let r = await model.heads(step, stale).catch(async (err) => {
        if (step < 0) throw err; // the step was thinned out of the replay: its nearest neighbour
        const latest = await model.heads(-1, true);
        const s = /** @type {HeadHistory} */ (latest.history).steps;
        return s[nearestIndex(s, step)] === latest.diagnostics.step
          ? latest
          : model.heads(s[nearestIndex(s, step)], true);
      });
      if (token !== this.token) return;
      if (r.history) this.history = r.history;
      else if (step < 0) this.#patchLatest(r.diagnostics);
      this.error.hidden = true;
      this.#render(r.diagnostics);
    } catch (err) {
      if (token !== this.token) return;
      this.error.hidden = false;
      this.error.textContent = this.tr('heads.error', {
        message: refusalIn(this.lang, err),
      });
    }
  }

  // The history's last point is the latest step (made on demand, not kept while the kept steps
  // are unchanged): replace it by the values just read.
  /** @param {HeadDiagnostics} d */
  #patchLatest(d) {
    const h = /** @type {HeadHistory} */ (this.history);
    const k = h.steps.length - 1;
    h.steps[k] = d.step;
    d.layers.forEach((layer, l) =>
      layer.heads.forEach((hd, i) => {
        for (const m of h.measures) h.layers[l].heads[i][m][k] = hd[m];
      }),
    );
  }

  /** @param {HeadDiagnostics} d the engine's (its labels follow the induction rule: a head without one says why in `withheld`) */
  #render(d) {
    this.shown = d;
    const hist = /** @type {HeadHistory} */ (this.history);
    const k = hist.steps.indexOf(d.step);
    const latest = hist.steps[hist.steps.length - 1];
    this.box.dataset.step = String(d.step);
    this.box.dataset.kept = String(hist.steps.length);
    const tr = this.tr;
    const n = hist.steps.length;
    const kept = tr(n === 1 ? 'heads.steps1' : 'heads.stepsN', { n });
    this.status.textContent =
      tr(d.step === latest ? 'heads.status.latest' : 'heads.status.replay', { step: d.step, latest }) +
      tr(this.replay ? 'heads.spark.replay' : 'heads.spark.kept', { kept });
    this.rules.replaceChildren(
      ...d.thresholds.map((t) =>
        el(
          'li',
          { dataset: { label: t.label } },
          el('strong', {}, labelWord('label', t.label, t.label, this.lang)),
          ` ${nameOf(t.measure, this.lang)}${t.label === 'first-token / sink' ? tr('heads.orAnchor') : ''} ≥ ${t.threshold.toFixed(2)}: `,
          el('span', { class: 'muted' }, labelWord('rule', t.label, t.rule, this.lang)),
        ),
      ),
    );
    const limit = /** @type {Record<string, number>} */ ({});
    for (const t of d.thresholds) limit[t.measure] = t.threshold;
    limit.anchor_share = limit.first_share;
    const ink = getComputedStyle(this.box).getPropertyValue('--chart-train').trim() || '#1a73e8';
    const cards = [];
    for (const [l, layer] of d.layers.entries())
      for (const [i, h] of layer.heads.entries()) {
        const series = hist.layers[l]?.heads[i];
        cards.push(this.#card(l, i, h, d, series, k, limit, ink));
      }
    this.grid.replaceChildren(...cards);
  }

  /**
   * @param {number} l @param {number} i @param {HeadResult} h @param {HeadDiagnostics} d
   * @param {Record<string, number[]>|undefined} series @param {number} k the shown step's index in the history
   * @param {Record<string, number>} limit @param {string} ink
   */
  #card(l, i, h, d, series, k, limit, ink) {
    const { tr, lang } = this;
    const withheld = withheldOf(h, l, lang);
    const labels = h.labels.length
      ? el(
          'ul',
          { class: 'head-labels' },
          h.labels.map((lab) =>
            el(
              'li',
              { class: 'head-label', dataset: { label: lab.name } },
              el('strong', {}, labelWord('label', lab.name, lab.name, lang)),
              ' ',
              el('span', { class: 'head-evidence' }, evidenceOf(lab, h, d.thresholds, lang)),
              el('span', { class: 'head-why' }, whyOf(lab, h, d.thresholds, lang)),
            ),
          ),
        )
      : el('p', { class: 'head-nolabel muted' }, tr(withheld ? 'heads.noLabel' : 'heads.noLabelWhy'));
    const rows = MEASURES.filter((m) => !m.optional || (series?.[m.key] ?? [h[m.key]]).some((v) => v >= 0)).map((m) => {
      const canvas = el('canvas', { class: 'head-spark', 'aria-hidden': 'true' });
      const values = (series?.[m.key] ?? [h[m.key]]).map((v) => (v < 0 ? null : v));
      const hi = m.unit ? 1 : Math.max(1, ...values.map((v) => v ?? 0));
      drawSparkline(canvas, values, {
        hi,
        color: ink,
        reference: limit[m.key],
        width: 72,
        height: 20,
        mark: k >= 0 ? k : undefined,
      });
      const value =
        m.key === 'offset_share'
          ? tr(h.offset === 0 ? 'heads.onItself' : 'heads.atOffset', {
              v: fixed(h.offset_share),
              offset: signed(h.offset),
            })
          : fixed(h[m.key]);
      return el(
        'tr',
        { dataset: { measure: m.key } },
        el('th', { scope: 'row', title: hintOf(m.key, lang) }, nameOf(m.key, lang)),
        el('td', { class: 'head-value' }, value),
        el('td', {}, canvas),
      );
    });
    return el(
      'article',
      {
        class: 'head-card',
        dataset: { layer: String(l), head: String(i), labels: h.labels.map((x) => x.name).join(',') },
      },
      el('h3', {}, tr('heads.card', { l: l + 1, h: i + 1 })),
      labels,
      ...(withheld ? [el('p', { class: 'head-withheld muted' }, withheld)] : []),
      el('table', { class: 'head-measures' }, el('tbody', {}, rows)),
    );
  }
}
