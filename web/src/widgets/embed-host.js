// For a page that shows the widget through an iframe (embed.html, the iframe route): fit the frame
// to the widget's height and drive the widget through postMessage, the frame's origin checked both
// ways. Standalone (no imports): `import { connectFrame } from 'attention-playground/embed-host.js'`
// or copy it. The frame's URL must declare this page's origin for commands and events
// (embed.html#preset=rope&origin=https://blog.example); the height needs nothing.
//
//   const w = connectFrame(document.querySelector('iframe'));
//   w.frame.addEventListener('step', (e) => console.log(e.detail.step, e.detail.loss));
//   w.setConfig({ position: 'rope' }); w.play();

const PREFIX = 'attention-playground:';
const EVENTS = ['ready', 'step', 'trained', 'error'];
/** The tallest height a frame is given (px): a height from the frame is data, bounded. */
export const MAX_HEIGHT = 20000;

/**
 * Connect to a widget's iframe. Its height messages resize it (style.height); its events are fired
 * on the iframe element as `ready`, `step`, `trained` and `error` (CustomEvents, detail as the
 * element's, not bubbling). Messages from any other window or origin are ignored.
 * @param {HTMLIFrameElement} frame
 * @param {{fit?: boolean}} [opts] fit: false leaves the frame's height alone
 */
export function connectFrame(frame, { fit = true } = {}) {
  const origin = new URL(frame.src, location.href).origin;
  /** @param {MessageEvent} e */
  const onMessage = (e) => {
    if (e.source !== frame.contentWindow || e.origin !== origin) return;
    const d = e.data;
    if (typeof d !== 'object' || d === null || typeof d.type !== 'string') return;
    if (d.type === `${PREFIX}height`) {
      const h = Number(d.height);
      if (fit && Number.isFinite(h) && h >= 0 && h <= MAX_HEIGHT) frame.style.height = `${Math.ceil(h)}px`;
    } else if (d.type === `${PREFIX}event` && EVENTS.includes(d.event)) {
      frame.dispatchEvent(new CustomEvent(d.event, { detail: d.detail }));
    }
  };
  addEventListener('message', onMessage);
  /** @param {string} type @param {object} [fields] */
  const post = (type, fields = {}) => frame.contentWindow?.postMessage({ type: PREFIX + type, ...fields }, origin);
  return {
    frame,
    play: () => post('play'),
    pause: () => post('pause'),
    /** @param {number} [n] */
    step: (n = 1) => post('step', { n }),
    reset: () => post('reset'),
    /** @param {Record<string, string|number|boolean>} fields */
    setConfig: (fields) => post('setConfig', { fields }),
    /** @param {{layer: number, head: number, row?: number}|null} [sel] */
    highlight: (sel) => post('highlight', sel ?? {}),
    /** Stop listening. */
    close: () => removeEventListener('message', onMessage),
  };
}
