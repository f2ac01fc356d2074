// A lesson's widgets, driven through their scripting API as the reader scrolls: each one plays the
// first time a quarter of it, or half the window when a quarter of it is taller than that (a tall
// widget on a phone), comes into view (one IntersectionObserver); from then on the widget
// itself pauses off screen and resumes on screen while it still has steps to train, so a widget
// that finished its steps, or that the reader paused, stays as it is when scrolled back to (a
// second play() would train on without limit, and the permutation demo would raise its budget).
// A check's widget (<aside data-check data-for="ID">) is the exception: it waits for the reader's
// prediction, which plays it (lesson-check.js), so that each of its models is predicted first.
// And the live numbers of the prose, <output data-fact="WIDGET-ID" data-metric="evalAccuracy"
// data-format="pct">, written from the widget's own `step` and `trained` events while the widget
// trains the setting its markup gives, which is the one the sentence describes: once the reader
// changes it (a check's menu), the sentence's numbers stay as they were, and follow again if the
// reader goes back to that setting.

/** How a live number is written (a lesson's data-format). @type {Record<string, (v: number) => string>} */
export const FORMATS = {
  pct: (v) => `${Math.round(100 * v)}%`,
  pct1: (v) => `${(100 * v).toFixed(1)}%`,
  int: (v) => String(Math.round(v)),
  fix3: (v) => v.toFixed(3),
};
/** The metrics a fact may name (the widget's `step` event's detail). */
export const METRICS = ['step', 'loss', 'trainAccuracy', 'evalAccuracy', 'longAccuracy', 'accuracy'];
/** The thresholds the observer reports at: every percent, so that a tall widget's half window is seen. */
const THRESHOLDS = Array.from({ length: 101 }, (_, i) => i / 100);

/**
 * Whether enough of a widget is in view to start it: a quarter of it, or half the window when a
 * quarter of it is taller (a 3000 px widget in a 667 px window can never show a quarter).
 * @param {{isIntersecting: boolean, intersectionRect: {height: number}, boundingClientRect: {height: number}, rootBounds: {height: number}|null}} e
 * @param {number} windowHeight used when the entry has no rootBounds
 */
export function seenEnough(e, windowHeight) {
  if (!e.isIntersecting) return false;
  const need = Math.min(0.25 * e.boundingClientRect.height, 0.5 * (e.rootBounds?.height ?? windowHeight));
  return e.intersectionRect.height >= need - 1;
}

export class LessonWidgets {
  /** @param {HTMLElement} root the lesson's article */
  constructor(root) {
    this.root = root;
    /** @type {any[]} the lesson's widgets (attention-playground elements) */
    this.widgets = [...root.querySelectorAll('attention-playground')];
    /** @type {Map<string, boolean>} widget id -> whether enough of it is in view (seenEnough) */
    this.inView = new Map();
    /** @type {Set<string>} the widgets the lesson has started (played once) */
    this.started = new Set();
    /** @type {Set<string>} the checks' widgets, which the reader's prediction starts */
    this.predicted = new Set(
      [...root.querySelectorAll('aside[data-check][data-for]')].map(
        (a) => /** @type {HTMLElement} */ (a).dataset.for ?? '',
      ),
    );
    /** @type {Map<string, string>} widget id -> the config its facts describe (its first model's) */
    this.described = new Map();
    this.observer = new IntersectionObserver((entries) => this.#seen(entries), { threshold: THRESHOLDS });
    // The methods exist once the widget's module has defined the element (main.js loads it last).
    customElements.whenDefined('attention-playground').then(() => {
      for (const w of this.widgets) this.observer.observe(w);
    });
    this.onMetrics = (/** @type {Event} */ e) => this.#facts(/** @type {CustomEvent} */ (e));
    root.addEventListener('metrics', this.onMetrics);
    root.addEventListener('trained', this.onMetrics);
  }

  /** @param {IntersectionObserverEntry[]} entries */
  #seen(entries) {
    for (const e of entries) {
      const w = /** @type {any} */ (e.target);
      const seen = seenEnough(e, window.innerHeight);
      this.inView.set(w.id, seen);
      if (!seen || this.started.has(w.id) || this.predicted.has(w.id)) continue;
      this.started.add(w.id);
      w.play();
    }
  }

  /** @param {CustomEvent} e */
  #facts(e) {
    const w = /** @type {any} */ (e.target);
    if (!w.id) return;
    const config = JSON.stringify(w.config ?? null);
    if (!this.described.has(w.id)) this.described.set(w.id, config);
    if (this.described.get(w.id) !== config) return; // another setting than the sentence's
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
    this.root.removeEventListener('metrics', this.onMetrics);
    this.root.removeEventListener('trained', this.onMetrics);
  }
}
