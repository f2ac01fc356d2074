// A widget's reserved height against its built one, in a column of a given width (reserve.js): the
// widget in a <div> that wide, on a page 20 px wider, built (a config preset at step ≥ 20; a demo
// once its box says ready), then the room it holds (its card's min-height) and the height its
// content takes (the same card without that minimum). Used by widget-reserve.test.mjs and by
// build-scripts/measure-reserve.mjs, which writes the measured tables into reserve-heights.json.
import { page as fixture } from './widget-fixtures.mjs';

/** The test page of one widget tag in a column `width` px wide. */
export const columnPage = (/** @type {string} */ tag, /** @type {number} */ width) =>
  fixture(`<div id="col" style="width:${width}px">${tag}</div>`, '<style>body { margin: 0 }</style>');

/**
 * Open `path` (a columnPage) at `width` on `server` (widget-fixtures.mjs startWidgetServer) and
 * measure. Throws, naming what it saw, when the widget is not built within `timeout` ms.
 * @returns {Promise<{reserved: number, natural: number, errors: string[]}>}
 */
export async function measureWidget(server, path, width, timeout = 240000) {
  const { page: p, errors } = await server.open(path, { width: width + 20, height: 900 });
  try {
    await p.waitForFunction(
      () => {
        const w = document.querySelector('attention-playground');
        if (w.status === 'error') throw new Error(`the widget failed: ${w.error}`);
        const demoReady = !w.demo || w.shadowRoot.querySelector('.apd')?.dataset.ready === 'true';
        return w.status === 'ready' && demoReady && (w.demo || w.currentStep >= 20);
      },
      null,
      { timeout },
    );
    // The views drawn after the last step: the height the content takes, once it has held for 30
    // frames in a row (at most 1200 frames).
    const m = await p.evaluate(
      () =>
        new Promise((done, fail) => {
          const w = document.querySelector('attention-playground');
          const card = /** @type {HTMLElement} */ (w.shadowRoot.querySelector('.ap'));
          let last = -1;
          let same = 0;
          let frames = 0;
          const look = () => {
            const held = card.style.minHeight;
            card.style.minHeight = '0px';
            const natural = Math.round(w.getBoundingClientRect().height);
            card.style.minHeight = held;
            same = natural === last ? same + 1 : 0;
            last = natural;
            if (same >= 30) return done({ reserved: parseFloat(held) || 0, natural });
            if (++frames > 1200) return fail(new Error(`the widget's height did not settle (last ${natural} px)`));
            requestAnimationFrame(look);
          };
          requestAnimationFrame(look);
        }),
    );
    return { ...m, errors };
  } finally {
    await p.close();
  }
}
