// The element's attributes, read as data: widget settings (preset, view, controls, steps, height,
// theme, autoplay) and any config field of the engine, named as in the config with '_' written
// '-' (d-model="64", seq-len="32", position="rope"). Values are parsed by the same rules as the
// playground's URL (state/hash.js); anything that cannot be used is reported, never guessed.
// Nothing here touches the DOM: values only ever reach the page as text.
import { isActive, propertyFor } from '../state/properties.js';
import { parseValue } from '../state/hash.js';
import { defaultState, withValue } from '../state/state.js';
import { presetFor, presetNames } from './presets.js';

export const VIEWS = ['chart', 'attention', 'positions', 'predictions', 'generate'];
export const TRANSPORT = ['play', 'step', 'reset'];
const WIDGET_ATTRS = ['preset', 'controls', 'autoplay', 'steps', 'height', 'view', 'theme'];
// Attributes any HTML element may carry; the widget leaves them to the browser.
const GLOBAL_ATTRS = new Set(['id', 'class', 'style', 'title', 'hidden', 'lang', 'dir', 'tabindex', 'slot', 'part',
  'role', 'nonce', 'is', 'inert', 'draggable', 'translate', 'spellcheck', 'accesskey', 'autofocus', 'popover',
  'exportparts', 'itemscope', 'itemprop', 'itemtype', 'itemid', 'itemref', 'autocapitalize', 'enterkeyhint',
  'inputmode', 'contenteditable', 'loading']);
const isGlobal = (name) => GLOBAL_ATTRS.has(name) || /^(data-|aria-|on)/.test(name);
const SELECTOR_ORDER = { task: 0, position: 1, normalization: 2 };

/** Whether a boolean attribute is on: present, and not "false" / "0" / "no". */
export function flag(value) {
  return value !== null && value !== undefined && !/^(false|0|no|off)$/i.test(value.trim());
}

const list = (v) => v.split(/[\s,]+/).filter(Boolean);
const quoted = (name, value) => `${name}="${value.length > 60 ? `${value.slice(0, 57)}…` : value}"`;

/**
 * Read a widget's attributes against the engine's registry.
 * @param {[string, string][]} attrs name/value pairs (names lower-case, as the DOM gives them)
 * @param {{registry: import('../wasm-api').Registry, props: import('../state/properties.js').Property[]}} engine
 * @returns {{preset: import('./presets.js').Preset|null, state: object|null, overrides: object,
 *   view: string[], controls: string[], height: number, autoplay: boolean, errors: string[]}}
 */
export function readAttributes(attrs, { registry, props }) {
  const errors = [];
  const get = (n) => attrs.find(([k]) => k === n)?.[1] ?? null;
  const name = (get('preset') ?? 'playground').trim() || 'playground';
  const preset = presetFor(name, registry);
  if (!preset) errors.push(`${quoted('preset', name)}: no such preset. Presets: ${presetNames(registry).join(', ')}.`);

  // Config attributes, task / position / normalization first (they decide which options exist).
  const entries = attrs
    .filter(([k]) => !WIDGET_ATTRS.includes(k) && !isGlobal(k))
    .map(([k, v]) => [k.replaceAll('-', '_'), v, k])
    .sort((a, b) => (SELECTOR_ORDER[a[0]] ?? 3) - (SELECTOR_ORDER[b[0]] ?? 3));
  const overrides = {};
  let state = null;
  if (preset && !preset.demo) {
    const base = preset.config ?? {};
    state = defaultState(props, registry, entries.find(([k]) => k === 'task')?.[1] ?? base.task);
    for (const [k, v] of Object.entries(base).sort((a, b) => (SELECTOR_ORDER[a[0]] ?? 3) - (SELECTOR_ORDER[b[0]] ?? 3)))
      if (k !== 'task' || !entries.some(([key]) => key === 'task')) state = withValue(props, registry, state, k, v);
  }
  for (const [key, raw, attr] of entries) {
    const p = propertyFor(props, key, state ?? {});
    if ((!p || p.view) && preset?.demo) {
      overrides[key] = raw; // a demo's own option (e.g. encoding="rope"): the demo reads it
      continue;
    }
    if (!p || p.view) {
      errors.push(`${quoted(attr, raw)}: unknown attribute. Use a config field (${props.filter((q) => !q.scope).map((q) => q.key.replaceAll('_', '-')).join(', ')}, or an option of the task, encoding or normalization) or one of ${WIDGET_ATTRS.join(', ')}.`);
      continue;
    }
    if (state && !isActive(p, state)) {
      const [sel] = Object.keys(p.scope);
      errors.push(`${quoted(attr, raw)}: not an option of ${sel} ${state[sel]}.`);
      continue;
    }
    const r = parseValue(p, raw.trim());
    if ('error' in r) {
      errors.push(`${quoted(attr, raw)}: ${r.error}.`);
      continue;
    }
    overrides[key] = r.value;
    if (state) state = withValue(props, registry, state, key, r.value);
  }

  const steps = get('steps');
  if (steps !== null) {
    const n = Number(steps);
    if (!Number.isInteger(n) || n < 1 || n > 1e6) errors.push(`${quoted('steps', steps)}: use a whole number of training steps from 1 to 1000000.`);
    else {
      overrides.steps = n;
      if (state) state = { ...state, steps: n };
    }
  }

  let view = preset?.view ?? ['chart'];
  const viewAttr = get('view');
  if (viewAttr !== null) {
    view = list(viewAttr);
    const bad = view.filter((v) => !VIEWS.includes(v));
    if (bad.length) errors.push(`${quoted('view', viewAttr)}: unknown panel ${bad.join(', ')}. Panels: ${VIEWS.join(', ')}.`);
    if (!view.length) errors.push(`${quoted('view', viewAttr)}: name at least one panel (${VIEWS.join(', ')}).`);
  }

  let controls = preset?.controls ?? TRANSPORT;
  const controlsAttr = get('controls');
  if (controlsAttr !== null) {
    const words = list(controlsAttr).map((w) => w.replaceAll('-', '_'));
    const keys = new Set(props.map((p) => p.key));
    controls = words.flatMap((w) => (w === 'all' ? [...TRANSPORT, ...keys] : w === 'none' ? [] : [w]));
    const bad = words.filter((w) => !['all', 'none', ...TRANSPORT].includes(w) && !keys.has(w));
    if (bad.length) errors.push(`${quoted('controls', controlsAttr)}: unknown control ${bad.join(', ')}. Use ${TRANSPORT.join(', ')}, none, all or config fields.`);
  }

  let height = 150;
  const heightAttr = get('height');
  if (heightAttr !== null) {
    const h = Number(heightAttr.replace(/px$/, ''));
    if (!Number.isFinite(h) || h < 60 || h > 2000) errors.push(`${quoted('height', heightAttr)}: use a chart height in pixels from 60 to 2000.`);
    else height = h;
  }

  const theme = get('theme');
  if (theme !== null && !['light', 'dark', 'auto', ''].includes(theme.trim()))
    errors.push(`${quoted('theme', theme)}: use light, dark or auto.`);

  return { preset, state, overrides, view, controls, height, autoplay: flag(get('autoplay')), errors };
}
