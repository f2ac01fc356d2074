// The element's attributes, read as data: widget settings (preset, view, controls, steps, height,
// theme, compact, autoplay) and any config field of the engine, named as in the config with '_' written
// '-' (d-model="64", seq-len="32", position="rope"). Values are applied by the reader the
// playground's URL uses (state/fields.js applyField); anything that cannot be used is reported,
// never guessed.
// Nothing here touches the DOM: values only ever reach the page as text.
// The names a widget accepts are an allow-list built from the same tables (declaredAttributes):
// the embed route (embed.html#...) sets no other attribute, so a link cannot add onfocus, style ...
import { selectorsFirst } from '../state/properties.js';
import { applyField } from '../state/fields.js';
import { defaultState, withValue } from '../state/state.js';
import { presetFor, presetNames } from './presets.js';
import { readCompare } from '../state/compare.js';
import { addMessages, sayIn } from '../common/messages.js';
import ELEMENT_EN from '../common/messages/element.en.js';
import ELEMENT_ZH from '../common/messages/element.zh.js';

addMessages('en', ELEMENT_EN); // the sentences below, in both languages (the element's part: no download)
addMessages('zh', ELEMENT_ZH);

/** @typedef {import('../state/properties.js').State} State */
/** @typedef {import('../state/properties.js').Value} Value */
/**
 * A widget's settings, read from its attributes (readAttributes).
 * @typedef {{preset: import('./presets.js').Preset|null, state: State|null, overrides: Record<string, Value>,
 *   view: string[], controls: string[], height: number, autoplay: boolean, errors: string[], said: Said[],
 *   compare: {runs: State[], fields: string[]}|null, lang?: import('../common/messages.js').Lang,
 *   inspectLen: 'seq-len'|'eval-len'}} WidgetSettings
 *   errors: what cannot be used, in English (the API's messages); said: the same, as message keys, for
 *   the widget's notice in its language (sayIn); compare: the runs of a `compare` attribute; lang: the
 *   language of its visible strings (the element's lang); inspectLen: the length its attention,
 *   positions and predictions views look at the model at (`inspect-len`: the config's seq_len or eval_len)
 */
/** @typedef {import('../state/fields.js').Said} Said */

/**
 * What cannot be used, collected twice: as English sentences (the API's messages, `errors`) and as
 * message keys with their parameters (`said`), one entry each, in the same order.
 */
class Problems {
  constructor() {
    /** @type {string[]} */
    this.errors = [];
    /** @type {Said[]} */
    this.said = [];
  }

  /** @param {string} key @param {Said['params']} [params] */
  add(key, params = {}) {
    this.said.push({ key, params });
    this.errors.push(sayIn('en', { key, params }));
  }

  /** A sentence only in English (a comparison's: compare.js words its own). @param {string} text */
  asIs(text) {
    this.add('attr.asIs', { text });
  }
}

// heads and interventions: their code loads only for a widget that names them (extra-views.js).
export const VIEWS = ['chart', 'attention', 'positions', 'predictions', 'generate', 'heads', 'interventions'];
export const TRANSPORT = ['play', 'step', 'reset'];
export const WIDGET_ATTRS = [
  'preset',
  'controls',
  'autoplay',
  'steps',
  'height',
  'view',
  'theme',
  'compact',
  'compare',
  'inspect-len',
];
// Attributes any HTML element may carry; the widget leaves them to the browser (a blogger's own
// id, class or style on the element). They are never settings, so never on the allow-list.
const GLOBAL_ATTRS = new Set([
  'id',
  'class',
  'style',
  'title',
  'hidden',
  'lang',
  'dir',
  'tabindex',
  'slot',
  'part',
  'role',
  'nonce',
  'is',
  'inert',
  'draggable',
  'translate',
  'spellcheck',
  'accesskey',
  'autofocus',
  'popover',
  'exportparts',
  'itemscope',
  'itemprop',
  'itemtype',
  'itemid',
  'itemref',
  'autocapitalize',
  'enterkeyhint',
  'inputmode',
  'contenteditable',
  'loading',
]);
const isGlobal = (/** @type {string} */ name) => GLOBAL_ATTRS.has(name) || /^(data-|aria-|on)/.test(name);
const NAME = /^[a-z][a-z0-9_-]*$/;

