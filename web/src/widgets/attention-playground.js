// <attention-playground>: an embeddable widget that trains a tiny transformer in the reader's
// browser, in the manner of distill.pub's d-figure: nothing loads or trains until it scrolls into
// view (IntersectionObserver); it pauses off screen and while the tab is hidden; it fires `ready`
// once it can train. Everything renders inside an open shadow root, so the page's CSS and the
// widget's cannot meet. All widgets of a page share one module download and one worker pool
// (shared.js). Attributes are data: they reach the page only as text (see attributes.js).
//
//   <script type="module" src=".../attention-playground.js"></script>
//   <attention-playground preset="rope" steps="400" view="chart,positions"></attention-playground>
import { adoptStyles, releaseStyles } from './styles.js';
import { allowedAttributes, readAttributes, flag } from './attributes.js';
import { sharedEngine, sharedPool } from './shared.js';
import { reserveHeight } from './reserve.js';
import { el } from '../panels/dom.js';
import { engineNotice } from '../panels/engine-notice.js';
import { LOADABLE, addMessages, langOf, loadMessages, sayIn, t } from '../common/messages.js';
import ELEMENT_EN from '../common/messages/element.en.js';
import ELEMENT_ZH from '../common/messages/element.zh.js';

// The element's own strings (its placeholder, its failure) in both languages, before anything loads;
// the rest of its strings come in its language only, when it starts (loadMessages in _start).
addMessages('en', ELEMENT_EN);
addMessages('zh', ELEMENT_ZH);

// The demo modules (web/src/demos/<name>/index.js) that exist in this build, loaded only when a preset needs one.
const DEMOS = import.meta.glob('../demos/*/index.js');
/** @typedef {import('../client/session.js').EngineSession} Session */
/** @typedef {import('./shared.js').WidgetEngine} WidgetEngine */
/** @typedef {import('./attributes.js').WidgetSettings} WidgetSettings */
/**
 * A demo preset's running demo.
 * @typedef {{handle: import('../demos/common.js').DemoHandle, models: Set<Session>, wantPlay: boolean, visible: boolean,
 *   unnotice: () => void, playing?: () => boolean}} RunningDemo
 */
// The code of train(), reset(), setConfig() and highlight(), loaded when a page first calls one.
// One promise for every call: calls reach the widget in the order they were made (each import()
// call settles on its own, not necessarily in order, while the module loads).
/** @type {Promise<typeof import('./widget-api.js')>|null} */
let apiModule = null;
const api = () => (apiModule ??= import('./widget-api.js'));
const demoLoader = (/** @type {string|undefined} */ name) =>
  /** @type {(() => Promise<import('../demos/common.js').DemoModule>)|undefined} */ (
    DEMOS[`../demos/${name}/index.js`]
  );

/**
 * The parts of the message table a widget needs besides `widget` (common/messages.js): outside
 * English the refusals' words (a crash notice, a model that could not be built), its demo's
 * (when the table has one) or its comparison's (and the panels' words when it shows predictions or
 * heads; a config preset's panels load theirs with the panel, widgets/lazy-views.js).
 * @param {import('./presets.js').Preset} preset @param {WidgetSettings} settings
 */
const messageParts = (preset, settings) => [
  ...(settings.lang === 'en' ? [] : ['refusals']),
  ...ownParts(preset, settings),
];

/** @param {import('./presets.js').Preset} preset @param {WidgetSettings} settings */
const ownParts = (preset, settings) => {
  if (preset.demo) return LOADABLE.filter((p) => p === preset.demo);
  if (!settings.compare) return [];
  return ['compare', ...(settings.view.some((v) => v === 'predictions' || v === 'heads') ? ['panels'] : [])];
};

