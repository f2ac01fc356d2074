// The panels a config preset's widget (widget-app.js) shows, one section per name in `view`: the
// charts' box (filled by the app) and the panels of lazy-views.js (attention, positions,
// predictions, generate, heads, interventions), each loaded only when named. What they share: a
// new model (setModel), and an inspection of the current weights while training (inspect: one panel
// per task, so that a page of widgets refreshing together stays responsive).
import { el } from '../panels/dom.js';
import { LazyView } from './lazy-views.js';
import { t } from '../common/messages.js';

/** @typedef {import('../client/session.js').EngineSession} Session */

const nextTask = () => new Promise((r) => setTimeout(r, 0));

export class WidgetPanels {
  /**
   * @param {string[]} view the names, in order (attributes.js VIEWS)
   * @param {import('../common/messages.js').Lang} [lang] the language of their titles (and of the panels that have one)
   * @param {() => Session|null} model the current model (null while none)
   * @param {'seq-len'|'eval-len'} [inspectLen] the length the panels look at the model at: its
   *   training length or its config's eval_len (the `inspect-len` attribute)
   */
  constructor(view, model, lang = 'en', inspectLen = 'seq-len') {
    this.inspectLen = inspectLen;
    this.length = 0; // the inspected length (0: seq_len), set by setModel
    this.element = el('div', { class: 'ap-panels' });
    /** @type {HTMLElement|undefined} */ this.chartBody = undefined;
    /** @type {LazyView[]} */ this.views = [];
    for (const v of view) {
      const title = t(lang, `view.${v}`);
      const body = el('div', { class: v === 'chart' ? 'ap-charts' : 'ap-scroll' });
      this.element.append(
        el(
          'section',
          { class: 'ap-panel', dataset: { view: v }, 'aria-label': title },
          v === 'chart' ? null : el('h3', {}, title),
          body,
        ),
      );
      if (v === 'chart') this.chartBody = body;
      else this.views.push(new LazyView(v, body, model, lang));
    }
    /** Settles when every panel's code has arrived. */
    this.ready = Promise.all(this.views.map((x) => x.ready));
  }

  /** The attention panel, once loaded (when in `view`). @returns {import('../panels/attention-panel.js').AttentionPanel|undefined} */
  get attention() {
    return this.views.find((x) => x.name === 'attention')?.loaded?.panel;
  }

  /** Whether any panel is drawn from the weights as they change (generate asks on its own). */
  get needsInspection() {
    return this.views.some((x) => x.name !== 'generate');
  }

  /** A new model (or a reset): the panels forget the last one. @param {import('../wasm-api').SessionInfo} info */
  setModel(info) {
    this.length = this.inspectLen === 'eval-len' ? Number(info.config.eval_len) : 0;
    for (const x of this.views) x.setModel(info);
  }

  /** Redraw from the weights as they are now. @param {Session} model @param {() => boolean} current */
  async inspect(model, current) {
    await this.ready;
    const drawn = this.views.filter((x) => x.part && x.loaded?.update);
    const length = this.length;
    const request = Object.fromEntries(
      drawn.map((x) => [x.part, x.part === 'predictions' ? { n: 3, length } : { length }]),
    );
    const snap = drawn.length ? await model.inspect(request) : {};
    let first = true;
    for (const x of this.views) {
      const loaded = x.loaded;
      if (!loaded || !(loaded.refresh || (x.part && loaded.update))) continue;
      if (!first) await nextTask();
      first = false;
      if (!current()) return;
      if (loaded.refresh) await loaded.refresh();
      else loaded.update?.(/** @type {Record<string, unknown>} */ (snap)[/** @type {string} */ (x.part)]);
    }
  }

  dispose() {
    for (const x of this.views) x.loaded?.dispose?.();
  }
}