/**
 * A URL hash as [attribute, value] pairs, names lower-case with '_' written '-' (embed.html's
 * format). Every pair is returned, hostile ones too: allowedAttributes() decides.
 * @param {string} hash location.hash
 * @returns {[string, string][]}
 */
export function hashAttributes(hash) {
  // Not URL-encoded properly: kept as it came (and reported, as it is no declared name).
  const decode = (/** @type {string} */ t) => {
    try {
      return decodeURIComponent(t);
    } catch {
      return t;
    }
  };
  /** @type {[string, string][]} */
  const out = [];
  for (const part of hash.replace(/^#/, '').split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = decode(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decode(part.slice(eq + 1).replaceAll('+', ' '));
    out.push([key.trim().toLowerCase().replaceAll('_', '-'), value]);
  }
  return out;
}

/**
 * Every attribute name a widget reads, from the engine's tables: the widget's own settings, each
 * config field and variant option of the registry ('_' written '-'), and the options the demo
 * presets declare. HTML's own names (on*, style, id ...) are never on it.
 * @param {{registry: import('../wasm-api').Registry, props: import('../state/properties.js').Property[]}} engine
 * @returns {Set<string>}
 */
export function declaredAttributes({ registry, props }) {
  const names = new Set(WIDGET_ATTRS);
  for (const p of props) if (!p.view) names.add(p.key.replaceAll('_', '-'));
  for (const n of presetNames(registry))
    for (const o of presetFor(n, registry)?.options ?? []) names.add(o.replaceAll('_', '-'));
  for (const n of names) if (isGlobal(n) || !NAME.test(n)) names.delete(n);
  return names;
}

/**
 * The first of `pairs` whose name the widget does not declare (declaredAttributes), as the error
 * that names it, or null: setConfig's gate, the same list as the hash route's.
 * @param {[string, string][]} pairs
 * @param {{registry: import('../wasm-api').Registry, props: import('../state/properties.js').Property[]}} engine
 * @returns {FieldError|null}
 */
export function undeclared(pairs, engine) {
  const declared = declaredAttributes(engine);
  const bad = pairs.find(([k]) => !declared.has(k));
  if (!bad) return null;
  const fields = engine.props.filter((q) => !q.scope && !q.view).map((q) => q.key.replaceAll('_', '-'));
  return {
    field: bad[0],
    text: `${quoted(bad[0], bad[1])}: unknown attribute, not set. Use a config field (${fields.join(', ')}), an option of the task, encoding or normalization, or a demo's option; HTML's own attributes (style, id, on…) are the page's to set.`,
  };
}

/**
 * Split name/value pairs from an untrusted source (a URL) into those the widget declares and the
 * rest, as `name="value"` text for the page's "ignored" notice. Only `allowed` may become
 * attributes (a name given twice: the last wins, as setAttribute does).
 * @param {[string, string][]} pairs
 * @param {{registry: import('../wasm-api').Registry, props: import('../state/properties.js').Property[]}} engine
 * @returns {{allowed: [string, string][], ignored: string[]}}
 */
export function allowedAttributes(pairs, engine) {
  const declared = declaredAttributes(engine);
  const allowed = pairs.filter(([k]) => declared.has(k));
  const ignored = pairs.filter(([k]) => !declared.has(k)).map(([k, v]) => quoted(k, v));
  return { allowed, ignored };
}

/** Whether a boolean attribute is on: present, and not "false" / "0" / "no". @param {string|null|undefined} value */
export function flag(value) {
  return value !== null && value !== undefined && !/^(false|0|no|off)$/i.test(value.trim());
}

const list = (/** @type {string} */ v) => v.split(/[\s,]+/).filter(Boolean);
const cut = (/** @type {string} */ t, /** @type {number} */ n) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);
/** `name="value"` for messages, both cut short (they are shown as text, never as markup). */
export const quoted = (/** @type {string} */ name, /** @type {string} */ value) =>
  `${cut(name, 40)}="${cut(value, 60)}"`;

