// The widget's API for a page that drives it (an article that trains, switches and points as the
// reader scrolls): the strict readers of its method arguments and of the messages the iframe
// route accepts (embed.js). Declared names only, with size limits: an unknown message type,
// field or value is refused with an error that names it (and the allowed names), never guessed.
// Values stay data: numbers, booleans and short strings, read again by the attributes' reader
// (attributes.js) before they reach the model. Nothing here touches the DOM.
//
//   el.train(10)                      {type: 'attention-playground:train', n: 10} (old name: step)
//   el.setConfig({position: 'rope'})  {type: 'attention-playground:setConfig', fields: {position: 'rope'}}
//   el.highlight({layer: 0, head: 1}) {type: 'attention-playground:highlight', layer: 0, head: 1}

export const PREFIX = 'attention-playground:';
/** Limits on what a caller or a message may give. */
export const LIMITS = { fields: 32, name: 40, value: 4096, steps: 10000, index: 255, keys: 8, type: 64 };

/**
 * A refused call: the field it is about, a sentence naming it, and the allowed names or range.
 * @typedef {{field: string, message: string, allowed?: string[]}} ApiError
 */
/** @typedef {{layer: number, head: number, row: number|null}|null} Highlight null: none */
/**
 * A message read: the method and its arguments, or why not.
 * @typedef {{method: 'play'|'pause'|'reset'|'hello', args: []} | {method: 'train', args: [number]} |
 *   {method: 'setConfig', args: [[string, string][]]} | {method: 'highlight', args: [Highlight]} | {error: ApiError}} Call
 */

/** Each message type and the fields it may carry besides `type` (optional ones end in '?'). */
export const MESSAGES = {
  hello: [], // embed-host.js on connecting: a ready frame answers with its `ready` event
  play: [],
  pause: [],
  reset: [],
  train: ['n?'],
  step: ['n?'], // the old name of train
  setConfig: ['fields'],
  highlight: ['layer?', 'head?', 'row?'],
};

const isPlain = (/** @type {unknown} */ v) =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  [Object.prototype, null].includes(Object.getPrototypeOf(v));
const shown = (/** @type {unknown} */ v) =>
  typeof v === 'string'
    ? JSON.stringify(v.length > 40 ? `${v.slice(0, 39)}…` : v)
    : typeof v === 'object'
      ? typeof v
      : String(v);
/** @param {string} field @param {string} message @param {string[]} [allowed] @returns {{error: ApiError}} */
const refuse = (field, message, allowed) => ({ error: { field, message, ...(allowed ? { allowed } : {}) } });

/**
 * A whole number in [lo, hi], or the error naming `field`.
 * @param {unknown} v @param {string} field @param {number} lo @param {number} hi
 * @returns {{value: number} | {error: ApiError}}
 */
function whole(v, field, lo, hi) {
  if (typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi) return { value: v };
  return refuse(field, `${field}=${shown(v)}: use a whole number from ${lo} to ${hi}.`, [`${lo}…${hi}`]);
}

/** step(n)'s n: 1 … LIMITS.steps (1 when not given). @param {unknown} n */
export function readCount(n = 1) {
  return whole(n, 'n', 1, LIMITS.steps);
}

/**
 * setConfig()'s fields: a plain object of config fields (names as in the config, '_' or '-'),
 * each a string, a finite number or a boolean. Returns [attribute name, text] pairs.
 * @param {unknown} fields
 * @returns {{value: [string, string][]} | {error: ApiError}}
 */
