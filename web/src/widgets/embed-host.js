// For a page that shows the widget through an iframe (embed.html, the iframe route): fit the frame
// to the widget's height and drive the widget through postMessage, the frame's origin checked both
// ways. Standalone (no imports): `import { connectFrame } from 'attention-playground/embed-host.js'`
// or copy it. The frame's URL must declare this page's origin for commands and events
// (embed.html#preset=rope&origin=https://blog.example); the height needs nothing.
//
// Commands wait until the frame says it listens (its `ready` event, or an `error` from a widget
// that could not start): a script may drive the frame right after connecting, before it loaded.
// A frame that has not answered after WARN_AFTER_MS gets a console warning naming what in its link
// is likely wrong (no origin, a trailing slash or path, another origin than this page's).
//
//   const fig = connectFrame(document.querySelector('iframe'));
//   fig.frame.addEventListener('metrics', (e) => console.log(e.detail.step, e.detail.loss));
//   fig.setConfig({ position: 'rope' }); fig.play(); // sent once the frame is ready
//   await fig.ready;                                  // resolves at its `ready`

const PREFIX = 'attention-playground:';
const EVENTS = ['ready', 'model', 'metrics', 'step', 'trained', 'error'];
/** The tallest height a frame is given (px): a height from the frame is data, bounded. */
export const MAX_HEIGHT = 20000;
/** The most commands that wait for the frame; later ones are dropped with an `error` event. */
export const MAX_QUEUED = 64;
/** How long (ms) a frame may stay silent before connectFrame says in the console what is likely wrong. */
export const WARN_AFTER_MS = 5000;

/**
 * The `origin` values a frame's link declares (embed.html#...&origin=https://blog.example), read
 * as embed.js reads them.
 * @param {string} src the frame's URL
 */
function linkOrigins(src) {
  const decode = (/** @type {string} */ t) => {
    try {
      return decodeURIComponent(t.replaceAll('+', ' '));
    } catch {
      return t;
    }
  };
  return new URL(src, globalThis.location?.href).hash
    .slice(1)
    .split('&')
    .map((part) => [
      decode(part.slice(0, Math.max(0, part.indexOf('='))))
        .trim()
        .toLowerCase(),
      part,
    ])
    .filter(([key]) => key === 'origin')
    .flatMap(([, part]) => decode(part.slice(part.indexOf('=') + 1)).split(','))
    .map((o) => o.trim())
    .filter(Boolean);
}

/**
 * Why a frame's link keeps its commands and events from this page, in words (null: its link
 * declares this page's origin). An origin is scheme://host[:port], with no path and no slash.
 * @param {string} src the frame's URL
 * @param {string} here this page's origin (location.origin)
 * @returns {string|null}
 */
export function originProblem(src, here) {
  const given = linkOrigins(src);
  const fix = `add origin=${here} to the frame's URL (embed.html#...&origin=${here})`;
  if (!given.length) return `its URL declares no origin, so it takes no commands and sends no events: ${fix}.`;
  if (given.includes(here)) return null;
  const near = given.find((o) => {
    try {
      return new URL(o).origin === here;
    } catch {
      return false;
    }
  });
  if (near)
    return `its URL declares origin=${near}, which is not an origin: write scheme://host[:port] with no path and no trailing slash, origin=${here}.`;
  return `its URL declares origin=${given.join(',')}, and this page's origin is ${here}: ${fix}.`;
}

/**
 * After WARN_AFTER_MS without `ready` or `error` from the frame, a console warning on this page:
 * what in the frame's link is likely wrong, or that the frame never spoke at all.
 * @param {HTMLIFrameElement} frame
 * @param {() => boolean} heard whether the frame has sent anything (a height)
 * @returns {() => void} cancel (the frame answered)
 */
function warnIfSilent(frame, heard) {
  const timer = setTimeout(() => {
    const problem = originProblem(frame.src, location.origin);
    if (problem)
      console.warn(`connectFrame: no answer from the widget's frame after ${WARN_AFTER_MS / 1000} s; ${problem}`);
    else if (!heard())
      console.warn(
        `connectFrame: the frame ${frame.src} sent nothing in ${WARN_AFTER_MS / 1000} s: is it an attention-playground embed.html, and did it load?`,
      );
  }, WARN_AFTER_MS);
  return () => clearTimeout(timer);
}

/**
 * The commands for one frame: sent at once while it listens, queued (at most MAX_QUEUED) until it
 * does, then sent in order.
 */
class Commands {
  /** @param {HTMLIFrameElement} frame @param {string} origin the frame's */
  constructor(frame, origin) {
    this.frame = frame;
    this.origin = origin;
    /** @type {object[]|null} commands waiting for the frame (null: it listens) */
    this.queue = [];
  }