/**
 * A config field's error: the field (as written), a sentence that names it, and its allowed
 * values when they are a list (an encoding, a task ...).
 * @typedef {{field: string, text: string, said?: Said, allowed?: string[]}} FieldError
 */

/**
 * Config fields as text (attribute name, value), read onto `state` (a config preset's; null for a
 * demo preset) in order, each applied by the URL's reader (state/fields.js applyField): the reader of the
 * element's attributes, and of setConfig(). Pass task / position / normalization first (they
 * decide which options exist). A demo preset's declared options go to `overrides` as text.
 * @param {[string, string][]} fields [attribute name ('_' written '-'), raw value]
 * @param {State|null} state
 * @param {{registry: import('../wasm-api').Registry, props: import('../state/properties.js').Property[]}} engine
 * @param {import('./presets.js').Preset|null} preset
 * @returns {{state: State|null, overrides: Record<string, Value>, errors: FieldError[]}}
 */
export function readConfigFields(fields, state, { registry, props }, preset) {
  /** @type {FieldError[]} */
  const errors = [];
  /** @type {Record<string, Value>} */
  const overrides = {};
  for (const [attr, raw] of fields) {
    const key = attr.replaceAll('-', '_');
    const r = preset?.lists?.includes(key)
      ? readList({ props, registry }, state, key, raw)
      : applyField({ props, registry }, state, key, raw.trim());
    if (!('error' in r) && preset?.lists?.includes(key)) {
      overrides[key] = raw; // a demo's list of the field's values (position="none,rope"): the demo reads it
      continue;
    }
    if ('error' in r && r.error.kind === 'unknown' && preset?.options?.includes(key)) {
      // an option the demo declares (seeds="2", encoding="rope"): the demo's reader (demos/options.js)
      // reads it as a field is read; what it refuses, the widget shows as an error (attention-playground.js)
      overrides[key] = raw;
      continue;
    }
    if ('error' in r) {
      errors.push(fieldError(attr, raw, r.error, props, preset));
      continue;
    }
    overrides[key] = r.value;
    state = r.state;
  }
  return { state, overrides, errors };
}

/**
 * The sentence for a field that cannot be used (readConfigFields).
 * @param {string} attr @param {string} raw
 * @param {import('../state/fields.js').FieldRefusal} error
 * @param {import('../state/properties.js').Property[]} props
 * @param {import('./presets.js').Preset|null} preset
 * @returns {FieldError}
 */
function fieldError(attr, raw, { kind, why, say, allowed }, props, preset) {
  const at = quoted(attr, raw);
  /** @type {Said} */
  let said;
  if (kind === 'unknown') {
    const fields = props
      .filter((q) => !q.scope)
      .map((q) => q.key.replaceAll('_', '-'))
      .join(', ');
    const options = preset?.options?.map((o) => o.replaceAll('_', '-')).join(', ');
    said = options
      ? { key: 'attr.unknownDemo', params: { attr: at, fields, options, allowed: WIDGET_ATTRS.join(', ') } }
      : { key: 'attr.unknown', params: { attr: at, fields, allowed: WIDGET_ATTRS.join(', ') } };
  } else said = { key: 'attr.field', params: { attr: at, why: say ?? { key: 'attr.asIs', params: { text: why } } } };
  return { field: attr, text: sayIn('en', said), said, ...(allowed ? { allowed } : {}) };
}

