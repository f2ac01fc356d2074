// Styles of the widget, adopted by each widget's shadow root and never by the page. The widget's
// own sheet and uPlot's come in as text (`?inline`); in the library build, any other CSS a module
// of the widget's graph imports (e.g. a demo's) is turned into addStyle(text) by the build's
// plugin (web/build-widget.mjs), so that it lands here instead of in the host page's <head>.
// A `rem` in them is read as 16 px (`fixedRem`): rem is the host page's root font size, which
// crosses the shadow boundary, so on a page with another (this site's course: 15 px, 14 px under
// 800 px) the widget's text shrank and it held far more room than it took (reserve.js's heights are
// measured at 16 px: 35-150 px of empty card under a lesson's widget).
import uplotCss from 'uplot/dist/uPlot.min.css?inline';
import pageCss from '../panels/style.css?inline';
import widgetCss from './widget.css?inline';

const texts = [uplotCss, pageCss, widgetCss];
/** @type {Map<string, CSSStyleSheet>} */
const sheets = new Map(); // text -> CSSStyleSheet (shared by every widget)
/** @type {Set<ShadowRoot>} */
const roots = new Set();

/** Register a style text; every widget (present and future) adopts it. @param {string} text */
export function addStyle(text) {
  if (!text || texts.includes(text)) return;
  texts.splice(texts.length - 1, 0, text); // the widget's own sheet stays last (it wins)
  for (const r of roots) adoptStyles(r);
}

/** A style text with every length in rem written in px, at 16 px to the rem. @param {string} text */
export const fixedRem = (text) =>
  text.replace(/(\d*\.?\d+)rem\b/g, (_, n) => `${Number((Number(n) * 16).toFixed(3))}px`);

/** @param {string} text */
function sheetFor(text) {
  let s = sheets.get(text);
  if (!s) {
    s = new CSSStyleSheet();
    s.replaceSync(fixedRem(text));
    sheets.set(text, s);
  }
  return s;
}

/**
 * Give a shadow root every registered style (constructable sheets where supported, <style>
 * elements with textContent otherwise).
 * @param {ShadowRoot} root
 */
export function adoptStyles(root) {
  roots.add(root);
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet.prototype.replaceSync === 'function') {
    root.adoptedStyleSheets = texts.map(sheetFor);
    return;
  }
  root.querySelectorAll('style[data-ap]').forEach((s) => s.remove());
  for (const t of texts.slice().reverse()) {
    const s = document.createElement('style');
    s.dataset.ap = '';
    s.textContent = fixedRem(t);
    root.prepend(s);
  }
}

// Under the dev server (`npm start`), CSS that a module imports is injected by Vite into the page's
// <head> as <style data-vite-dev-id>, out of the widget's reach: mirror those sheets into every
// widget (and follow their hot updates). The library build replaces DEV by false and drops this.
if (import.meta.env.DEV && typeof document !== 'undefined') {
  /** @type {Map<string, string>} */
  const dev = new Map(); // vite dev id -> the text this widget adopted for it
  const sync = () => {
    for (const s of /** @type {NodeListOf<HTMLStyleElement>} */ (
      document.head.querySelectorAll('style[data-vite-dev-id]')
    )) {
      const id = s.dataset.viteDevId ?? '',
        text = s.textContent ?? '';
      if (dev.get(id) === text) continue;
      const old = texts.indexOf(dev.get(id) ?? '\0');
      if (old >= 0) texts.splice(old, 1);
      dev.set(id, text);
      addStyle(text);
    }
  };
  sync();
  new MutationObserver(sync).observe(document.head, { childList: true, subtree: true, characterData: true });
}

/** Stop updating a root (its widget left the page). @param {ShadowRoot} root */
export function releaseStyles(root) {
  roots.delete(root);
}
