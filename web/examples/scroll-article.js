// The scroll article's script (a file, not inline: the page's CSP allows scripts from the site
// only). Each section names a step of the story (data-step); when a section reaches the middle of
// the viewport (IntersectionObserver), the figure's widget is driven through its API (docs/widgets.md,
// "Driving a widget"): setConfig, play, pause, highlight. The widget refuses what it cannot use
// with an `error` event; the article shows it in the console.
/** @typedef {import('../src/widgets/attention-playground.js').AttentionPlaygroundElement} Widget */

const figure = /** @type {Widget} */ (document.getElementById('figure'));
/** The encoding each step trains (the widget builds a new model only when it changes). */
let position = 'none';

/** @type {Record<string, (w: Widget) => Promise<unknown>>} */
const STEPS = {
  order: async (w) => {
    await w.highlight(null);
    if (position !== 'none' && (await w.setConfig({ position: 'none' }))) position = 'none';
    await w.play();
  },
  rope: async (w) => {
    await w.highlight(null);
    if (position !== 'rope' && (await w.setConfig({ position: 'rope' }))) position = 'rope';
    await w.play();
  },
  head: async (w) => {
    await w.pause();
    await w.highlight({ layer: 0, head: 0, row: 6 });
  },
};

// Calls one after another: a reader scrolling fast queues them, in order.
let queue = Promise.resolve();
/** @param {string} step */
function show(step) {
  document.body.dataset.step = step;
  for (const s of document.querySelectorAll('.steps section'))
    s.classList.toggle('active', /** @type {HTMLElement} */ (s).dataset.step === step);
  const run = STEPS[step];
  // The element's methods exist once its module has defined it (the script loads it lazily).
  if (run)
    queue = queue
      .then(() => customElements.whenDefined('attention-playground'))
      .then(() => run(figure))
      .catch((err) => console.warn('widget:', err))
      .then(() => {
        document.body.dataset.done = step;
      });
}

figure.addEventListener('error', (e) =>
  console.warn('widget:', /** @type {CustomEvent} */ (/** @type {unknown} */ (e)).detail.message),
);

// A section is "current" while it crosses the middle band of the viewport.
const observer = new IntersectionObserver(
  (entries) => {
    for (const e of entries)
      if (e.isIntersecting) show(/** @type {string} */ (/** @type {HTMLElement} */ (e.target).dataset.step));
  },
  { rootMargin: '-45% 0px -45% 0px' },
);
for (const s of document.querySelectorAll('.steps section')) observer.observe(s);