// One IntersectionObserver, one ResizeObserver (the room a widget holds depends on its width) and
// one visibilitychange listener for every widget on the page.
/** @type {IntersectionObserver|null} */
let observer = null;
/** @type {ResizeObserver|null} */
let sizer = null;
/** @type {Set<AttentionPlaygroundElement>} */
const widgets = new Set();
/** @param {AttentionPlaygroundElement} w */
function observe(w) {
  observer ??= new IntersectionObserver((entries) => {
    for (const e of entries) /** @type {AttentionPlaygroundElement} */ (e.target)._onIntersect(e.isIntersecting);
  });
  observer.observe(w);
  sizer ??= new ResizeObserver((entries) => {
    for (const e of entries) /** @type {AttentionPlaygroundElement} */ (e.target)._reserve(e.contentRect.width);
  });
  sizer.observe(w);
  if (!widgets.size) document.addEventListener('visibilitychange', onVisibility);
  widgets.add(w);
}
/** @param {AttentionPlaygroundElement} w */
function unobserve(w) {
  observer?.unobserve(w);
  sizer?.unobserve(w);
  widgets.delete(w);
  if (!widgets.size) document.removeEventListener('visibilitychange', onVisibility);
}
function onVisibility() {
  for (const w of widgets) w._updateVisible();
}

// Widgets that came into view start one per task, so that a page of widgets scrolled into view at
// once does not build them all in one long main-thread task.
let startQueue = Promise.resolve();
const nextTask = () => new Promise((r) => setTimeout(r, 0));
/** @param {AttentionPlaygroundElement} w */
function enqueueStart(w) {
  warmCanvasFonts();
  startQueue = startQueue
    .then(nextTask)
    .then(() => w._start())
    .catch(() => {});
}

// The first text a page draws on a canvas in a given font loads that font (15 to 40 ms of main
// thread on a slow machine, once per font). Done ahead, one font per idle task, while the engine
// loads: the charts' and heatmaps' first draws then stay short. The fonts of light-line-chart.js and
// charts/heatmap.js.
let fontsWarm = false;
function warmCanvasFonts() {
  if (fontsWarm) return;
  fontsWarm = true;
  const fonts = ['11px', '600 11px', '10px', '9px', '8px'].map((f) => `${f} system-ui, sans-serif`);
  const idle = window.requestIdleCallback ?? ((f) => setTimeout(f, 1));
  const next = () => {
    const font = fonts.shift();
    if (!font) return;
    const g = document.createElement('canvas').getContext('2d');
    if (!g) return;
    g.font = font;
    g.fillText('0.5 step', 0, 10);
    idle(next, { timeout: 500 });
  };
  idle(next, { timeout: 500 });
}

const dark = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;

