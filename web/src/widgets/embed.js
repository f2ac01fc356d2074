// The iframe route, for platforms that allow iframes but not scripts: embed.html#preset=probe&...
// The hash holds the widget's attributes as key=value pairs (config fields with '_' or '-', plus
// preset, view, controls, steps, height, theme, autoplay); they become attributes of one
// <attention-playground>, by setAttribute only. The page tells its parent its height
// ({type: 'attention-playground:height', height}) so that the host can size the iframe.
import './attention-playground.js';

const NAME = /^[a-z][a-z0-9_-]*$/;

/** The hash as [attribute, value] pairs (invalid names are dropped: they cannot be attributes). */
export function hashAttributes(hash) {
  const out = [];
  for (const part of hash.replace(/^#/, '').split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    let key;
    let value;
    try {
      key = decodeURIComponent(eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase().replaceAll('_', '-');
      value = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1).replaceAll('+', ' '));
    } catch {
      continue;
    }
    if (NAME.test(key)) out.push([key, value]);
  }
  return out;
}

function build() {
  const w = document.createElement('attention-playground');
  const attrs = hashAttributes(location.hash);
  for (const [k, v] of attrs) w.setAttribute(k, v);
  // In an iframe the widget is the page: it plays when shown unless the hash says otherwise.
  if (!attrs.some(([k]) => k === 'autoplay')) w.setAttribute('autoplay', '');
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