/**
 * A demo's list option (preset.lists): each value read as the config field's, the first that cannot
 * be used is the error; a name the reader does not know here (an option of one encoding) goes as given.
 * @param {{props: import('../state/properties.js').Property[], registry: import('../wasm-api').Registry}} engine
 * @param {State|null} state @param {string} key @param {string} raw
 */
function readList(engine, state, key, raw) {
  for (const v of list(raw)) {
    const r = applyField(engine, state, key, v);
    if ('error' in r && r.error.kind === 'value') return r;
  }
  return { state, value: raw };
}

/** A number of training steps, or the sentence that says why not. @param {string} raw */
export function readSteps(raw) {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= 1e6
    ? n
    : `${quoted('steps', raw)}: use a whole number of training steps from 1 to 1000000.`;
}

/**
 * Read a widget's attributes against the engine's registry.
 * @param {[string, string][]} attrs name/value pairs (names lower-case, as the DOM gives them)
 * @param {{registry: import('../wasm-api').Registry, props: import('../state/properties.js').Property[]}} engine
 * @returns {WidgetSettings}
 */
export function readAttributes(attrs, engine) {
  const { registry, props } = engine;
  const errors = new Problems();
  const get = (/** @type {string} */ n) => attrs.find(([k]) => k === n)?.[1] ?? null;
  const name = (get('preset') ?? 'playground').trim() || 'playground';
  const preset = presetFor(name, registry);
  if (!preset) errors.add('attr.preset', { attr: quoted('preset', name), allowed: presetNames(registry).join(', ') });
  let { state, overrides } = readConfig(attrs, preset, engine, errors);

  const steps = get('steps');
  if (steps !== null) {
    const n = readSteps(steps);
    if (typeof n === 'string') errors.add('attr.steps', { attr: quoted('steps', steps) });
    else {
      overrides.steps = n;
      if (state) state = { ...state, steps: n };
    }
  }
  const view = readView(get('view'), preset, errors);
  const controls = readControls(get('controls'), preset, props, errors);
  const height = readHeight(get('height'), errors);
  const theme = get('theme');
  if (theme !== null && !['light', 'dark', 'auto', ''].includes(theme.trim()))
    errors.add('attr.theme', { attr: quoted('theme', theme) });
  const compare = readCompareAttr(get('compare'), preset, state, engine, errors);
  const inspect = (get('inspect-len') ?? 'seq-len').trim() || 'seq-len';
  if (inspect !== 'seq-len' && inspect !== 'eval-len')
    errors.add('attr.inspectLen', { attr: quoted('inspect-len', inspect) });
  const { errors: texts, said } = errors;
  return {
    preset,
    state,
    overrides,
    view,
    controls,
    height,
    autoplay: flag(get('autoplay')),
    errors: texts,
    said,
    compare,
    inspectLen: inspect === 'eval-len' ? 'eval-len' : 'seq-len',
  };
}

/** @typedef {import('./presets.js').Preset|null} MaybePreset */

/**
 * The config attributes over the preset's config (task / position / normalization first: they
 * decide which options exist): the state (null for a demo or no preset) and the values set.
 * Problems go to `errors`.
 * @param {[string, string][]} attrs
 * @param {MaybePreset} preset
 * @param {{registry: import('../wasm-api').Registry, props: import('../state/properties.js').Property[]}} engine
 * @param {Problems} errors
 * @returns {{state: State|null, overrides: Record<string, Value>}}
 */
