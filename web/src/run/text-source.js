// Where the text task's training text comes from: the bundled corpus (the Jargon File, built by
// build-scripts/corpus.mjs into web/public/corpus/, fetched once when the text task is first
// chosen, never part of a widget's download), or the user's own text. The page's state holds
// '' for the corpus and the text itself otherwise; the config sent to the engine always holds
// the text (withCorpus). The text's limits, and the words for them, are the field's (state/text.js).
// No DOM.

import { CORPUS } from '../state/text.js';
import { pageRefusal } from '../common/refusal.js';

/**
 * Where the bundled corpus lives for code loaded from this build: the site's root in development
 * (Vite serves web/public/ there), else the folder above the built chunks (dist/assets/ -> dist/,
 * where the build copies web/public/). Widgets use it: their host page's own URL says nothing.
 */
export function corpusBase() {
  if (import.meta.env.DEV) return new URL('/', globalThis.location?.href).href;
  const up = '../'; // not a literal in new URL(…, import.meta.url): Vite would try to bundle it
  return new URL(up, import.meta.url).href;
}

/** @type {Map<string, Promise<string>>} one fetch per corpus URL per page */
const loads = new Map();

/**
 * The bundled corpus's text (fetched once; a failed fetch is retried on the next call).
 * @param {string} [base] the URL the corpus path is relative to (the page's)
 * @param {typeof fetch} [fetchFn]
 * @returns {Promise<string>}
 */
export function loadCorpus(base = globalThis.document?.baseURI ?? '', fetchFn = globalThis.fetch) {
  const url = new URL(CORPUS.url, base).href;
  let p = loads.get(url);
  if (!p) {
    p = (async () => {
      const r = await fetchFn(url).catch((/** @type {Error} */ err) => {
        throw pageRefusal('page.corpus_fetch', { name: CORPUS.url, detail: err.message });
      });
      if (!r.ok) throw pageRefusal('page.corpus_fetch', { name: CORPUS.url, detail: `HTTP ${r.status}` });
      return r.text();
    })();
    loads.set(url, p);
    p.catch(() => loads.delete(url));
  }
  return p;
}

/**
 * The config the engine gets: for a task that reads a text (text, mlm: the config carries the
 * option `text`, from the registry) without a text of the user's, the corpus's text.
 * @param {import('../wasm-api').Config} config
 * @param {() => Promise<string>} [corpus]
 * @returns {Promise<import('../wasm-api').Config>}
 */
export async function withCorpus(config, corpus = () => loadCorpus()) {
  const readsText = config.task === 'text' || config.text === ''; // a config of the text task may leave it out
  if (!readsText || config.text) return config;
  return { ...config, text: await corpus() };
}
