// A lesson's widgets, driven through their scripting API as the reader scrolls: each one plays the
// first time a quarter of it comes into view (one IntersectionObserver); from then on the widget
// itself pauses off screen and resumes on screen while it still has steps to train, so a widget
// that finished its steps, or that the reader paused, stays as it is when scrolled back to (a
// second play() would train on without limit, and the permutation demo would raise its budget).
// And the live numbers of the prose, <output data-fact="WIDGET-ID" data-metric="evalAccuracy"
// data-format="pct">, written from the widget's own `step` and `trained` events.

/** How a live number is written (a lesson's data-format). @type {Record<string, (v: number) => string>} */
export const FORMATS = {
  pct: (v) => `${Math.round(100 * v)}%`,
  pct1: (v) => `${(100 * v).toFixed(1)}%`,
  int: (v) => String(Math.round(v)),
  fix3: (v) => v.toFixed(3),
};
/** The metrics a fact may name (the widget's `step` event's detail). */
export const METRICS = ['step', 'loss', 'trainAccuracy', 'evalAccuracy', 'longAccuracy', 'accuracy'];

export class LessonWidgets {
  /** @param {HTMLElement} root the lesson's article */
  constructor(root) {
    this.root = root;
    /** @type {any[]} the lesson's widgets (attention-playground elements) */
    this.widgets = [...root.querySelectorAll('attention-playground')];
    /** @type {Map<string, boolean>} widget id -> whether a quarter of it is in view */
    this.inView = new Map();
    /** @type {Set<string>} the widgets the lesson has started (played once) */
    this.started = new Set();
    this.observer = new IntersectionObserver((entries) => this.#seen(entries), { threshold: 0.25 });
    // The methods exist once the widget's module has defined the element (main.js loads it last).
    customElements.whenDefined('attention-playground').then(() => {
      for (const w of this.widgets) this.observer.observe(w);
    });
    this.onMetrics = (/** @type {Event} */ e) => this.#facts(/** @type {CustomEvent} */ (e));
    root.addEventListener('step', this.onMetrics);
    root.addEventListener('trained', this.onMetrics);
  }

  /** @param {IntersectionObserverEntry[]} entries */
  #seen(entries) {
    for (const e of entries) {
      const w = /** @type {any} */ (e.target);
      this.inView.set(w.id, e.isIntersecting);
      if (!e.isIntersecting || this.started.has(w.id)) continue;
      this.started.add(w.id);
      w.play();
    }
  }

  /** @param {CustomEvent} e */
  #facts(e) {
    const w = /** @type {HTMLElement} */ (e.target);
    if (!w.id) return;
    for (const out of this.root.querySelectorAll(`output[data-fact="${CSS.escape(w.id)}"]`)) {
      const o = /** @type {HTMLOutputElement} */ (out);
      const metric = o.dataset.metric ?? 'evalAccuracy';
      const format = FORMATS[o.dataset.format ?? 'pct'] ?? FORMATS.pct;
      const v = METRICS.includes(metric) ? e.detail?.[metric] : null;
      const text = typeof v === 'number' && Number.isFinite(v) ? format(v) : '…';
      if (o.value !== text) o.value = text;
    }
  }

  dispose() {
    this.observer.disconnect();
    this.root.removeEventListener('step', this.onMetrics);
    this.root.removeEventListener('trained', this.onMetrics);
  }
}
