// The widget's panels, each loaded only when a widget's `view` names it (a dynamic import per
// panel module, so each is a chunk of its own; web/build-widget.mjs counts them as on demand):
// the playground's attention, positions, predictions and generate panels, and its Heads
// (panels/heads-panel.js: each head's measures and labels with their evidence, at the latest step)
// and Interventions panels (panels/interventions-panel.js: zero a head, replace its attention
// rows, patch; base vs intervened loss, accuracy and predictions). A panel's CSS comes with its
// chunk and is adopted by the shadow root (build-widget.mjs). One table: the loader, and how the
// panel is fed: `part`, the inspection part it draws, or `refresh`, its own request (the titles are
// the message table's `view.<name>`). The predictions, generate, heads and interventions panels'
// words are the table's panels part, loaded with the panel in the widget's language (`withWords`).
import { el } from '../panels/dom.js';
import { loadMessages, t } from '../common/messages.js';

/** @typedef {import('../client/session.js').EngineSession} Session */
/**
 * A loaded panel, as the widget drives it.
 * @typedef {{panel: any, setModel(info: import('../wasm-api').SessionInfo): void, update?(part: any): void,
 *   refresh?(): Promise<void>, dispose?(): void}} Loaded
 * @typedef {(body: HTMLElement, model: () => Session|null, lang: import('../common/messages.js').Lang) => Loaded} Make
 */

const current = (/** @type {() => Session|null} */ model) => () => /** @type {Session} */ (model());

/**
 * A panel's module with the table's panels part in `lang`.
 * @template T @param {Promise<T>} module @param {import('../common/messages.js').Lang} lang
 */
const withWords = (module, lang) =>
  Promise.all([module, loadMessages(lang, lang === 'en' ? ['panels'] : ['panels', 'refusals'])]).then(([m]) => m);

/**
 * The views: inspection part (null: the panel asks for itself) and loader.
 * @type {Record<string, {part: 'attention'|'positions'|'predictions'|null, load: (lang: import('../common/messages.js').Lang) => Promise<Make>}>}
 */
export const LAZY_VIEWS = {
  attention: {
    part: 'attention',
    load: () =>
      import('../panels/attention-panel.js').then(({ AttentionPanel }) => (body, _model, lang) => {
        const panel = new AttentionPanel(el('div', { class: 'attention-grid' }), { frameMs: 8, lang });
        body.append(panel.grid);
        const setModel = (/** @type {import('../wasm-api').SessionInfo} */ info) => {
          panel.clear();
          panel.setTrainLength(Number(info.config.seq_len));
        };
        return { panel, setModel, update: (p) => panel.update(p) };
      }),
  },
  positions: {
    part: 'positions',
    // its captions and axes: the table's positions part, in the widget's language (loaded with it)
    load: (lang) =>
      Promise.all([import('../panels/positions-panel.js'), loadMessages(lang, ['positions'])]).then(
        ([{ PositionsPanel }]) =>
          (body, _model, lang) => {
            const panel = new PositionsPanel(el('div', { class: 'positions-body' }), lang);
            body.append(panel.body);
            return { panel, setModel: (info) => panel.setModel(info), update: (p) => panel.update(p) };
          },
      ),
  },
  predictions: {
    part: 'predictions',
    load: (lang) =>
      withWords(import('../panels/predictions-panel.js'), lang).then(({ PredictionsPanel }) => (body, model) => {
        const list = el('div', { class: 'predictions' });
        body.append(list);
        const panel = new PredictionsPanel(
          list,
          el('div', { hidden: true }, el('div', { class: 'free-out' })),
          (ids) => current(model)().run(ids),
          lang,
        );
        return {
          panel,
          setModel: (info) => panel.setModel(info),
          update: (p) => panel.update(p),
          dispose: () => panel.dispose(),
        };
      }),
  },
  generate: {
    part: null,
    load: (lang) =>
      withWords(import('../panels/generate-panel.js'), lang).then(({ GeneratePanel }) => (body, model) => {
        const box = el('div', { class: 'generate' });
        body.append(box);
        const panel = new GeneratePanel(
          box,
          model,
          () =>
            current(model)()
              .inspect({ predictions: { n: 1 } })
              .then((snap) => snap.predictions),
          lang,
        );
        return { panel, setModel: (info) => panel.setModel(info) };
      }),
  },
  heads: {
    part: null,
    load: (lang) =>
      withWords(import('../panels/heads-panel.js'), lang).then(({ HeadsPanel }) => (body, model) => {
        const panel = new HeadsPanel(body, model, { replay: false, lang });
        return { panel, setModel: (info) => panel.setModel(info), refresh: () => panel.refresh(-1) };
      }),
  },
  interventions: {
    part: null,
    load: (lang) =>
      withWords(import('../panels/interventions-panel.js'), lang).then(({ InterventionsPanel }) => (body, model) => {
        const panel = new InterventionsPanel(body, model, lang);
        return { panel, setModel: (info) => panel.setModel(info), refresh: () => panel.refresh() };
      }),
  },
};

/** One panel of the widget, its code on the way: calls before it arrived are replayed once it has. */
export class LazyView {
  /**
   * @param {string} name a key of LAZY_VIEWS
   * @param {HTMLElement} body the panel's body (in the widget's shadow root)
   * @param {() => Session|null} model the current model
   * @param {import('../common/messages.js').Lang} [lang] the language of the panel (those that have one)
   */
  constructor(name, body, model, lang = 'en') {
    this.name = name;
    this.part = LAZY_VIEWS[name].part;
    /** @type {Loaded|null} */ this.loaded = null;
    /** @type {import('../wasm-api').SessionInfo|null} */ this.info = null;
    /** Settles when the panel is there (or its load failed: said in its body). */
    this.ready = LAZY_VIEWS[name].load(lang).then(
      (make) => {
        this.loaded = make(body, model, lang);
        if (this.info) this.loaded.setModel(this.info);
      },
      // said in the widget's language (its widget part, loaded before): in English with the browser's reason
      (err) => {
        const reason = lang === 'en' ? String(err?.message ?? err) : t(lang, 'widget.viewFailed.reason');
        const text = t(lang, 'widget.viewFailed', { view: t(lang, `view.${name}`), reason });
        body.replaceChildren(el('p', { class: 'error', role: 'alert' }, text));
      },
    );
  }

  /** A new model or a reset. @param {import('../wasm-api').SessionInfo} info */
  setModel(info) {
    this.info = info;
    this.loaded?.setModel(info);
  }
}