  /** @param {object} msg */
  send(msg) {
    this.frame.contentWindow?.postMessage(msg, this.origin);
  }

  /** The frame listens: the waiting commands go, in order, and later ones go at once. */
  flush() {
    const waiting = this.queue ?? [];
    this.queue = null;
    for (const msg of waiting) this.send(msg);
  }

  /** Send or queue a command; one past MAX_QUEUED is dropped with an `error` event. @param {string} type @param {object} [fields] */
  post(type, fields = {}) {
    const msg = { type: PREFIX + type, ...fields };
    if (!this.queue) return this.send(msg);
    if (this.queue.length < MAX_QUEUED) return void this.queue.push(msg);
    const detail = {
      field: 'queue',
      message: `${type}: ${MAX_QUEUED} commands already wait for the frame to be ready; this one was dropped.`,
    };
    this.frame.dispatchEvent(new CustomEvent('error', { detail }));
  }
}

/**
 * What a message from the frame does: a height fits it (with `fit`), an event is fired on it, and
 * its `ready` (or `error`) says that it listens. Any other window, origin or shape is ignored.
 * @param {MessageEvent} e
 * @param {HTMLIFrameElement} frame
 * @param {string} origin the frame's
 * @param {boolean} fit
 * @param {(event: string) => void} onEvent called before the event is fired
 */
function fromFrame(e, frame, origin, fit, onEvent) {
  if (e.source !== frame.contentWindow || e.origin !== origin) return;
  const d = e.data;
  if (typeof d !== 'object' || d === null || typeof d.type !== 'string') return;
  if (d.type === `${PREFIX}height`) {
    const h = Number(d.height);
    if (fit && Number.isFinite(h) && h >= 0 && h <= MAX_HEIGHT) frame.style.height = `${Math.ceil(h)}px`;
  } else if (d.type === `${PREFIX}event` && EVENTS.includes(d.event)) {
    onEvent(d.event);
    frame.dispatchEvent(new CustomEvent(d.event, { detail: d.detail }));
  }
}

/**
 * Connect to a widget's iframe. Its height messages resize it (style.height); its events are fired
 * on the iframe element as `ready`, `model`, `metrics` (and `step`, its old name), `trained` and `error` (CustomEvents, detail as the
 * element's, not bubbling). Messages from any other window or origin are ignored. Commands made
 * before the frame is ready are queued (at most MAX_QUEUED) and sent, in order, when it is;
 * `ready` is a promise of that moment.
 * @param {HTMLIFrameElement} frame
 * @param {{fit?: boolean}} [opts] fit: false leaves the frame's height alone
 */
export function connectFrame(frame, { fit = true } = {}) {
  const origin = new URL(frame.src, location.href).origin;
  const commands = new Commands(frame, origin);
  /** @type {() => void} */
  let readyNow = () => {};
  const ready = new Promise((/** @type {(v: void) => void} */ r) => (readyNow = r));
  let heard = false;
  const answered = warnIfSilent(frame, () => heard);
  /** @param {string} event */
  const onEvent = (event) => {
    if (event === 'ready') readyNow();
    if (event === 'ready' || event === 'error') {
      answered();
      commands.flush();
    }
  };
  /** @param {MessageEvent} e */
  const onMessage = (e) => {
    if (e.source === frame.contentWindow && e.origin === origin) heard = true;
    fromFrame(e, frame, origin, fit, onEvent);
  };
  addEventListener('message', onMessage);
  /** @param {string} type @param {object} [fields] */
  const post = (type, fields = {}) => commands.post(type, fields);
  // A frame that was ready before this call answers with `ready` (one still loading says so when
  // it is). Sent to any origin: it carries nothing, and the frame may not have loaded its page yet.
  frame.contentWindow?.postMessage({ type: `${PREFIX}hello` }, '*');
  return {
    frame,
    /** Resolves when the frame's widget is ready (its `ready` event). */
    ready,
    play: () => post('play'),
    pause: () => post('pause'),
    /** @param {number} [n] */
    train: (n = 1) => post('train', { n }),
    /** The old name of train(n): its old message, which frames of every version read. @param {number} [n] */
    step: (n = 1) => post('step', { n }),
    reset: () => post('reset'),
    /** @param {Record<string, string|number|boolean>} fields */
    setConfig: (fields) => post('setConfig', { fields }),
    /** @param {{layer: number, head: number, row?: number}|null} [sel] */
    highlight: (sel) => post('highlight', sel ?? {}),
    /** Stop listening (queued commands are dropped). */
    close: () => {
      answered();
      commands.queue = [];
      removeEventListener('message', onMessage);
    },
  };
}
