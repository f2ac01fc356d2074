// What counts as English on a 中文 page, shared by the 中文 browser tests (course-zh-strings.test.mjs,
// course-zh-panels.test.mjs) and the Node test of the figures' words (tests/node/figure-zh.test.mjs):
// the names and notation a Chinese text keeps in Latin letters, the English words of a text, and
// (run in the page) every visible text node, menu option and, when asked, title and aria-label.

/**
 * The config fields' names (allowed in `field = value` only) and every value the registry names
 * (the `known` of englishWords). @param {any} registry the engine's registry, parsed
 */
export function registryIds(registry) {
  const ids = { fields: new Set(), values: new Set() };
  for (const c of registry.config) {
    ids.fields.add(c.key);
    for (const v of c.choices ?? []) ids.values.add(String(v));
  }
  for (const list of ['positions', 'normalizations', 'tasks']) for (const x of registry[list]) ids.values.add(x.name);
  return ids;
}

// Names and notation a Chinese text keeps in Latin letters (case as written).
export const NAMES = [
  ...['RoPE', 'ALiBi', 'NTK', 'YaRN', 'PI', 'T5', 'ReLU', 'GELU', 'LayerNorm', 'RMSNorm', 'Adam', 'AdamW', 'SGD'],
  ...['Transformer', 'Attention', 'Playground', 'WebAssembly', 'Wasm', 'SIMD', 'JavaScript', 'Web', 'Worker'],
  ...['softmax', 'sigmoid', 'ReLU', 'performer', 'Performer', 'logits', 'logit', 'xPos', 'FIRE', 'KERPLE', 'CoPE'],
  ...['Shaw', 'URPE', 'ln', 'exp', 'log', 'max', 'min', 'mean', 'std', 'Lemma', 'token', 'tokens', 'KB', 'MB'],
  ...['English', 'CSV', 'JSON', 'PNG', 'SVG', 'cls', 'sep', 'pi', 'ntk', 'yarn', 'none', 'rope', 'alibi', 'l2'],
  ...['src', 'tgt', 'eval', 'lr', 'd_model', 'p', 'px', 'ms', 'Q', 'K', 'V', 'QK', 'FFN', 'MLP', 'LM', 'LR'],
  ...['Toeplitz', 'mscale', 'Shaw', 'URPE', 'T5', 'BERT'],
  // the name Chinese readers search for (NTK-aware Scaled RoPE; the course writes NTK-aware 缩放)
  ...['NTK-aware'],
];

/**
 * What the page shows in Latin words, outside the lesson's own prose: [{where, text}], one per
 * visible text node (and per option of a visible menu; with `attrs`, per title and aria-label of a
 * visible element too). A model's tokens (.tok, .gen-tok: the task's vocabulary) are data, not
 * words of the page, and are left out. Runs in the page.
 */
export function latinText(attrs = false) {
  const out = [];
  const visible = (/** @type {Element} */ e) => {
    for (let x = e; x; x = x.parentElement ?? /** @type {ShadowRoot} */ (x.getRootNode()).host ?? null) {
      const s = getComputedStyle(x);
      if (s.display === 'none' || s.visibility === 'hidden' || x.hidden) return false;
      if (x === document.body) break;
    }
    return e.getClientRects().length > 0;
  };
  const walk = (/** @type {Node} */ root, /** @type {string} */ where, /** @type {boolean} */ prose) => {
    const it = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = it.nextNode(); n; n = it.nextNode()) {
      if (n.nodeType === Node.ELEMENT_NODE) {
        const e = /** @type {Element} */ (n);
        if (e.shadowRoot) walk(e.shadowRoot, e.id ? `#${e.id}` : e.localName, false);
        const ownProse = prose && e.closest('main') && !e.closest('attention-playground, aside[data-check]');
        if (attrs && !ownProse && !e.closest('.tok, .gen-tok, .katex, math, code'))
          for (const a of ['title', 'aria-label']) {
            const v = e.getAttribute(a) ?? '';
            if (/[A-Za-z]/.test(v) && visible(e))
              out.push({
                where: `${where} ${e.localName}${e.className ? `.${String(e.className).split(' ')[0]}` : ''} [${a}]`,
                text: v,
              });
          }
        if (e.localName === 'select' && visible(e))
          for (const o of /** @type {HTMLSelectElement} */ (e).options)
            if (/[A-Za-z]/.test(o.text)) out.push({ where: `${where} select#${e.id} option`, text: o.text });
        continue;
      }
      const p = n.parentElement;
      if (!p || ['SCRIPT', 'STYLE', 'TEMPLATE', 'OPTION', 'NOSCRIPT'].includes(p.tagName)) continue;
      if (prose && p.closest('main') && !p.closest('attention-playground, aside[data-check]')) continue;
      if (p.closest('.katex, math, code, .tok, .gen-tok')) continue;
      if (/[A-Za-z]/.test(n.textContent ?? '') && visible(p))
        out.push({
          where: `${where} ${p.localName}${p.className ? `.${String(p.className).split(' ')[0]}` : ''}`,
          text: n.textContent.trim(),
        });
    }
  };
  walk(document.body, 'page', true);
  return out;
}

/**
 * The English words of `text`: Latin words that are not a name, a config value, a field in
 * `field = value`, a word with a digit or an underscore (an identifier), an abbreviation or a letter.
 * @param {string} text @param {{fields: Set<string>, values: Set<string>}} known
 */
export function englishWords(text, known, names = new Set(NAMES)) {
  const words = [];
  const code = text.replace(/\b([a-z_0-9]+)\s*=/g, (all, f) => (known.fields.has(f) ? ' ' : all));
  for (const [token] of code.matchAll(/[A-Za-z][A-Za-z0-9_.'’-]*/g)) {
    const t = token.replace(/[.'’-]+$/, '');
    if (t.length < 2 || /[0-9_]/.test(t) || names.has(t) || known.values.has(t) || /^[A-Z0-9]+$/.test(t)) continue;
    words.push(t);
  }
  return words;
}