function readConfig(attrs, preset, { registry, props }, errors) {
  const entries = selectorsFirst(
    attrs
      .filter(([k]) => !WIDGET_ATTRS.includes(k) && !isGlobal(k))
      .map(([k, v]) => /** @type {[string, string, string]} */ ([k.replaceAll('-', '_'), v, k])),
  );
  /** @type {State|null} */
  let state = null;
  if (preset && !preset.demo) {
    const base = preset.config ?? {};
    // The task attribute picks the defaults only when it names a task (else it is reported below).
    const taskAttr = entries.find(([k]) => k === 'task')?.[1].trim();
    const known = registry.tasks.some((t) => t.name === taskAttr);
    state = defaultState(props, registry, known ? taskAttr : /** @type {string|undefined} */ (base.task));
    for (const [k, v] of selectorsFirst(Object.entries(base)))
      if (k !== 'task' || !known) state = withValue(props, registry, state, k, v);
  }
  const read = readConfigFields(
    entries.map(([, raw, attr]) => [attr, raw]),
    state,
    { registry, props },
    preset,
  );
  for (const e of read.errors) {
    if (e.said) errors.add(e.said.key, e.said.params);
    else errors.asIs(e.text);
  }
  return { state: read.state, overrides: { ...read.overrides } };
}

/**
 * The panels a `view` attribute names (the preset's, or a chart, without one).
 * @param {string|null} viewAttr
 * @param {MaybePreset} preset
 * @param {Problems} errors
 */
function readView(viewAttr, preset, errors) {
  if (viewAttr === null) return preset?.view ?? ['chart'];
  const words = list(viewAttr);
  const view = words.filter((v) => VIEWS.includes(v));
  const bad = words.filter((v) => !VIEWS.includes(v));
  const attr = quoted('view', viewAttr);
  if (bad.length) errors.add('attr.view.unknown', { attr, bad: cut(bad.join(', '), 60), allowed: VIEWS.join(', ') });
  else if (!view.length) errors.add('attr.view.empty', { attr, allowed: VIEWS.join(', ') });
  return view;
}

/**
 * The controls a `controls` attribute names: transport buttons and config fields, `all` or
 * `none` (the preset's, or the transport, without one).
 * @param {string|null} controlsAttr
 * @param {MaybePreset} preset
 * @param {import('../state/properties.js').Property[]} props
 * @param {Problems} errors
 */
function readControls(controlsAttr, preset, props, errors) {
  if (controlsAttr === null) return preset?.controls ?? TRANSPORT;
  const words = list(controlsAttr).map((w) => w.replaceAll('-', '_'));
  const keys = new Set(props.map((p) => p.key));
  const controls = words.flatMap((w) =>
    w === 'all' ? [...TRANSPORT, ...keys] : w === 'none' || !(TRANSPORT.includes(w) || keys.has(w)) ? [] : [w],
  );
  const bad = words.filter((w) => !['all', 'none', ...TRANSPORT].includes(w) && !keys.has(w));
  if (bad.length)
    errors.add('attr.controls', {
      attr: quoted('controls', controlsAttr),
      bad: cut(bad.join(', '), 60),
      allowed: TRANSPORT.join(', '),
    });
  return controls;
}

/** The chart height of a `height` attribute (60..2000 px; 150 without one). @param {string|null} heightAttr @param {Problems} errors */
function readHeight(heightAttr, errors) {
  if (heightAttr === null) return 150;
  const h = Number(heightAttr.replace(/px$/, ''));
  if (Number.isFinite(h) && h >= 60 && h <= 2000) return h;
  errors.add('attr.height', { attr: quoted('height', heightAttr) });
  return 150;
}

/**
 * compare="position=none,learned": the same model trained once per value, side by side (config
 * presets only; null without one).
 * @param {string|null} compareAttr
 * @param {MaybePreset} preset
 * @param {State|null} state
 * @param {{registry: import('../wasm-api').Registry, props: import('../state/properties.js').Property[]}} engine
 * @param {Problems} errors
 * @returns {{runs: State[], fields: string[]}|null}
 */
function readCompareAttr(compareAttr, preset, state, { registry, props }, errors) {
  if (compareAttr === null) return null;
  if (preset?.demo) {
    errors.add('compare.demo', { attr: quoted('compare', compareAttr), demo: preset.name });
    return null;
  }
  if (!state) return null;
  const c = readCompare(compareAttr, state, props, registry);
  for (const s of c.said) errors.add(s.key, s.params);
  return c.runs.length ? { runs: c.runs, fields: c.fields } : null;
}
