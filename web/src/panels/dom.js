// The one element builder of the site, el('div', {class: 'x', onclick: f}, child, 'text', ...),
// used by the panels, the pages, the widgets and the demos; and file download / upload helpers.

/** @typedef {Node|string|null|undefined|false} Child */

/**
 * @template {string} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs] `class`, `on*` handlers, `dataset`, `style` (a string or an
 *   object of properties), properties, attributes
 * @param {...(Child|Child[])} children (arrays are flattened one level)
 * @returns {K extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[K] : HTMLElement} the
 *   element type of `tag` (HTMLInputElement for 'input' ...)
 */
export function el(tag, attrs = {}, ...children) {
  const e = /** @type {K extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[K] : HTMLElement} */ (
    document.createElement(tag)
  );
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k === 'style' && typeof v === 'object') Object.assign(e.style, v);
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k in e && typeof v !== 'string')
      /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (e))[k] = v;
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

/**
 * Save a Blob as a file.
 * @param {Blob} blob
 * @param {string} name
 */
export function download(blob, name) {
  const a = el('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/**
 * Ask for one file; resolves with its bytes and name (or null when cancelled).
 * @param {HTMLInputElement} input a file input
 * @returns {Promise<{name: string, bytes: Uint8Array} | null>}
 */
export function readFile(input) {
  return new Promise((resolve) => {
    const f = input.files?.[0];
    if (!f) return resolve(null);
    f.arrayBuffer().then((b) => resolve({ name: f.name, bytes: new Uint8Array(b) }));
    input.value = '';
  });
}

/**
 * The scroll cue of a grid wider than its column: shades on the sides with more columns
 * (data-more-left / data-more-right on `gridScroll`) and a sentence (`scrollHint`) while it overflows.
 * @param {{gridWrap: HTMLElement, gridScroll: HTMLElement, scrollHint: HTMLElement}} ui
 * @returns {boolean} whether the grid overflows
 */
export function scrollCue({ gridWrap: w, gridScroll, scrollHint }) {
  const over = w.scrollWidth > w.clientWidth + 1;
  gridScroll.dataset.moreLeft = String(over && w.scrollLeft > 1);
  gridScroll.dataset.moreRight = String(over && w.scrollLeft + w.clientWidth < w.scrollWidth - 1);
  scrollHint.hidden = !over;
  return over;
}