export class AttentionPlaygroundElement extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    adoptStyles(this.#shadow);
    this.card = el('div', { class: 'ap', part: 'card' });
    this.#shadow.append(this.card);
    this.#applyTheme();
    /** 'idle' (not yet on screen), 'loading', 'ready', 'error' */
    this.status = 'idle';
    /** @type {string|null} */
    this.error = null;
    /** @type {import('./widget-app.js').WidgetApp|import('./compare-app.js').CompareApp|null} */
    this.app = null; // WidgetApp (config presets), CompareApp (with a compare attribute)
    /** @type {RunningDemo|null} */
    this.demo = null; // {handle: a demo's {start, pause, dispose, ready}, models, wantPlay, visible}
    // Set later (declarations only):
    /** @type {[string, string][]|null|undefined} settings from a link (embed.js), as data */ this.linkSettings;
    /** @type {string[]|undefined} what the link set that the widget does not declare */ this.ignored;
    /** @type {string[]|undefined} `origin` values of a link that are no origin (embed.js) */ this.badOrigins;
    /** @type {boolean|undefined} play() came before the widget was built */ this.playWanted;
    /** @type {number|undefined} the furthest step of a demo's models */ this.demoStep;
    /** @type {number|undefined} bumped to drop a start that a newer one overtook */ this.startToken;
    /** @type {MutationObserver|undefined} */ this.attrObserver;
    /** @type {() => void} set on connect (disconnect comes after) */ this.onScheme;
    /** @type {ReturnType<typeof setTimeout>|undefined} */ this.disposeTimer;
    /** @type {ReturnType<typeof setTimeout>|undefined} */ this.rebuildTimer;
    /** @type {number|undefined} the column width the reserved room is for */ this.width;
    this.intersecting = false;
    this.shown = false; // on screen and the tab visible, as last told to the app
    /** pauses, resets and departures from the screen so far: a step(n) made before one is dropped */
    this.halts = 0;
    this.started = false;
    /** settles when the widget is (again) ready, or could not start */
    this.built = deferred();
    this.#placeholder();
  }

  /** The open shadow root (attached by the constructor). */
  get #shadow() {
    return /** @type {ShadowRoot} */ (this.shadowRoot);
  }

  connectedCallback() {
    clearTimeout(this.disposeTimer);
    this.#applyTheme(); // attributes set before the element was attached
    observe(this);
    adoptStyles(this.#shadow);
    this.attrObserver ??= new MutationObserver((records) => this.#attributesChanged(records));
    this.attrObserver.observe(this, { attributes: true });
    this.onScheme = () => this.#themeChanged();
    dark?.addEventListener?.('change', this.onScheme);
  }

  disconnectedCallback() {
    unobserve(this);
    this.attrObserver?.disconnect();
    dark?.removeEventListener?.('change', this.onScheme);
    // A widget moved elsewhere in the page is reconnected in the same task: keep it then.
    this.disposeTimer = setTimeout(() => this.#teardown(), 0);
  }

  /** @internal from the shared IntersectionObserver @param {boolean} on */
  _onIntersect(on) {
    this.intersecting = on;
    if (on && !this.started) {
      this.started = true;
      this.#setStatus('loading');
      enqueueStart(this);
    }
    this._updateVisible();
  }

  /**
   * @internal Hold the room the widget will take at this width (reserve.js), from the placeholder
   * on: the page does not jump when it loads. None around an error message.
   * @param {number} [width]
   */
  _reserve(width = this.width ?? 0) {
    if (Math.abs(width - (this.width ?? -99)) < 1 && this.card.style.minHeight) return;
    this.width = width;
    const h =
      width > 0 && this.status !== 'error'
        ? reserveHeight(
            (n) => this.getAttribute(n),
            width,
            flag(this.getAttribute('compact')),
            this.getAttributeNames(),
            this.lang,
          )
        : 0;
    this.card.style.minHeight = h ? `${h}px` : '';
  }

  /** @internal on screen and the tab visible */
  _updateVisible() {
    const on = this.intersecting && document.visibilityState !== 'hidden';
    if (this.shown && !on) this.halts++; // leaving the screen drops step(n) calls, those on their way too
    this.shown = on;
    if (this.app?.setVisible) this.app.setVisible(on);
    else if (this.demo) this.#demoVisible(on);
  }

  /**
   * The config of the model the widget trains now, as the engine took it (a copy; a control or
   * setConfig makes a new model); null before the widget is built, and for a demo preset or a comparison.
   * @returns {Record<string, unknown>|null}
   */
  get config() {
    const app = /** @type {{model?: {info?: {config?: import('../wasm-api').Config}}|null}|null} */ (this.app);
    const config = this.demo ? null : app?.model?.info?.config;
    return config ? { ...config } : null;
  }

  /** The training step reached (the furthest of a demo's models). */
  get currentStep() {
    return this.app?.last.step ?? this.demoStep ?? 0;
  }

  // --- the API a page drives (docs/widgets.md, "Driving a widget"). Every method goes through
  // the widget's app and its run controller; a refused call fires `error` ({field, message,
  // allowed}) and resolves to false, leaving the widget as it was. Calls made before the widget
  // is built wait for it (it builds when on screen).

  /** Start training now (it pauses off screen and resumes on screen). */
  async play() {
    if (this.app?.play) await this.app.play();
    else if (this.demo) {
      this.demo.wantPlay = true;
      await this.demo.handle.start();
    } else this.playWanted = true; // not built yet: it plays as soon as it is (on screen)
    return true;
  }

  /** Stop training. */
  async pause() {
    this.playWanted = false;
    this.halts++; // step(n) calls made before it, still on their way to the app, are dropped
    if (this.app?.pause) await this.app.pause();
    else if (this.demo) {
      this.demo.wantPlay = false;
      await this.demo.handle.pause();
    }
    return true;
  }

  /** Train exactly n steps (1 … 10000), then redraw. @param {number} [n] @returns {Promise<boolean>} */
  train(n = 1) {
    const halts = this.halts;
    return this.#inOrder((m, taken) => m.train(this, n, halts, taken));
  }

  /** The old name of train(n), kept for pages written before it (docs/widgets.md). @param {number} [n] */
  step(n = 1) {
    return this.train(n);
  }

  /** Back to step 0 with the same seed. @returns {Promise<boolean>} */
  reset() {
    this.halts++;
    return this.#inOrder((m) => m.reset(this));
  }

  /**
   * Change config fields ({position: 'rope', lr: 0.003}), read like the attributes (widget-api.js).
   * @param {Record<string, string|number|boolean>} fields
   * @returns {Promise<boolean>}
   */
  setConfig(fields) {
    return this.#inOrder((m) => m.setConfig(this, fields));
  }

  /**
   * Pick a head in the attention panel, {layer, head, row} (0-based; row optional), or none (null).
   * @param {{layer: number, head: number, row?: number}|null} [sel]
   * @returns {Promise<boolean>}
   */
  highlight(sel) {
    return this.#inOrder((m) => m.highlight(this, sel));
  }

  /** @type {Promise<unknown>} settles once the step/reset/setConfig/highlight calls made so far have taken effect */
  #turn = Promise.resolve();

  /**
   * Run an API call once the calls made before it have taken effect, so that calls made one after
   * another without waiting (a page that does not await, the iframe route, whose host cannot) act
   * in the order they were made: setConfig's new model is built before the step(n) that follows it
   * runs. A call has taken effect when it settles, or, for step(n), when its steps are queued
   * (`taken`): a step(n) that follows joins them (step-queue.js); setConfig waits for them to be
   * trained (widget-api.js), reset and pause stop them.
   * @param {(m: typeof import('./widget-api.js'), taken: () => void) => Promise<boolean>} call
   * @returns {Promise<boolean>}
   */
  #inOrder(call) {
    const before = this.#turn;
    /** @type {() => void} */
    let taken = () => {};
    this.#turn = new Promise((r) => (taken = () => r(undefined)));
    const result = before.then(api).then((m) => call(m, taken));
    result.then(taken, taken);
    return result;
  }

  /** @internal Fire `error` for a refused call. @param {import('./api.js').ApiError} detail */
  _refuse(detail) {
    // Not bubbling: window's error listeners would take it for a script error.
    this.dispatchEvent(new CustomEvent('error', { detail }));
    return false;
  }

  /**
   * An event of the widget's run (`model`, `metrics`, `trained`); `metrics` is fired again as `step`,
   * its old name (pages written before it). @param {string} type @param {object} detail
   */
  #emit(type, detail) {
    for (const t of type === 'metrics' ? ['metrics', 'step'] : [type])
      this.dispatchEvent(new CustomEvent(t, { bubbles: true, composed: true, detail }));
  }

  // light / dark: the theme attribute, else (none or "auto") the reader's preference; and compact.
  #applyTheme() {
    const t = (this.getAttribute('theme') ?? '').trim();
    const isDark = t === 'dark' || (t !== 'light' && Boolean(dark?.matches));
    this.card.classList.toggle('dark', isDark);
    this.card.classList.toggle('compact', flag(this.getAttribute('compact')));
    return isDark;
  }

  #themeChanged() {
    const was = this.card.classList.contains('dark');
    if (this.#applyTheme() !== was) requestAnimationFrame(() => this.app?.restyle?.());
  }

  /** @param {'idle'|'loading'|'ready'|'error'} s */
  #setStatus(s) {
    this.status = s;
    if ((s === 'loading' || s === 'idle') && this.built.done) this.built = deferred(); // calls wait for the new build
    this.card.dataset.status = s;
    if (s === 'loading' && !this.card.style.minHeight) this._reserve(); // again after an error
  }

  /** The language of its visible strings: the nearest lang attribute (its own, a parent's, the page's), else English. */
  get lang() {
    return langOf(this.closest('[lang]')?.getAttribute('lang')) ?? 'en';
  }

  #placeholder() {
    const preset = this.getAttribute('preset') || 'playground';
    this.card.replaceChildren(
      el(
        'div',
        { class: 'ap-placeholder' },
        el(
          'div',
          {},
          el('strong', {}, 'Attention Playground'),
          el('div', {}, t(this.lang, 'widget.placeholder', { preset })),
        ),
      ),
    );
  }

  /** @internal load the engine and build the widget (from the start queue) */
  async _start() {
    const token = (this.startToken = (this.startToken ?? 0) + 1);
    let engine;
    try {
      engine = await sharedEngine();
      if (token !== this.startToken) return;
      this.#adoptLink(engine);
      const settings = readAttributes(
        this.getAttributeNames().map((n) => /** @type {[string, string]} */ ([n, this.getAttribute(n)])),
        engine,
      );
      if (settings.errors.length)
        throw Object.assign(new Error('bad attributes'), { list: settings.errors, keyed: settings.said });
      if (this.playWanted) settings.autoplay = true;
      this.playWanted = false; // taken: a play() from here on, while it builds, is played once built (below)
      settings.lang = this.lang;
      const preset = /** @type {import('./presets.js').Preset} */ (settings.preset); // no errors: a preset
      // its strings, in its language only: the widget's, and its demo's or its comparison's
      await loadMessages(settings.lang, ['widget', ...messageParts(preset, settings)]);
      if (token !== this.startToken) return;
      if (preset.demo) await this.#startDemo(engine, settings, token);
      else await this.#startApp(engine, settings, token);
      if (token !== this.startToken) return;
      this.#setStatus('ready');
      this.#showIgnored();
      this._updateVisible();
      if (this.playWanted) this.play(); // asked for after its settings were read (lost before)
      this.built.resolve();
      this.dispatchEvent(
        new CustomEvent('ready', {
          bubbles: true,
          composed: true,
          detail: { preset: preset.name, engine: engine.info },
        }),
      );
    } catch (err) {
      if (token === this.startToken) {
        this.#fail(/** @type {Error & {list?: string[], keyed?: import('./attributes.js').Said[]}} */ (err));
        this.#showIgnored();
      }
    }
  }

  /**
   * Settings from a link (embed.html's hash), given by a script as data: [name, value] pairs in
   * `linkSettings`. Once the registry is known, only the names the widget declares become
   * attributes (read as any other, without a rebuild); the rest is listed in the ignored notice.
   * @param {WidgetEngine} engine
   */
  #adoptLink(engine) {
    if (!this.linkSettings) return;
    const { allowed, ignored } = allowedAttributes(this.linkSettings, engine);
    this.linkSettings = null;
    for (const [k, v] of allowed) this.setAttribute(k, v);
    this.attrObserver?.takeRecords(); // read just below: not an attribute change to rebuild for
    this.ignored = ignored;
  }

  // What a link gave that is no setting of the widget, as text above the widget's content.
  #showIgnored() {
    for (const value of this.badOrigins ?? [])
      this.card.prepend(
        el(
          'p',
          { class: 'ap-ignored ap-bad-origin', role: 'status' },
          el('strong', {}, t(this.lang, 'widget.badOrigin')),
          t(this.lang, 'widget.badOriginWhy', { value }),
        ),
      );
    if (!this.ignored?.length) return;
    this.card.prepend(
      el(
        'p',
        { class: 'ap-ignored', role: 'status' },
        el('strong', {}, t(this.lang, 'widget.ignored')),
        t(this.lang, 'widget.ignoredList', { list: this.ignored.join(', ') }),
      ),
    );
  }

  /**
   * @typedef {ConstructorParameters<typeof import('./widget-app.js').WidgetApp>[2] &
   *   ConstructorParameters<typeof import('./compare-app.js').CompareApp>[2]} AppSettings
   */
  /** @param {WidgetEngine} engine @param {WidgetSettings} settings @param {number} token */
  async #startApp(engine, settings, token) {
    // A comparison (the compare attribute) has its own view: several models side by side.
    const App = settings.compare
      ? (await import('./compare-app.js')).CompareApp
      : (await import('./widget-app.js')).WidgetApp;
    await nextTask(); // the chunk's evaluation and the widget's construction in separate tasks
    if (token !== this.startToken) return;
    const card = el('div', { class: 'ap-body' });
    const app = new App(card, engine, /** @type {AppSettings} */ (settings)); // a config preset: a state (and the runs of a comparison)
    this.card.replaceChildren(card);
    this.app = app;
    if ('onEvent' in app) app.onEvent = (type, detail) => this.#emit(type, detail);
    try {
      await app.init();
    } catch (err) {
      this.app = null;
      app.dispose();
      throw err;
    }
  }

  /** @param {string} preset @param {import('../demos/common.js').DemoHandle} handle */
  #emitDemoTrained(preset, handle) {
    const detail = { preset, step: this.demoStep ?? 0, results: handle.results?.() ?? null };
    this.dispatchEvent(new CustomEvent('trained', { bubbles: true, composed: true, detail }));
  }

  /** @param {WidgetEngine} engine @param {WidgetSettings} settings @param {number} token */
  async #startDemo(engine, settings, token) {
    const { overrides, autoplay } = settings;
    const preset = /** @type {import('./presets.js').Preset} */ (settings.preset);
    const load = demoLoader(preset.demo);
    if (!load)
      throw new Error(
        `The ${preset.demo} demo is not part of this build (web/src/demos/${preset.demo}/index.js is missing).`,
      );
    // The demo draws its charts with the light chart (the pages give it uPlot's).
    const [mod, { LightLineChart }] = await Promise.all([load(), import('../charts/light-line-chart.js')]);
    if (token !== this.startToken) return;
    /** @type {Set<Session>} */
    const models = new Set();
    const pool = trackedPool(engine.pool, models, (step) => (this.demoStep = Math.max(this.demoStep ?? 0, step)));
    const root = el('div', { class: 'ap-demo' });
    this.card.replaceChildren(root);
    this.card.classList.add('has-demo');
    const handle = mod.mount(root, {
      pool,
      registry: engine.registry,
      LineChart: LightLineChart,
      compact: true,
      autoplay: false,
      config: { ...overrides },
      lang: settings.lang,
      // every model of the demo finished: the widget's `trained` event, with the demo's results
      onDone: () => this.#emitDemoTrained(preset.name, handle),
    });
    // an option the demo's reader refused (it took its default): an `error` naming it
    for (const r of handle.refusals)
      this._refuse({ field: r.field, message: `${r.field}="${overrides[r.field]}": ${r.why}.`, allowed: r.allowed });
    // The notice that a worker of this demo crashed and was restarted.
    const unnotice = engineNotice(engine.pool, root, (m) => [...models].some((x) => x === m), settings.lang);
    this.demo = { handle, models, wantPlay: autoplay, visible: false, unnotice };
    await handle.ready;
    // Whether the demo is training: any of its models is playing.
    this.demo.playing = () => [...models].some((m) => m.playing && !m.disposed);
  }

  /** @param {boolean} on */
  #demoVisible(on) {
    const d = this.demo;
    if (!d || d.visible === on || this.status !== 'ready') return;
    d.visible = on;
    if (on && d.wantPlay) d.handle.start();
    if (!on && /** @type {() => boolean} */ (d.playing)()) {
      // set once the demo is ready
      d.wantPlay = true;
      d.handle.pause();
    } else if (!on) d.wantPlay = false;
  }

  /** @param {Error & {list?: string[], keyed?: import('./attributes.js').Said[]}} err */
  #fail(err) {
    this.card.classList.remove('has-demo');
    this.#setStatus('error');
    this.card.style.minHeight = '';
    this.error = err.list ? err.list.join(' ') : err.message;
    const items = err.list ?? [String(err.message ?? err)];
    const shown = err.keyed?.map((s) => sayIn(this.lang, s)) ?? items; // in the widget's language
    this.card.replaceChildren(
      el(
        'div',
        { class: 'ap-error', role: 'alert' },
        el('strong', {}, t(this.lang, 'widget.couldNotStart')),
        el('ul', {}, ...shown.map((t) => el('li', {}, t))),
      ),
    );
    this.dispatchEvent(
      new CustomEvent('widget-error', { bubbles: true, composed: true, detail: { message: this.error } }),
    );
    this.built.resolve(); // calls that waited are refused below (#app)
    const field = /^([a-z][a-z0-9-]*)="/.exec(items[0])?.[1] ?? 'widget';
    this._refuse({ field, message: this.error });
  }

  async #teardown() {
    this.startToken = (this.startToken ?? 0) + 1;
    const app = this.app;
    const demo = this.demo;
    this.app = null;
    this.demo = null;
    this.demoStep = 0;
    this.started = false;
    releaseStyles(this.#shadow);
    await app?.dispose();
    demo?.unnotice();
    await demo?.handle.dispose();
    this.card.classList.remove('has-demo');
    this.#setStatus('idle');
    this.#placeholder();
  }

  // An attribute changed after the widget started: build it again from its new attributes (a new
  // theme only needs the canvases redrawn; the page's own data-* and aria-* attributes, no settings,
  // change nothing).
  /** @param {MutationRecord[]} records */
  #attributesChanged(records) {
    records = records.filter((r) => !/^(data|aria)-/.test(r.attributeName ?? ''));
    if (!records.length) return;
    const look = (/** @type {MutationRecord} */ r) => r.attributeName === 'theme' || r.attributeName === 'compact';
    if (records.some(look)) this.#themeChanged();
    if (this.width !== undefined) {
      // its room, for its new attributes
      const w = this.getBoundingClientRect().width;
      this.width = -1;
      this._reserve(w);
    }
    if (records.every(look)) return;
    if (!this.started) {
      if (!this.app) this.#placeholder();
      return;
    }
    this.#setStatus('loading');
    clearTimeout(this.rebuildTimer);
    this.rebuildTimer = setTimeout(async () => {
      const app = this.app;
      const demo = this.demo;
      this.app = null;
      this.demo = null;
      await app?.dispose();
      demo?.unnotice();
      await demo?.handle.dispose();
      this.card.classList.remove('has-demo');
      this.#setStatus('loading');
      enqueueStart(this);
    }, 50);
  }
}

/** A promise and its resolve, which says whether it was called. */
function deferred() {
  /** @type {() => void} */
  let done = () => {};
  const promise = new Promise((/** @type {(v: void) => void} */ r) => (done = r));
  const d = { promise, done: false, resolve: () => ((d.done = true), done()) };
  return d;
}

/**
 * The pool, as seen by a demo: its models are remembered, to know whether it is training.
 * @param {import('../client/pool.js').WorkerPool} pool
 * @param {Set<Session>} models
 * @param {(step: number) => void} onStep
 */
function trackedPool(pool, models, onStep) {
  return new Proxy(pool, {
    get(target, key) {
      if (key === 'create')
        return async (/** @type {import('../wasm-api').Config} */ config) => {
          const m = await target.create(config);
          models.add(m);
          m.addEventListener('metrics', (e) => onStep(/** @type {CustomEvent<{step: number}>} */ (e).detail.step));
          return m;
        };
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

if (!customElements.get('attention-playground'))
  customElements.define('attention-playground', AttentionPlaygroundElement);

export { sharedPool };
