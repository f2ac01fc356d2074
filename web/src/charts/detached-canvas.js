// Canvas drawing that reads no page style. Setting `font` on the 2D context of a canvas that is
// in the page makes Chrome bring the canvas's style up to date first, and inside a container
// query (the widget's sheet) that means a full layout: one forced layout per chart per draw, up
// to 100 ms on a slow machine while the widget's text changes every step. So charts draw on an
// OffscreenCanvas (no element, no style) and copy the finished picture onto the visible canvas.
// CSS colours are read once per theme (cssColors), not per draw: getComputedStyle forces the
// same layout. Where OffscreenCanvas is missing, drawing goes to the visible canvas as before.

let epoch = 0;
/** The page's theme changed: the next cssColors() call reads the CSS again. */
export function styleChanged() {
  epoch++;
}
if (typeof matchMedia === 'function')
  matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', styleChanged);

/**
 * Colours from CSS custom properties of `el`, read once per theme and kept in `cache`.
 * @param {Element} el
 * @param {Record<string, string>} fallbacks custom property name -> colour when unset
 * @param {{epoch?: number, colors?: Record<string, string>}} cache
 * @returns {Record<string, string>}
 */
export function cssColors(el, fallbacks, cache) {
  if (cache.colors && cache.epoch === epoch) return cache.colors;
  const css = getComputedStyle(el);
  const colors = Object.fromEntries(
    Object.entries(fallbacks).map(([name, d]) => [name, css.getPropertyValue(name).trim() || d]),
  );
  if (!el.isConnected) return colors; // not in the page yet: no page style to keep (drawn again once it is)
  cache.colors = colors;
  cache.epoch = epoch;
  return colors;
}

export class DetachedCanvas {
  /** @param {HTMLCanvasElement} canvas the visible canvas */
  constructor(canvas) {
    this.canvas = canvas;
    /** @type {OffscreenCanvas | null} */
    this.off = null;
  }

  /**
   * A cleared 2D context of w × h CSS pixels at device ratio dpr, to draw the next picture on.
   * The visible canvas is resized only when its size changes (a resize dirties the layout).
   * @param {number} w
   * @param {number} h
   * @param {number} dpr
   * @returns {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D}
   */
  begin(w, h, dpr) {
    const c = this.canvas;
    const W = Math.round(w * dpr);
    const H = Math.round(h * dpr);
    if (c.width !== W || c.height !== H) {
      c.width = W;
      c.height = H;
      c.style.width = `${w}px`;
      c.style.height = `${h}px`;
    }
    /** @type {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null} */
    let g = null;
    if (typeof OffscreenCanvas === 'function') {
      if (!this.off || this.off.width !== W || this.off.height !== H) this.off = new OffscreenCanvas(W, H);
      g = this.off.getContext('2d');
    }
    g ??= /** @type {CanvasRenderingContext2D} */ (c.getContext('2d'));
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    return g;
  }

  /** Show what was drawn since begin(). */
  end() {
    if (!this.off) return;
    const g = /** @type {CanvasRenderingContext2D} */ (this.canvas.getContext('2d'));
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, this.canvas.width, this.canvas.height);
    g.drawImage(this.off, 0, 0);
  }
}
