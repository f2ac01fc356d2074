// The one "Download ▾" control of every figure view (attention heads, position maps and bars, the
// explorer's charts, the probe grid): a <details> that opens onto SVG / PNG / JSON / CSV buttons.
// The figure is asked for at click time (getFigure), so a download is what the view shows then.
// The builders (charts/figure-export.js and what it uses) load on the first click: a widget's
// first render does not download them.
import { el, download } from './dom.js';

/** @typedef {import('../charts/figure-layout.js').Figure} Figure */

const LABELS = { svg: 'SVG', png: 'PNG (3×)', json: 'JSON', csv: 'CSV' };
const FORMATS = /** @type {import('../charts/figure-export.js').FigureFormat[]} */ (Object.keys(LABELS));

/**
 * A download control.
 * @param {() => Figure|null} getFigure the figure now (null: nothing drawn yet)
 * @param {() => string} fileName the file name without extension ('attnplay-attention-l1-h1')
 * @param {{download: string, nothing: string, formats: string}} [words] its words in the page's
 *   language (default English; panels/positions-panel.js passes its own)
 * @returns {HTMLDetailsElement}
 */
export function figureMenu(
  getFigure,
  fileName,
  words = { download: 'Download ▾', nothing: 'nothing drawn yet', formats: 'file format' },
) {
  const status = el('span', { class: 'fig-dl-status', role: 'status' });
  const buttons = FORMATS.map((format) =>
    el(
      'button',
      {
        type: 'button',
        class: 'small',
        dataset: { format },
        onclick: async () => {
          const f = getFigure();
          if (!f) {
            status.textContent = words.nothing;
            return;
          }
          try {
            const { figureBlob, fileSlug } = await import('../charts/figure-export.js');
            download(await figureBlob(f, format), `${fileSlug(fileName())}.${format}`);
            status.textContent = '';
            box.open = false;
          } catch (err) {
            status.textContent = String(/** @type {Error} */ (err).message ?? err);
          }
        },
      },
      LABELS[format],
    ),
  );
  const menu = el('div', { class: 'fig-dl-menu', role: 'group', 'aria-label': words.formats }, ...buttons, status);
  const box = el('details', { class: 'fig-dl' }, el('summary', {}, words.download), menu);
  // Closes on a press outside it (composedPath: inside a widget's shadow root too) or on Escape.
  const outside = (/** @type {Event} */ e) => {
    if (!e.composedPath().includes(box)) box.open = false;
  };
  box.addEventListener('toggle', () => {
    // Opens leftwards from its right edge, unless that would leave the viewport.
    menu.classList.remove('from-left');
    if (box.open && menu.getBoundingClientRect().left < 0) menu.classList.add('from-left');
    if (box.open) document.addEventListener('pointerdown', outside, true);
    else document.removeEventListener('pointerdown', outside, true);
  });
  box.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !box.open) return;
    box.open = false;
    /** @type {HTMLElement} */ (box.querySelector('summary')).focus();
  });
  return box;
}
