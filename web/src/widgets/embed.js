// The iframe route, for platforms that allow iframes but not scripts: embed.html#preset=probe&...
// The hash holds the widget's settings as key=value pairs (config fields with '_' or '-', plus
// preset, view, controls, steps, height, theme, autoplay, and a demo's declared options). It
// never chooses attribute names: the widget's own settings (WIDGET_ATTRS, a fixed list) are set
// at once, everything else goes to the widget as data (`linkSettings`), which sets as attributes
// only the names it declares once the engine's registry is loaded (attributes.js) and lists the
// rest (onfocus, style, tabindex, src ...) in its "ignored" notice, as text. Nothing loads before
// the widget is on screen, as for any widget. The page tells its parent its height
// ({type: 'attention-playground:height', height}) so that the host can size the iframe.
import './attention-playground.js';
import { WIDGET_ATTRS, hashAttributes } from './attributes.js';

export { hashAttributes };

function build() {
  const w = /** @type {import('./attention-playground.js').AttentionPlaygroundElement} */ (document.createElement('attention-playground'));
  const pairs = hashAttributes(location.hash);
  for (const [k, v] of pairs) if (WIDGET_ATTRS.includes(k)) w.setAttribute(k, v);
  w.linkSettings = pairs.filter(([k]) => !WIDGET_ATTRS.includes(k));
  // In an iframe the widget is the page: it plays when shown unless the hash says otherwise.
  if (!w.hasAttribute('autoplay')) w.setAttribute('autoplay', '');
  document.body.replaceChildren(w);
}

build();
addEventListener('hashchange', build);

if (parent !== window) {
  let last = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    parent.postMessage({ type: 'attention-playground:height', height }, '*');
  }).observe(document.documentElement);
}
