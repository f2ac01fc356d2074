// A lesson's widgets, driven through their scripting API as the reader scrolls: each one plays when
// a quarter of it comes into view and pauses when it leaves (one IntersectionObserver); and the
// live numbers of the prose, <output data-fact="WIDGET-ID" data-metric="evalAccuracy"
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
    /** @type {Map<string, boolean>} widget id -> whether the lesson last played (true) or paused it */
    this.inView = new Map();
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
      if (e.isIntersecting) w.play();
      else w.pause();
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
