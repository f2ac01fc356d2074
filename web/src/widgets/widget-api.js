// The code behind the element's train(n), reset(), setConfig(fields) and highlight(sel), loaded
// when a page first calls one of them (a widget that is only read, never driven, does not
// download it). Every call goes through the widget's app and its run controller; a refused call
// fires `error` ({field, message, allowed}) on the element and resolves to false, leaving the
// widget as it was. A call made before the widget is built waits for it (it builds when on
// screen). Arguments are read by api.js; config fields by the attributes' reader (attributes.js),
// which applies each through the one field reader (state/fields.js applyField).
import { readAttributes, readConfigFields, readSteps, undeclared, WIDGET_ATTRS } from './attributes.js';
import { selectorsFirst } from '../state/properties.js';
import { readCount, readFields, readHighlight } from './api.js';
import { presetFor } from './presets.js';
import { sharedEngine } from './shared.js';
import { MAX_WAITING } from './step-queue.js';

/** @typedef {import('./attention-playground.js').AttentionPlaygroundElement} Widget */

/**
 * Train exactly n steps (1 … 10000), then redraw: true once trained; false when refused (`error`)
 * or when a pause, a reset or the widget leaving the screen cancelled them (no `error`: nothing
 * was wrong). One step(n) runs, one waits; calls made meanwhile join the waiting one while it
 * stays within MAX_WAITING steps (step-queue.js), else they are refused naming `n`. `taken` is
 * called once the steps are queued (the element's next call may then go: attention-playground.js).
 * @param {Widget} w @param {unknown} n @param {number} [halts] w.halts when the call was made
 * @param {() => void} [taken]
 */
export async function train(w, n, halts = w.halts, taken = () => {}) {
  const r = readCount(n);
  if ('error' in r) return w._refuse(r.error);
  const app = await appFor(w, 'train');
  if (!app) return false;
  if (w.halts !== halts) return false; // a pause, a reset or leaving the screen came after the call
  if (!('train' in app))
    return w._refuse({
      field: 'train',
      message: 'train(n) is for one model; a comparison trains with play and pause.',
    });
  const done = app.train(r.value);
  taken();
  if (!done) {
    const waiting = app.steps.waiting?.n ?? 0;
    return w._refuse({
      field: 'n',
      message: `n=${r.value}: ${waiting} steps already wait behind the running train(n), and at most ${MAX_WAITING} may wait; call again once they are trained, or pause.`,
      ...(waiting < MAX_WAITING ? { allowed: [`1…${MAX_WAITING - waiting}`] } : {}),
    });
  }
  return done;
}

/** Back to step 0 with the same seed. @param {Widget} w */
export async function reset(w) {
  const app = await appFor(w, 'reset');
  if (!app) return false;
  await app.reset();
  return true;
}

/**
 * Change config fields: read like the attributes (same reader, same messages), then a new model
 * through the run controller (WidgetApp.setState, which lets the engine check the config first).
 * A field that cannot be used fires `error` naming it and its allowed values; the widget keeps
 * its model and state. The fields are written back as attributes (without a rebuild), so that a
 * later rebuild keeps them. A demo preset, a comparison or a widget that could not start takes
 * them as attributes, checked by the same reader, and is built again. In every state, a name the
 * widget does not declare (declaredAttributes: the list the hash route uses) is refused first.
 * @param {Widget} w
 * @param {unknown} fields
 */
export async function setConfig(w, fields) {
  const r = readFields(fields);
  if ('error' in r) return w._refuse(r.error);
  const own = r.value.find(([k]) => WIDGET_ATTRS.includes(k) && k !== 'steps');
  if (own)
    return w._refuse({
      field: own[0],
      message: `${own[0]} is a widget setting, not a config field: set the attribute.`,
    });
  if (w.status !== 'error') await w.built.promise;
  // The step(n) calls made before it are trained first (a new model would drop them).
  const queue = w.app && 'train' in w.app ? w.app.steps : null;
  await queue?.idle();
  const engine = await sharedEngine();
  // Declared names only, in every state (the hash route's list: attributes.js): setConfig never
  // sets style, id, on*, tabindex ... on the element, whatever the widget is showing.
  const stranger = undeclared(r.value, engine);
  if (stranger) return w._refuse({ field: stranger.field, message: stranger.text });
  const app = w.app;
  if (app && 'setState' in app && w.status === 'ready') {
    const preset = presetFor(w.getAttribute('preset')?.trim() || 'playground', engine.registry);
    const read = readConfigFields(selectorsFirst(r.value.filter(([k]) => k !== 'steps')), app.state, engine, preset);
    const [bad] = read.errors;
    if (bad)
      return w._refuse({ field: bad.field, message: bad.text, ...(bad.allowed ? { allowed: bad.allowed } : {}) });
    const steps = r.value.find(([k]) => k === 'steps')?.[1];
    const n = steps === undefined ? undefined : readSteps(steps);
    if (typeof n === 'string') return w._refuse({ field: 'steps', message: n });
    const check = await app.setState({
      .../** @type {import('../state/properties.js').State} */ (read.state),
      ...(n ? { steps: n } : {}),
    });
    if (!check.ok)
      return w._refuse({
        field: /^([a-z_0-9]+):/.exec(check.error)?.[1].replaceAll('_', '-') ?? 'fields',
        message: `This combination cannot train: ${check.error}`,
      });
    for (const [k, v] of r.value) w.setAttribute(k, v);
    w.attrObserver?.takeRecords(); // set: not an attribute change to rebuild for
    return true;
  }
  const merged = new Map(w.getAttributeNames().map((k) => [k, w.getAttribute(k) ?? '']));
  for (const [k, v] of r.value) merged.set(k, v);
  const settings = readAttributes([...merged], engine);
  const named = settings.errors.find((e) => r.value.some(([k]) => e.startsWith(`${k}="`)));
  if (named) return w._refuse({ field: /^([^=]+)=/.exec(named)?.[1] ?? 'fields', message: named });
  for (const [k, v] of r.value) w.setAttribute(k, v);
  return true;
}

/**
 * Pick a head in the attention panel, {layer, head, row} (0-based; row, a query, optional), or
 * none (null). The widget must show the attention panel.
 * @param {Widget} w
 * @param {unknown} sel
 */
export async function highlight(w, sel) {
  const r = readHighlight(sel);
  if ('error' in r) return w._refuse(r.error);
  const app = await appFor(w, 'highlight');
  if (!app) return false;
  const err =
    'highlight' in app
      ? app.highlight(r.value)
      : { field: 'highlight', message: 'highlight is for one model with the attention panel.' };
  return err ? w._refuse(err) : true;
}

/** The built app for `method`, once ready; null (and `error`) for a demo preset. @param {Widget} w @param {string} method */
async function appFor(w, method) {
  await w.built.promise;
  if (w.app) return w.app;
  if (w.status === 'error') {
    w._refuse({ field: method, message: `${method}: the widget could not start (${w.error}).` });
    return null;
  }
  w._refuse({
    field: method,
    message: `${method} is for the playground and per-encoding presets; a demo preset drives its own models (use play and pause).`,
  });
  return null;
}