export function readFields(fields) {
  if (!isPlain(fields)) return refuse('fields', 'setConfig takes an object of config fields, e.g. {position: "rope"}.');
  const entries = Object.entries(/** @type {object} */ (fields));
  if (!entries.length) return refuse('fields', 'setConfig needs at least one config field.');
  if (entries.length > LIMITS.fields)
    return refuse('fields', `setConfig takes at most ${LIMITS.fields} fields (${entries.length} given).`);
  /** @type {[string, string][]} */
  const out = [];
  for (const [name, v] of entries) {
    if (!/^[a-z][a-z0-9_-]*$/i.test(name) || name.length > LIMITS.name)
      return refuse(
        name.slice(0, LIMITS.name),
        `${shown(name)}: not a config field name (letters, digits, _ and -, at most ${LIMITS.name}).`,
      );
    const ok =
      (typeof v === 'string' && v.length <= LIMITS.value) ||
      typeof v === 'boolean' ||
      (typeof v === 'number' && Number.isFinite(v));
    if (!ok)
      return refuse(
        name,
        `${name}=${shown(v)}: use a string (at most ${LIMITS.value} characters), a finite number or a boolean.`,
      );
    out.push([name.toLowerCase().replaceAll('_', '-'), String(v)]);
  }
  return { value: out };
}

/**
 * highlight()'s selection: {layer, head, row?} (0-based), or null / {} for none. The model's
 * shape is checked by the widget (it knows its layers and heads).
 * @param {unknown} sel
 * @returns {{value: Highlight} | {error: ApiError}}
 */
export function readHighlight(sel) {
  if (sel === null || sel === undefined) return { value: null };
  if (!isPlain(sel))
    return refuse('highlight', 'highlight takes {layer, head, row} (0-based; row optional), or null for none.');
  const o = /** @type {Record<string, unknown>} */ (sel);
  const extra = Object.keys(o).find((k) => !['layer', 'head', 'row'].includes(k));
  if (extra !== undefined)
    return refuse(extra.slice(0, LIMITS.name), `${shown(extra)}: not a field of highlight.`, ['layer', 'head', 'row']);
  if (o.layer === undefined && o.head === undefined && o.row === undefined) return { value: null };
  /** @type {Record<string, number|null>} */
  const v = { row: null };
  for (const k of ['layer', 'head', 'row']) {
    if (k === 'row' && (o.row === undefined || o.row === null)) continue;
    const r = whole(o[k], k, 0, LIMITS.index);
    if ('error' in r) return r;
    v[k] = r.value;
  }
  return { value: /** @type {Highlight} */ (v) };
}

/**
 * A message posted to the frame, read strictly: a plain object whose `type` is
 * 'attention-playground:<method>' for a method of MESSAGES and whose other fields are that
 * method's. Anything else is refused with the field it is about.
 * @param {unknown} data
 * @returns {Call}
 */
export function readMessage(data) {
  if (!isPlain(data)) return refuse('message', 'A message is an object {type: "attention-playground:<method>", ...}.');
  const msg = /** @type {Record<string, unknown>} */ (data);
  const keys = Object.keys(msg);
  if (keys.length > LIMITS.keys)
    return refuse('message', `A message has at most ${LIMITS.keys} fields (${keys.length} given).`);
  const types = Object.keys(MESSAGES).map((m) => PREFIX + m);
  const type = msg.type;
  if (typeof type !== 'string' || type.length > LIMITS.type || !types.includes(type))
    return refuse('type', `type=${shown(type)}: not a message the widget reads.`, types);
  const method = /** @type {keyof typeof MESSAGES} */ (type.slice(PREFIX.length));
  const declared = MESSAGES[method].map((f) => f.replace('?', ''));
  const extra = keys.find((k) => k !== 'type' && !declared.includes(k));
  if (extra !== undefined)
    return refuse(extra.slice(0, LIMITS.name), `${shown(extra)}: not a field of ${type}.`, ['type', ...declared]);
  if (method === 'train' || method === 'step') {
    const r = readCount(msg.n ?? 1);
    return 'error' in r ? r : { method: 'train', args: [r.value] };
  }
  if (method === 'setConfig') {
    const r = readFields(msg.fields);
    return 'error' in r ? r : { method, args: [r.value] };
  }
  if (method === 'highlight') {
    const { layer, head, row } = msg;
    const r = readHighlight(
      layer === undefined && head === undefined && row === undefined
        ? null
        : { layer, head, ...(row === undefined ? {} : { row }) },
    );
    return 'error' in r ? r : { method, args: [r.value] };
  }
  return { method, args: [] };
}
