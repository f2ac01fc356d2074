// The iframe route, for platforms that allow iframes but not scripts: embed.html#preset=probe&...
// The hash holds the widget's settings as key=value pairs (config fields with '_' or '-', plus
// preset, view, controls, steps, height, theme, autoplay, and a demo's declared options). It
// never chooses attribute names: the widget's own settings (WIDGET_ATTRS, a fixed list) are set
// at once, everything else goes to the widget as data (`linkSettings`), which sets as attributes
// only the names it declares once the engine's registry is loaded (attributes.js) and lists the
// rest (onfocus, style, tabindex, src ...) in its "ignored" notice, as text. Nothing loads before
// the widget is on screen, as for any widget.
//
// Talking to the page around the frame (docs/widgets.md, "The iframe route"):
// - height: {type: 'attention-playground:height', height} on every change (ResizeObserver), so
//   that the host can fit the frame (embed-host.js does);
// - commands and events, only with the origins the link declares (origin=https://blog.example,
//   comma-separated or repeated; exact origins, http or https). A message is read only when it
//   comes from the parent window (event.source) and from a declared origin (event.origin);
//   anything else is dropped unanswered. Its content is read strictly (api.js: declared types and
//   fields, size limits); a refused one is answered with an `error` event naming the field. The
//   widget's events (ready, step, trained, error) go to the declared origins only, as
//   {type: 'attention-playground:event', event, detail}. Without a declared origin the frame
//   takes no commands and sends no events (its height is no secret: it goes to any parent).
//   `hello` (embed-host.js sends it on connecting) is answered with `ready` when the widget is
//   ready (or `error` when it could not start), for a host that connected after the fact.
//   setConfig sets only declared names, in every state of the widget (widget-api.js).
//   document.referrer is not used: it names whichever page framed the widget (an attacker's too)
//   and a referrer policy can strip it.
import './attention-playground.js';
import { WIDGET_ATTRS, hashAttributes } from './attributes.js';
import { PREFIX, readMessage } from './api.js';
import { currentHash, onHashChange } from '../state/address.js';

export { hashAttributes };

/** Events re-sent to the declared origins. */
const EVENTS = ['ready', 'model', 'metrics', 'step', 'trained', 'error'];

/**
 * The origins a link declares (`origin` pairs), each an exact http(s) origin. A pair with anything
 * else is refused whole: its value goes to `malformed` (the widget's notice says which form is
 * allowed), and it sets nothing.
 * @param {[string, string][]} pairs
 * @returns {{origins: string[], malformed: string[], rest: [string, string][]}}
 */
export function declaredOrigins(pairs) {
  /** @type {string[]} */
  const origins = [];
  /** @type {string[]} */
  const malformed = [];
  const rest = pairs.filter(([k, v]) => {
    if (k !== 'origin') return true;
    const list = v
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean);
    const exact = (/** @type {string} */ o) => {
      try {
        const u = new URL(o);
        return /^https?:$/.test(u.protocol) && u.origin === o;
      } catch {
        return false;
      }
    };
    if (!list.length || list.length > 8 || !list.every(exact)) malformed.push(v);
    else origins.push(...list);
    return false;
  });
  return { origins, malformed, rest };
}

/** @type {import('./attention-playground.js').AttentionPlaygroundElement|null} */
let widget = null;
/** @type {string[]} */
let origins = [];
const framed = parent !== window;

/** @param {object} msg */
function tell(msg) {
  if (framed) for (const o of origins) parent.postMessage(msg, o);
}

function build() {
  const w = /** @type {import('./attention-playground.js').AttentionPlaygroundElement} */ (
    document.createElement('attention-playground')
  );
  const all = hashAttributes(currentHash());
  const declared = declaredOrigins(all);
  origins = declared.origins;
  const pairs = declared.rest;
  for (const [k, v] of pairs) if (WIDGET_ATTRS.includes(k)) w.setAttribute(k, v);
  w.linkSettings = pairs.filter(([k]) => !WIDGET_ATTRS.includes(k));
  w.badOrigins = declared.malformed; // said in the widget's notice, as text
  // In an iframe the widget is the page: it plays when shown unless the hash says otherwise.
  if (!w.hasAttribute('autoplay')) w.setAttribute('autoplay', '');
  for (const name of EVENTS)
    w.addEventListener(name, (e) => {
      const d = /** @type {CustomEvent} */ (e).detail;
      // Data only, copied: ready's engine description stays in the frame.
      tell({ type: `${PREFIX}event`, event: name, detail: name === 'ready' ? { preset: d?.preset } : { ...d } });
    });
  widget = w;
  document.body.replaceChildren(w);
}

build();
onHashChange(build);

addEventListener('message', (e) => {
  if (!framed || e.source !== parent || !origins.includes(e.origin) || !widget) return;
  const call = readMessage(e.data);
  if ('error' in call) {
    widget.dispatchEvent(new CustomEvent('error', { detail: call.error }));
    return;
  }
  if (call.method === 'hello') {
    // a host that connected late: say what it missed
    if (widget.status === 'ready')
      tell({
        type: `${PREFIX}event`,
        event: 'ready',
        detail: { preset: widget.getAttribute('preset') ?? 'playground' },
      });
    else if (widget.status === 'error')
      tell({ type: `${PREFIX}event`, event: 'error', detail: { field: 'widget', message: widget.error } });
    return;
  }
  const w = /** @type {Record<string, (...args: any[]) => Promise<boolean>>} */ (/** @type {unknown} */ (widget));
  if (call.method === 'setConfig') w.setConfig(Object.fromEntries(call.args[0]));
  else w[call.method](...call.args);
});

if (framed) {
  let last = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    const msg = { type: `${PREFIX}height`, height };
    if (origins.length) tell(msg);
    else parent.postMessage(msg, '*');
  }).observe(document.documentElement);
}
