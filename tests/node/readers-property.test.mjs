// Property test of every reader of untrusted settings, against the real registry (the wasm
// module's registry(), as the pages build their property list): the playground's URL hash
// (hashToState), the widget's attributes (readAttributes), the embed route's hash
// (hashAttributes + allowedAttributes: what embed.html may setAttribute) and an imported config
// file (configToState). Each is fed random mixes of declared fields and hostile keys (every on*
// handler name, style, srcdoc, href, src, formaction, prototype names ...) with hostile values
// (HTML, javascript: URLs, CSS url(), broken %-escapes). Only declared fields may come through,
// each with a value of its kind and range; every hostile key is reported, never kept.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule } from './load.mjs';
import { buildProperties, VIEW_PROPERTIES, propertyFor } from '../../web/src/state/properties.js';
import { hashToState, configToState, parseValue } from '../../web/src/state/hash.js';
import {
  readAttributes,
  hashAttributes,
  allowedAttributes,
  declaredAttributes,
  VIEWS,
  TRANSPORT,
} from '../../web/src/widgets/attributes.js';
import { presetNames, presetFor } from '../../web/src/widgets/presets.js';
import REGISTRY from '../../web/src/state/registry.gen.js';

let engine;
before(async () => {
  const m = await loadModule('simd');
  const registry = REGISTRY;
  engine = { registry, props: buildProperties(registry) };
});

// Event handler content attributes of HTML (GlobalEventHandlers, WindowEventHandlers, document
// and element handlers) and SVG's; plus made-up on* names below.
const HANDLERS = `abort afterprint animationcancel animationend animationiteration animationstart auxclick
  beforecopy beforecut beforeinput beforematch beforepaste beforeprint beforetoggle beforeunload begin blur
  cancel canplay canplaythrough change click close contentvisibilityautostatechange contextlost contextmenu
  contextrestored copy cuechange cut dblclick drag dragend dragenter dragexit dragleave dragover dragstart drop
  durationchange emptied end ended error focus focusin focusout formdata fullscreenchange fullscreenerror
  gotpointercapture hashchange input invalid keydown keypress keyup languagechange load loadeddata
  loadedmetadata loadend loadstart lostpointercapture message messageerror mousedown mouseenter mouseleave
  mousemove mouseout mouseover mouseup mousewheel offline online pagehide pagereveal pageshow pageswap paste
  pause play playing pointercancel pointerdown pointerenter pointerleave pointermove pointerout pointerover
  pointerrawupdate pointerup popstate progress ratechange rejectionhandled repeat reset resize scroll scrollend
  search securitypolicyviolation seeked seeking select selectionchange selectstart slotchange stalled storage
  submit suspend timeupdate toggle touchcancel touchend touchmove touchstart transitioncancel transitionend
  transitionrun transitionstart unhandledrejection unload volumechange waiting webkitanimationend
  webkitanimationiteration webkitanimationstart webkittransitionend wheel zoom`
  .split(/\s+/)
  .map((e) => `on${e}`);
const HTML_OWNED = [
  'style',
  'srcdoc',
  'href',
  'src',
  'formaction',
  'action',
  'xlink:href',
  'background',
  'poster',
  'data',
  'codebase',
  'srcset',
  'ping',
  'target',
  'is',
  'slot',
  'part',
  'tabindex',
  'autofocus',
  'contenteditable',
  'popover',
  'id',
  'class',
  'hidden',
  'nonce',
  'title',
  'lang',
  'dir',
  'inert',
  'draggable',
  'accesskey',
];
const PROTO = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'];
const VALUES = [
  '<img src=x onerror="window.__pwned=1">',
  '"><script>window.__pwned=1</script>',
  'javascript:window.__pwned=1',
  'url(https://evil.example/x)',
  'background:url(//evil.example/y)',
  'data:text/html,<script>1</script>',
  '<svg onload=alert(1)>',
  '%E0%A4%A',
  '1e999',
  'NaN',
  '-0',
  ' 32 ',
  '0x10',
  '',
  'true',
  'a'.repeat(500),
  '\u202e\u0000',
];

// A seeded generator (mulberry32), so that a failure can be replayed from the seed printed.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const SEED = Number(process.env.AP_PROPERTY_SEED ?? 13);
const RUNS = 400;

