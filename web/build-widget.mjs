// `npm run build`: writes dist/, a folder that works from any static host, copied anywhere.
//   1. the pages (web/vite.config.mjs: playground and demo pages) with relative URLs (base './');
//   2. the widget: dist/attention-playground.js (ES module defining <attention-playground>), its
//      chunks, worker, both wasm variants (URLs relative to the script: new URL(..., import.meta.url))
//      and dist/embed.html, the iframe route;
//   3. dist/examples/ (the example post, loading ../attention-playground.js as a host page would)
//      and dist/README.md (the usage snippet);
//   4. the gzipped size of everything one widget downloads, per kind of preset; fails above BUDGET;
//   5. .gz and .br copies beside the wasm, scripts, styles and pages (precompress.mjs), for hosts
//      that serve precompressed files;
//   6. dist/vite-plugin.mjs (the package's `attention-playground/vite`) and dist/.npmignore, so
//      that `npm pack` ships what a widget needs and nothing else (writeNpmIgnore).
// In the widget build (plugin below), CSS that a module imports is adopted by each widget's shadow
// root instead of going into the host page, and `katex` (70 KB gzipped, plus fonts) is swapped for
// tex-lite.js, with the same API, to keep a widget's download within BUDGET (the pages keep KaTeX).
// The widget's charts need no swap: it imports charts/light-line-chart.js itself.
import { build } from 'vite';
import { resolve, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { precompress } from './precompress.mjs';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';

const WEB = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(WEB, '..');
const DIST = resolve(ROOT, 'dist');
// Bytes, gzipped, everything one widget downloads. 450 KB until 2026-11-26, when the wasm module
// was split (build-scripts/wasm-split.mjs: a first view downloads only the code it runs) and one
// widget went from about 448 KB to about 340 KB; target 300 KB (issue 32). 360 KB since the
// course's English and Chinese strings (2026-11-26: the permutation preset 349.4 -> 356.0 KB, its
// demo's strings in both languages). Since a widget loads its strings in its page's language only
// (common/messages/<part>.<lang>.js), the permutation preset is 354.6 KB in English, 355.4 in Chinese,
// with the comparison, the probe and the extrapolation demos now in both languages too.
// 330 KB since the position encodings, the training loop and the model's driver are compiled with
// -Os in wasm (CMakeLists.txt, apwarm): the wasm's first part 286.5 -> 253.5 KB, the permutation
// preset 355.6 -> 322.6 KB. 331 KB since a comparison's refusals are said in the widget's language
// (2026-12-07, issue 44: their English and Chinese templates in the element part, which the entry
// holds in both languages; the largest kind 329.9 -> 330.1 KB). 332 KB since the engine's
// schedule_start field (a fine-tune's own warmup and decay, issue 42), the element's train(n) and
// `metrics` names beside their old ones and a demo's refused options as `error` events (issue 46)
// (2026-12-07: the largest kind 331.0 -> 331.5 KB). 341 KB since every refusal is a code
// (issue 45: core/refusal/, the table of codes with their English templates in the wasm's data
// segment, and a params list built at each throw site; the command line's codes stay native):
// the largest kind 331.6 -> 340.6 KB, the wasm's first part about 254 -> 264 KB. To be won back
// when the registry's prose leaves the data segment (issue 45, part 2: about 14 KB gzipped).
// 2026-12-08 (issue 45, part 2): the registry's prose left the module (core/common/doc.hpp) and
// the browser's module keeps its refusal codes without templates (the worker fills them from
// refusals.en.js, loaded on the first refusal): the wasm's first part 264.0 -> 251.7 KB; the page
// now imports the registry as data (state/registry.gen.js, about 11 KB gzipped), so the largest
// kind went only 340.6 -> 339.7 KB.
export const BUDGET = 341_000;
const STYLES = resolve(WEB, 'src/widgets/styles.js');
const TEX_LITE = resolve(WEB, 'src/widgets/tex-lite.js');
// The published entry (a loader that parses as a classic script too) and the widget module it loads.
const ENTRY = resolve(WEB, 'attention-playground.js');
const WIDGET_MODULE = resolve(WEB, 'src/widgets/attention-playground.js');
const WIDGET_SPEC = "'./src/widgets/attention-playground.js'";
const WIDGET_MARK = '__attention_playground_widget__';
let quiet = process.argv.includes('--quiet');

// The site's stylesheet (panels/style.css), which the widget reuses for the panels it borrows: only the
// rules for those components ship in the widget (page layout, header, toolbar ... do not).
const PAGE_CSS = /\/panels\/style\.css\?inline$/;
const WIDGET_SELECTORS =
  /^(\*|\[hidden\]|h[123]|\.?button|select|input|textarea|:focus-visible|\.muted|\.config-error|\.controls |\.field|\.help|\[aria-invalid\]|\.check|\.heatmap|\.attn-|\.attention-grid|\.positions-body|\.pos-|\.kv|\.predictions|\.summary|\.example|\.tok|\.row-label|\.scroll-cue|\.error|\.fig-dl|\.gen-|\.free-row)/;

/**
 * Keep the rules of `css` all of whose selectors match `keep` (no :root). A conditional group
 * (@media, @container) keeps the rules inside it that match, and goes when none does: a widget's
 * narrow layout lives in `@container` blocks, which a widget needs as much as the rules they adjust
 * (the positions panel's head picker was lost in the built widget when every @-rule was dropped).
 * Other @-rules (@font-face, @keyframes, @import) are dropped.
 */
export function pruneCss(css, keep) {
  const out = [];
  let i = 0;
  css = css.replace(/\/\*[\s\S]*?\*\//g, '');
  while (i < css.length) {
    const open = css.indexOf('{', i);
    if (open < 0) break;
    let depth = 1;
    let j = open + 1;
    for (; j < css.length && depth; j++) depth += css[j] === '{' ? 1 : css[j] === '}' ? -1 : 0;
    const selector = css.slice(i, open).trim();
    if (/^@(media|container)\b/.test(selector)) {
      const inner = pruneCss(css.slice(open + 1, j - 1), keep);
      if (inner) out.push(`${selector} {\n${inner}\n}`);
    } else if (!selector.startsWith('@') && selector.split(',').every((s) => keep.test(s.trim())))
      out.push(css.slice(i, j).trim());
    i = j;
  }
  return out.join('\n');
}

/**
 * The widget build's plugin: CSS imports become addStyle(text); katex becomes its light twin; the
 * entry (web/attention-playground.js) loads the widget module by its built name with a plain
 * import(), so that it stays free of import statements and import.meta (a classic script can parse it).
 */
function widgetPlugin() {
  let widgetRef = '';
  return {
    name: 'attention-playground-widget',
    enforce: 'pre',
    buildStart() {
      widgetRef = this.emitFile({ type: 'chunk', id: WIDGET_MODULE, name: 'widget', preserveSignature: false });
    },
    transform(code, id) {
      if (id === ENTRY) {
        if (!code.includes(WIDGET_SPEC)) throw new Error(`build-widget: ${id} no longer names ${WIDGET_SPEC}`);
        return { code: code.replace(WIDGET_SPEC, JSON.stringify(WIDGET_MARK)), map: null };
      }
      return PAGE_CSS.test(id) ? { code: pruneCss(code, WIDGET_SELECTORS), map: null } : null;
    },
    generateBundle(_, bundle) {
      const entry = bundle['attention-playground.js'];
      if (entry?.type !== 'chunk' || !entry.code.includes(WIDGET_MARK))
        throw new Error('build-widget: the entry lost its import of the widget');
      entry.code = entry.code.replace(WIDGET_MARK, `./${this.getFileName(widgetRef)}`);
      if (/\bimport\s*[{*"'\w]|\bexport\b|import\.meta/.test(entry.code.replace(/import\(/g, '')))
        throw new Error('build-widget: the entry must parse as a classic script');
    },
    async resolveId(source, importer, options) {
      if (source === 'katex') return TEX_LITE;
      if (/^katex\/dist\/.*\.css\?inline$/.test(source) || /^uplot\/dist\/.*\.css\?inline$/.test(source))
        return '\0ap-empty-css';
      if (/\.css$/.test(source) && importer && !importer.includes('.html')) {
        const r = await this.resolve(source, importer, { ...options, skipSelf: true });
        if (r) return `\0ap-style:${r.id}.js`; // not *.css: Vite's CSS plugin must not take it
      }
      return null;
    },
    load(id) {
      if (id === '\0ap-empty-css') return 'export default "";';
      if (id.startsWith('\0ap-style:')) {
        const file = id.slice('\0ap-style:'.length, -'.js'.length);
        return `import css from ${JSON.stringify(`${file}?inline`)};\nimport { addStyle } from ${JSON.stringify(STYLES)};\naddStyle(css);\n`;
      }
      return null;
    },
  };
}

async function buildPages() {
  await build({
    configFile: resolve(WEB, 'vite.config.mjs'),
    base: './',
    logLevel: quiet ? 'warn' : 'info',
    build: { outDir: DIST, emptyOutDir: true },
  });
}

export async function buildWidget() {
  const out = await build({
    configFile: false,
    root: WEB,
    base: './',
    publicDir: false,
    logLevel: quiet ? 'warn' : 'info',
    plugins: [widgetPlugin()],
    worker: { format: 'es' },
    build: {
      outDir: DIST,
      emptyOutDir: false,
      target: 'es2022',
      modulePreload: false, // nothing goes into the host page's <head>
      rollupOptions: {
        preserveEntrySignatures: 'exports-only', // embed-host.js's exports (Vite drops entries' exports by default)
        // embed-host.js: the iframe route's helper for the host page (fit the frame, drive it).
        input: {
          'attention-playground': resolve(WEB, 'attention-playground.js'),
          embed: resolve(WEB, 'embed.html'),
          'embed-host': resolve(WEB, 'src/widgets/embed-host.js'),
        },
        output: {
          entryFileNames: (c) =>
            ['attention-playground', 'embed-host'].includes(c.name) ? '[name].js' : 'assets/[name]-[hash].js',
          chunkFileNames: 'assets/[name]-[hash].js',
          assetFileNames: 'assets/[name]-[hash][extname]',
        },
      },
    },
  });
  return Array.isArray(out) ? out[0] : out;
}

/**
 * The package ships what a widget needs (package.json "files": dist/): dist/.npmignore, written
 * here, leaves out every file of dist/ that the widget build did not write (the pages and their
 * assets, the examples), the threaded engine (a widget never loads it, see measure()), and the
 * .gz/.br copies. npm pack honours an .npmignore below the package's root even with "files".
 * @returns {string[]} the files kept, relative to dist/
 */
export function writeNpmIgnore(output) {
  const threaded = threadedAsset();
  const keep = new Set([
    ...output.output.filter((o) => !threaded(o)).map((o) => o.fileName),
    'README.md',
    'size.json',
    'vite-plugin.mjs',
    'corpus/jargon.txt', // fetched by a widget with task="text" and no text of its own
  ]);
  const all = [];
  const walk = (dir, rel) => {
    for (const e of readdirSync(dir, { withFileTypes: true }))
      if (e.isDirectory()) walk(resolve(dir, e.name), `${rel}${e.name}/`);
      else if (e.name !== '.npmignore') all.push(`${rel}${e.name}`);
  };
  walk(DIST, '');
  const drop = all.filter((f) => !keep.has(f)).sort();
  writeFileSync(
    resolve(DIST, '.npmignore'),
    `# Written by web/build-widget.mjs: what npm pack leaves out of dist/ (not part of a widget).\n${drop.map((f) => `/${f}`).join('\n')}\n`,
  );
  return all.filter((f) => keep.has(f));
}

function copyExamples() {
  const from = resolve(WEB, 'examples');
  const to = resolve(DIST, 'examples');
  mkdirSync(to, { recursive: true });
  for (const f of readdirSync(from)) copyFileSync(resolve(from, f), resolve(to, f));
}

const README = `# Attention Playground widget

Train a tiny transformer in your reader's browser, inside your page.

\`\`\`html
<script type="module" src="./attention-playground.js"></script>

<attention-playground preset="probe" compact autoplay>
  <p>Interactive figure: can a transformer tell positions apart? It needs JavaScript and the
  script attention-playground.js.</p>
</attention-playground>
<attention-playground preset="rope" steps="400" view="chart,positions" autoplay>
  <p>Interactive figure: RoPE learning copy_back. It needs JavaScript and the script
  attention-playground.js; if this text stays, the script did not load.</p>
</attention-playground>
<attention-playground task="reverse" position="alibi" d-model="64" controls="play,reset,position">
  <p>Interactive figure: ALiBi learning to reverse a sequence (needs JavaScript).</p>
</attention-playground>
\`\`\`

Where scripts are not allowed, use the iframe route:

\`\`\`html
<iframe src="./embed.html#preset=permutation" loading="lazy" style="width:100%;height:640px;border:0"></iframe>
\`\`\`

Copy this folder anywhere (any static host): the worker and the wasm files are found relative
to attention-playground.js. From another origin than the page's, every file here must be served
with Access-Control-Allow-Origin (module scripts, the worker and the wasm are CORS requests; the
iframe route needs nothing). Content inside the element is its fallback: shown only while the
element is undefined, e.g. when the script was blocked. Attributes: preset (playground, permutation, probe,
extrapolation, or a position encoding such as rope or alibi), any config field with '_' written
'-', controls, view (chart, attention, positions, predictions, generate, heads, interventions),
steps, height, theme (light, dark,
auto), compact (a demo preset without its long prose, for a blog column), autoplay. The element
fires \`ready\` when it can train. The script tag needs type="module".

A page can drive a widget: play(), pause(), train(n) (old name: step(n)), reset(),
setConfig({position: 'rope'}) and highlight({layer, head, row}); events ready, model, metrics
(old name: step), trained and error ({field, message}).
Through an iframe: embed.html#...&origin=https://your.site and embed-host.js (connectFrame), which
also fits the frame to its height. examples/scroll-article.html drives one as the reader scrolls.
Bundlers: leave this folder as it is. In a Vite site, the package's plugin serves it in vite dev
and copies it in vite build: plugins: [attentionPlayground()] from 'attention-playground/vite',
then the script tag /attention-playground/attention-playground.js (see docs/widgets.md).

The .gz and .br files beside the wasm and scripts are precompressed copies for hosts that serve
them (nginx gzip_static, Caddy precompressed): the wasm is about 300 KB gzipped, 900 KB without.
`;

/** Gzipped size of a file's bytes, as `gzip -9 | wc -c` counts it (Node's zlib where there is no gzip). */
export function gzipSize(bytes) {
  try {
    return execFileSync('gzip', ['-9', '-c', '-n'], { input: bytes, maxBuffer: 1 << 28 }).length;
  } catch {
    return gzipSync(bytes, { level: 9 }).length;
  }
}

/** A test for the build's outputs that are the threaded variant's files (web/src/wasm/threads/). */
function threadedAsset() {
  const threaded = ['attnplay.wasm', 'attnplay.mjs']
    .map((f) => resolve(WEB, 'src/wasm/threads', f))
    .filter(existsSync)
    .map((f) => readFileSync(f));
  return (o) => o.type === 'asset' && threaded.some((b) => Buffer.from(o.source).equals(b));
}

/**
 * Gzipped bytes of everything one widget downloads, per kind of preset (and for a comparison). From the entry: its static
 * and dynamic imports, and every file whose name appears in the code loaded (the worker, the
 * module's glue, the wasm), counting one wasm variant (the larger) and one glue file (the larger).
 * The threaded variant's files (web/src/wasm/threads/) are left out: a widget never loads it
 * (bestVariant() without threads, common/simd-support.js), though the worker names its URLs. So is
 * the module's deferred part (attnplay.deferred.wasm), loaded by a view's first call into it
 * (Explore, Generate, interventions, heads, model files): tests/browser/widgets.test.mjs checks
 * that a first view does not fetch it. The message table's parts (common/messages/<part>.<lang>.js)
 * come in the page's language only: each kind counts its parts in one language, the larger.
 */
export function measure(output) {
  const isThreaded = threadedAsset();
  const files = new Map(output.output.filter((o) => !isThreaded(o)).map((o) => [o.fileName, o]));
  const text = (o) => (o.type === 'chunk' ? o.code : typeof o.source === 'string' ? o.source : Buffer.from(o.source));
  const gz = new Map();
  const gzip = (f) => gz.get(f) ?? gz.set(f, gzipSize(Buffer.from(text(files.get(f))))).get(f);
  // Chunks loaded for one kind of preset only: the demos and the widget's own view.
  const facade = (f) => (files.get(f)?.type === 'chunk' ? (files.get(f).facadeModuleId ?? '') : '');
  const demoOf = (f) => /\/src\/demos\/([^/]+)\/index\.js$/.exec(facade(f))?.[1];
  const isDemo = (f) => Boolean(demoOf(f)) && files.get(f).isDynamicEntry;
  const view = (f, name) => facade(f).endsWith(`/widgets/${name}.js`); // the widget's own views: one of them per widget
  // widget-api: the code of train(), setConfig() ..., loaded only by a page that calls them;
  // figure-export: the figure builders, loaded by a view's first download (panels/figure-menu.js);
  // the panels: each loaded by a widget whose `view` names it (widgets/lazy-views.js).
  const PANELS = ['attention', 'positions', 'predictions', 'generate', 'heads', 'interventions'];
  const panelOf = (f) =>
    files.get(f)?.isDynamicEntry && PANELS.find((p) => facade(f).endsWith(`/panels/${p}-panel.js`));
  const onDemand = (f) =>
    view(f, 'widget-api') || facade(f).endsWith('/charts/figure-export.js') || Boolean(panelOf(f));
  // the wasm module's second part (build-scripts/wasm-split.mjs): fetched on the first call into it
  const deferredWasm = (f) => /\.deferred-[\w-]{8}\.wasm$/.test(f);
  // a part of the message table in one language (common/messages/<part>.<lang>.js): a widget loads
  // the parts it needs in its page's language only, counted below per language
  const messagePart = (f) => /\/common\/messages\/([a-z]+)\.([a-z]+)\.js$/.exec(facade(f))?.slice(1);
  // the refusals' English, the worker's chunk (worker.js englishOf): fetched on the first refusal only
  // (the browser's module has no templates: docs/playground.md, Refusals)
  const workerRefusals = (f) => /(^|\/)refusals\.en-[\w-]{8}\.js$/.test(f);
  const lazy = (f) =>
    workerRefusals(f) ||
    isDemo(f) ||
    view(f, 'widget-app') ||
    view(f, 'compare-app') ||
    onDemand(f) ||
    deferredWasm(f) ||
    Boolean(messagePart(f));
  const names = [...files.keys()];

  function closure(starts) {
    const seen = new Set();
    const stack = [...starts];
    while (stack.length) {
      const f = stack.pop();
      if (seen.has(f) || !files.has(f)) continue;
      seen.add(f);
      const o = files.get(f);
      if (o.type === 'chunk') stack.push(...o.imports, ...o.dynamicImports.filter((d) => !lazy(d)));
      if (f.endsWith('.js')) {
        const code = String(text(o));
        for (const n of names)
          if (n !== f && !seen.has(n) && !lazy(n) && !n.endsWith('.html') && code.includes(basename(n))) stack.push(n);
      }
    }
    return seen;
  }
  // One variant: of files with the same stem (attnplay-<hash>.wasm ×2, its glue ×2) keep the largest.
  function total(set) {
    const groups = new Map();
    for (const f of set) {
      const key = f.replace(/-[A-Za-z0-9_-]{8}(\.\w+)$/, '$1');
      const cur = groups.get(key);
      if (!cur || gzip(f) > gzip(cur)) groups.set(key, f);
    }
    const list = [...groups.values()];
    return {
      bytes: list.reduce((s, f) => s + gzip(f), 0),
      files: list.map((f) => [f, gzip(f)]).sort((a, b) => b[1] - a[1]),
    };
  }
  const langs = [...new Set(names.map((f) => messagePart(f)?.[1]).filter(Boolean))];
  /** The parts' chunks in `lang`. @param {string} lang @param {string[]} parts */
  const messages = (lang, parts) =>
    names.filter((f) => {
      const m = messagePart(f);
      return m && m[1] === lang && parts.includes(m[0]);
    });
  /** The larger of a download with its message parts in each language. @param {Set<string>} set @param {string[]} parts */
  const inLanguage = (set, parts) => {
    const each = (langs.length ? langs : ['']).map((l) => ({
      lang: l,
      ...total(new Set([...set, ...messages(l, parts)])),
    }));
    const worst = each.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    return { ...worst, byLang: each.map((e) => `${e.lang} ${kb(e.bytes)}`).join(', ') };
  };
  const entry = 'attention-playground.js';
  const base = closure([entry]);
  const app = names.find((f) => view(f, 'widget-app'));
  const compare = names.find((f) => view(f, 'compare-app'));
  const panels = (list) => list.map((p) => names.find((f) => panelOf(f) === p) ?? `(no chunk for the ${p} panel)`);
  const missing = panels(PANELS).filter((f) => !files.has(f));
  if (missing.length) throw new Error(`build-widget: each panel must be a chunk of its own: ${missing.join(', ')}`);
  // A config preset's widget with the panels of `view`: the charts are in the widget's own chunk.
  const widget = (view, more = []) =>
    inLanguage(new Set([...base, ...closure([app]), ...closure(panels(view)), ...closure(more)]), [
      'widget',
      ...(view.includes('positions') ? ['positions'] : []),
      ...(view.some((v) => ['predictions', 'generate', 'heads', 'interventions'].includes(v)) ? ['panels'] : []),
    ]);
  const kinds = { 'playground / encoding presets': widget(['attention', 'positions']) };
  if (compare)
    kinds['a comparison (compare=…)'] = inLanguage(new Set([...base, ...closure([compare])]), [
      'widget',
      'compare',
      'panels',
    ]);
  const driven = names.find((f) => view(f, 'widget-api'));
  if (driven) kinds['driven by a page (setConfig …)'] = widget(['attention', 'positions'], [driven]);
  kinds['view=chart,attention,…,generate'] = widget(['attention', 'positions', 'predictions', 'generate']);
  kinds['view=chart,heads,interventions'] = widget(['heads', 'interventions']);
  for (const f of files.keys())
    if (isDemo(f))
      kinds[`${demoOf(f)} preset`] = inLanguage(new Set([...base, ...closure([f])]), ['widget', demoOf(f)]);
  return kinds;
}

const kb = (n) => `${(n / 1000).toFixed(1)} KB`;

/** Build everything; `quiet` keeps Vite to warnings. Sets process.exitCode = 1 over the budget. */
export async function main(opts = {}) {
  if (opts.quiet) quiet = true;
  for (const v of ['simd', 'scalar'])
    if (!existsSync(resolve(WEB, `src/wasm/${v}/attnplay.wasm`)))
      throw new Error(`web/src/wasm/${v}/attnplay.wasm is missing: run npm run build:wasm first`);
  const pages = existsSync(resolve(WEB, 'vite.config.mjs'));
  if (pages) await buildPages();
  const output = await buildWidget();
  copyExamples();
  writeFileSync(resolve(DIST, 'README.md'), README);
  copyFileSync(resolve(WEB, 'vite-plugin.mjs'), resolve(DIST, 'vite-plugin.mjs'));
  const kinds = measure(output);
  const packed = await precompress(DIST);
  writeNpmIgnore(output);
  for (const w of packed.filter((p) => p.file.endsWith('.wasm')))
    console.log(`${basename(w.file)}: ${kb(w.bytes)}, precompressed ${kb(w.gzip)} (.gz), ${kb(w.brotli)} (.br)`);
  console.log('\nWhat one <attention-playground> downloads (gzip -9), per kind of preset:');
  let worst = 0;
  for (const [kind, { bytes, files, lang, byLang }] of Object.entries(kinds)) {
    worst = Math.max(worst, bytes);
    console.log(
      `  ${kind.padEnd(32)} ${kb(bytes).padStart(9)}   (${lang ? `${byLang}; in ${lang}: ` : ''}${files.map(([f, b]) => `${basename(f)} ${kb(b)}`).join(', ')})`,
    );
  }
  console.log(`  budget${' '.repeat(26)} ${kb(BUDGET).padStart(9)}: ${worst <= BUDGET ? 'within' : 'OVER'}`);
  writeFileSync(
    resolve(DIST, 'size.json'),
    `${JSON.stringify({ budget: BUDGET, worst, kinds: Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, v.bytes])) }, null, 2)}\n`,
  );
  if (worst > BUDGET) {
    console.error(`build-widget: a widget downloads ${kb(worst)} gzipped, more than the ${kb(BUDGET)} budget`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
