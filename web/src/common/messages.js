// The one message table of the course and of the widgets' visible strings: every key has its
// English and its Simplified Chinese text. A string is looked up with t(lang, key, params), where
// {name} in the text is replaced by params.name (as text: callers put it into the page with
// textContent, never as markup). The table is kept in parts by who needs them, one file per part
// and language (messages/<part>.<lang>.js), so that a widget downloads only its own strings in
// its page's language: `element` (the element before it loads, both languages in its entry),
// `widget` (the widget, its settings, the engine's notes, the demos' shared words), `positions`
// (the position panel), `permutation`, `probe` and `extrapolation` (the demos), `compare` (a
// comparison), `panels` (the predictions, generate, heads and interventions panels), `refusals`
// (the engine's and the page's refusals, one entry per code: panels/engine-refusal.js) and
// `course` (the course's pages, which hold both languages). A part is loaded with
// loadMessages(lang, parts) (a dynamic import each, once) or added with addMessages; t throws for
// a key not loaded. One key lives in one part. tests/node/course.test.mjs fails when a part lacks a
// language, when a key lacks a language, when the two texts of a key use different
// {placeholders}, or when the code looks up a key no part has. No DOM here (common/ is the lowest
// leaf).

/** @typedef {'en'|'zh'} Lang */
/** The languages, in the order the switch shows them. @type {Lang[]} */
export const LANGS = ['en', 'zh'];

/** Each language's name in itself, for the switch. @type {Record<Lang, string>} */
export const LANG_NAMES = { en: 'English', zh: '中文' };

/** Each language's BCP 47 tag for the page's lang attribute. @type {Record<Lang, string>} */
export const LANG_TAGS = { en: 'en', zh: 'zh-Hans' };

/**
 * The language of a BCP 47 tag ('zh-CN', 'zh-Hans', 'en-GB' ...): zh for any Chinese, else en;
 * null for a tag that names neither.
 * @param {string|null|undefined} tag
 * @returns {Lang|null}
 */
export function langOf(tag) {
  const t = String(tag ?? '')
    .trim()
    .toLowerCase();
  if (t === 'zh' || t.startsWith('zh-')) return 'zh';
  if (t === 'en' || t.startsWith('en-')) return 'en';
  return null;
}

/**
 * The first language of the reader's list (navigator.languages) that the table has, else en.
 * @param {readonly string[]|undefined} languages
 * @returns {Lang}
 */
export function pickLanguage(languages) {
  for (const tag of languages ?? []) {
    const l = langOf(tag);
    if (l) return l;
  }
  return 'en';
}

/**
 * The parts of the table a page loads when it needs them, by part and language (a chunk each).
 * @type {Record<string, Record<Lang, () => Promise<{default: Record<string, string>}>>>}
 */
const PARTS = {
  widget: { en: () => import('./messages/widget.en.js'), zh: () => import('./messages/widget.zh.js') },
  positions: { en: () => import('./messages/positions.en.js'), zh: () => import('./messages/positions.zh.js') },
  permutation: { en: () => import('./messages/permutation.en.js'), zh: () => import('./messages/permutation.zh.js') },
  probe: { en: () => import('./messages/probe.en.js'), zh: () => import('./messages/probe.zh.js') },
  extrapolation: {
    en: () => import('./messages/extrapolation.en.js'),
    zh: () => import('./messages/extrapolation.zh.js'),
  },
  compare: { en: () => import('./messages/compare.en.js'), zh: () => import('./messages/compare.zh.js') },
  panels: { en: () => import('./messages/panels.en.js'), zh: () => import('./messages/panels.zh.js') },
  refusals: { en: () => import('./messages/refusals.en.js'), zh: () => import('./messages/refusals.zh.js') },
};
/** The loadable parts' names. */
export const LOADABLE = Object.keys(PARTS);

// The strings loaded so far, per language, and the parts loaded or loading (`${part}.${lang}` ->
// its promise). Kept on globalThis under one registered symbol, not in this module: a bundler may
// load this module twice (Vite's dev server pre-bundles an installed package's entry with its
// static imports, while the chunks it imports later load the original file), and the part loaded
// through one copy must be the part the other reads.
/** @typedef {{table: Record<Lang, Record<string, string>>, loading: Map<string, Promise<void>>}} Shared */
const GLOBAL = /** @type {Record<symbol, Shared>} */ (/** @type {unknown} */ (globalThis));
const SHARED_KEY = Symbol.for('attention-playground.messages');
GLOBAL[SHARED_KEY] ??= { table: { en: {}, zh: {} }, loading: new Map() };
const SHARED = GLOBAL[SHARED_KEY];
const TABLE = SHARED.table;
const loading = SHARED.loading;

/** Add a part's strings in one language (a part imported statically). @param {Lang} lang @param {Record<string, string>} strings */
export function addMessages(lang, strings) {
  Object.assign(TABLE[lang], strings);
}

/**
 * Load `parts` of the table in `lang` (each once; a second call waits for the first).
 * @param {Lang} lang
 * @param {string[]} parts names of PARTS
 * @returns {Promise<void>}
 */
export function loadMessages(lang, parts) {
  return Promise.all(
    parts.map((part) => {
      const id = `${part}.${lang}`;
      if (!loading.has(id)) {
        const load = PARTS[part]?.[lang];
        if (!load) throw new Error(`no part "${part}" in ${lang} in the message table (web/src/common/messages/)`);
        const p = load().then((m) => addMessages(lang, m.default));
        p.catch(() => loading.delete(id)); // a failed download may be tried again
        loading.set(id, p);
      }
      return loading.get(id);
    }),
  ).then(() => {});
}

/**
 * The text of `key` in `lang`, its {placeholders} replaced by `params` (as text). A key not in the
 * parts loaded is a programming error: it throws, naming the key.
 * @param {Lang} lang
 * @param {string} key
 * @param {Record<string, string|number>} [params]
 * @returns {string}
 */
export function t(lang, key, params = {}) {
  const strings = TABLE[lang] ?? TABLE.en;
  if (!Object.hasOwn(strings, key))
    throw new Error(
      `no message "${key}" in ${lang} (web/src/common/messages/: not in the table, or its part not loaded)`,
    );
  return strings[key].replace(/\{([a-zA-Z0-9_]+)\}/g, (all, name) =>
    Object.hasOwn(params, name) ? String(params[name]) : all,
  );
}

/** Whether `key` is loaded in `lang`. @param {Lang} lang @param {string} key */
export const hasMessage = (lang, key) => Object.hasOwn(TABLE[lang] ?? TABLE.en, key);

/**
 * A sentence of the table in a language, its parameters said first where they are sentences
 * themselves ({key, params}: state/fields.js Said, a refusal's reason inside a refusal).
 * @typedef {{key: string, params?: Record<string, string|number|Said>}} Said
 * @param {Lang} lang
 * @param {Said} said
 * @returns {string}
 */
export function sayIn(lang, { key, params = {} }) {
  /** @type {Record<string, string|number>} */
  const words = {};
  for (const [k, v] of Object.entries(params)) words[k] = typeof v === 'object' ? sayIn(lang, v) : v;
  return t(lang, key, words);
}

/**
 * A translator for one language: (key, params) -> text.
 * @param {Lang} lang
 */
export const translator =
  (lang) =>
  (/** @type {string} */ key, /** @type {Record<string, string|number>} */ params = {}) =>
    t(lang, key, params);