/** Random hostile key: a handler name (in any case or spelling), an HTML-owned name, a prototype name. */
function hostileKey(r) {
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const k = r() < 0.5 ? pick(HANDLERS) : r() < 0.6 ? pick(HTML_OWNED) : pick(PROTO);
  const made = `on${Math.floor(r() * 1e6).toString(36)}`;
  const forms = [
    k,
    k.toUpperCase(),
    ` ${k}`,
    k.replace(/^on/, 'on_'),
    k.replace(/^on/, 'on-'),
    made,
    `data-${k}`,
    `aria-${k}`,
  ];
  return pick(forms);
}
/** Random value for a property: valid, out of range, of the wrong kind, or hostile. */
function valueFor(p, r) {
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  if (r() < 0.4) return pick(VALUES);
  if (p.choices) return pick(p.choices).value;
  if (p.kind === 'bool') return pick(['true', 'false', '1', '0']);
  if (p.kind === 'int' || p.kind === 'float') {
    const lo = p.min ?? 0;
    const hi = p.max ?? 1000;
    const v = lo + r() * (hi - lo) * 1.2 - (hi - lo) * 0.1;
    return String(p.kind === 'int' ? Math.round(v) : Number(v.toPrecision(3)));
  }
  return pick(VALUES);
}
/** Random settings: declared fields (some of them) and hostile keys, shuffled. */
function randomPairs(r, props) {
  const out = [];
  const n = 1 + Math.floor(r() * 10);
  for (let i = 0; i < n; i++) {
    if (r() < 0.5) {
      const p = props[Math.floor(r() * props.length)];
      out.push([p.key, valueFor(p, r)]);
    } else out.push([hostileKey(r), VALUES[Math.floor(r() * VALUES.length)]]);
  }
  return out;
}
const enc = (pairs) =>
  `#${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${/%E0/.test(v) ? v : encodeURIComponent(v)}`).join('&')}`;

/** Whether `v` is a value `p` accepts (its kind, choices and range). */
function valid(p, v) {
  const type = { int: 'number', float: 'number', bool: 'boolean', enum: 'string', string: 'string' }[p.kind];
  if (typeof v !== type) return false;
  const r = parseValue(p, String(v));
  return !('error' in r) && r.value === v;
}

/** Every key of a state is a declared property, active for that state, with a valid value. */
function assertDeclaredState(state, props, what) {
  assert.equal(Object.getPrototypeOf(state), Object.prototype, `${what}: a plain object`);
  const all = [...props, ...VIEW_PROPERTIES];
  for (const [k, v] of Object.entries(state)) {
    const p = propertyFor(all, k, state);
    assert.ok(p, `${what}: undeclared key ${JSON.stringify(k)}`);
    assert.ok(valid(p, v), `${what}: ${k}=${JSON.stringify(v)} is not a valid ${p.kind}`);
  }
  assert.equal({}.__pwned, undefined);
}

const isHostile = (k) => !engineKeys().has(k);
const WIDGET = ['preset', 'view', 'controls', 'steps', 'height', 'theme', 'autoplay'];
// The global attributes any element carries (attributes.js leaves them to the browser).
const OWNED_BY_HTML = (k) =>
  /^(on|data-|aria-)/.test(k) ||
  [
    'style',
    'is',
    'slot',
    'part',
    'tabindex',
    'autofocus',
    'contenteditable',
    'popover',
    'id',
    'class',
    'hidden',
    'nonce',
    'title',
    'lang',
    'dir',
    'inert',
    'draggable',
    'accesskey',
  ].includes(k);
let keys;
const engineKeys = () => (keys ??= new Set([...engine.props, ...VIEW_PROPERTIES].map((p) => p.key)));

test("the allow-list holds the registry's fields and the widget's options, never a name HTML owns", () => {
  const declared = declaredAttributes(engine);
  for (const n of [
    'preset',
    'view',
    'controls',
    'steps',
    'height',
    'theme',
    'autoplay',
    'd-model',
    'seq-len',
    'task',
    'position',
    'normalization',
    'positions',
    'encoding',
  ])
    assert.ok(declared.has(n), n);
  for (const p of engine.props)
    if (!/^(on|data_|aria_)/.test(p.key)) assert.ok(declared.has(p.key.replaceAll('_', '-')), p.key);
  for (const n of [...HANDLERS, ...HTML_OWNED, ...PROTO.map((k) => k.toLowerCase())]) assert.ok(!declared.has(n), n);
  for (const n of declared) assert.match(n, /^[a-z][a-z0-9-]*$/);
});

test(`hashToState: only declared settings with valid values (${RUNS} random hashes, seed ${SEED})`, () => {
  const r = rng(SEED);
  for (let i = 0; i < RUNS; i++) {
    const pairs = randomPairs(r, engine.props);
    const hash = enc(pairs);
    const { state, ignored } = hashToState(hash, engine.props, engine.registry);
    assertDeclaredState(state, engine.props, hash);
    const hostile = pairs.filter(([k]) => isHostile(k));
    assert.ok(
      ignored.length >= hostile.length,
      `${hash}: every unknown key is listed (${ignored.length} < ${hostile.length})`,
    );
    for (const line of ignored) assert.ok(!line.includes('a'.repeat(60)), 'a long value is cut short');
  }
});

test(`the embed hash: only allow-listed names may become attributes (${RUNS} random hashes)`, () => {
  const r = rng(SEED + 1);
  const declared = declaredAttributes(engine);
  for (let i = 0; i < RUNS; i++) {
    const pairs = randomPairs(r, engine.props).map(([k, v]) => [r() < 0.5 ? k.replaceAll('_', '-') : k, v]);
    const hash = enc(pairs);
    const { allowed, ignored } = allowedAttributes(hashAttributes(hash), engine);
    for (const [k] of allowed) {
      assert.ok(declared.has(k), `${hash}: ${k} is not declared`);
      assert.doesNotMatch(k, /^on|^(style|srcdoc|href|src|formaction|tabindex|autofocus)$/, hash);
    }
    assert.equal(allowed.length + ignored.length, hashAttributes(hash).length, 'every pair is kept or listed');
  }
  // The issue's examples, exactly.
  const attack = allowedAttributes(
    hashAttributes('#onfocus=alert(1)&tabindex=0&autofocus=&style=background:url(https://evil.example/x)&preset=probe'),
    engine,
  );
  assert.deepEqual(attack.allowed, [['preset', 'probe']]);
  assert.deepEqual(attack.ignored, [
    'onfocus="alert(1)"',
    'tabindex="0"',
    'autofocus=""',
    'style="background:url(https://evil.example/x)"',
  ]);
});

test(`readAttributes: only declared config fields, demo options and widget settings come through (${RUNS} random elements)`, () => {
  const r = rng(SEED + 2);
  const names = presetNames(engine.registry);
  const propKeys = new Set(engine.props.map((p) => p.key));
  for (let i = 0; i < RUNS; i++) {
    const preset = names[Math.floor(r() * names.length)];
    const pairs = [
      ['preset', preset],
      ...randomPairs(r, engine.props).map(([k, v]) => [k.toLowerCase().replaceAll('_', '-'), v]),
    ];
    if (r() < 0.3) pairs.push(['view', r() < 0.5 ? 'chart,<b>x</b>' : 'attention']);
    if (r() < 0.3) pairs.push(['controls', r() < 0.5 ? 'play,onclick,style' : 'all']);
    const s = readAttributes(pairs, engine);
    const options = new Set(presetFor(preset, engine.registry).options ?? []);
    const what = JSON.stringify(pairs);
    for (const [k, v] of Object.entries(s.overrides)) {
      assert.ok(propKeys.has(k) || options.has(k) || k === 'steps', `${what}: override ${k}`);
      if (propKeys.has(k) && k !== 'steps')
        assert.ok(
          engine.props.some((p) => p.key === k && valid(p, v)),
          `${what}: ${k}=${v}`,
        );
    }
    if (s.state) assertDeclaredState(s.state, engine.props, what);
    for (const v of s.view) assert.ok(VIEWS.includes(v), `${what}: view ${v}`);
    for (const c of s.controls) assert.ok(TRANSPORT.includes(c) || propKeys.has(c), `${what}: control ${c}`);
    // An undeclared name is HTML's own (a blogger's id, style or handler, left to the browser) or
    // reported; either way it never reaches the settings (checked above).
    for (const [k] of pairs) {
      if (propKeys.has(k.replaceAll('-', '_')) || options.has(k) || WIDGET.includes(k) || OWNED_BY_HTML(k)) continue;
      assert.ok(
        s.errors.some((e) => e.includes(k.slice(0, 30))),
        `${what}: ${k} is reported`,
      );
    }
  }
});

test(`configToState: an imported config keeps only declared fields of the right type (${RUNS} random files)`, () => {
  const r = rng(SEED + 3);
  for (let i = 0; i < RUNS; i++) {
    const config = JSON.parse('{"__proto__": {"polluted": 1}}');
    for (const [k, v] of randomPairs(r, engine.props)) {
      // JSON values of every type: numbers and booleans as such, or as strings, objects, arrays.
      const t = r();
      config[k] =
        t < 0.3 && v !== '' && Number.isFinite(Number(v))
          ? Number(v)
          : t < 0.4
            ? v === 'true'
            : t < 0.5
              ? { v }
              : t < 0.55
                ? [v]
                : v;
    }
    const { state, ignored } = configToState(config, engine.props, engine.registry, { speed: '<b>', log: true });
    assertDeclaredState(state, engine.props, JSON.stringify(config));
    assert.equal(state.polluted, undefined);
    assert.equal(state.log, true);
    assert.equal(state.speed, 0, 'a bad view value falls back to its default');
    assert.ok(
      ignored.some((e) => e.startsWith('__proto__')),
      'the __proto__ key is listed',
    );
  }
  // A config exported by the playground reads back unchanged.
  const { state } = configToState(
    { task: 'copy', d_model: 32, position: 'rope', lr: 0.003 },
    engine.props,
    engine.registry,
  );
  assert.equal(state.d_model, 32);
  assert.equal(state.position, 'rope');
  assert.equal(state.lr, 0.003);
  assert.deepEqual(configToState([1], engine.props, engine.registry).ignored, ['the file (not a JSON object)']);
  assert.match(
    configToState({ d_model: '64' }, engine.props, engine.registry).ignored[0],
    /^d_model \(expected a number\)/,
  );
});
