// The demo pages (permutation.html, probe.html, extrapolation.html) and the experiments page
// (experiments.html): one HTML shell (shell.html) filled with each page's words. Read by
// web/vite.config.mjs, which serves the pages in dev and writes them in the build; the page's
// script (page.js for the demos) mounts the demo named by <body data-demo>.
// Runs under Node (the Vite config): no DOM here.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { demoLists, probeModels, DEFAULT_SEEDS } from '../../demos/lists.js';

// The probe's default grid, as the page builds it (a browser test checks the count against the page's).
const probe = demoLists();

/** name -> the words of its page (script: its entry, the demos' page.js unless named); the order is the header's. */
export const DEMO_PAGES = {
  permutation: {
    title: 'Permutation',
    description: 'Reorder a sequence and watch an encoder without positions reorder its outputs, exactly.',
    tagline: 'Without positions, attention is blind to order.',
  },
  probe: {
    title: 'Probe',
    description: `${probeModels(probe)} tiny models (${probe.probePositions.length} encodings × ${probe.probeNormalizations.length} normalizations × ${DEFAULT_SEEDS} seeds) try to output their own position from identical tokens.`,
    tagline: 'Which encodings can count positions?',
  },
  extrapolation: {
    title: 'Extrapolation',
    description: 'Train at length L, evaluate up to 4L: which encodings keep working?',
    tagline: 'What happens past the training length?',
  },
  experiments: {
    title: 'Experiments',
    description: "The source texts' claims, re-run with seeds: committed results, your own re-runs and your own grid.",
    tagline: 'Do the claims hold at this scale?',
    script: '/src/pages/experiments/main.js',
  },
};
const DEMO_SCRIPT = '/src/pages/demos/page.js';

const SHELL = resolve(import.meta.dirname, 'shell.html');

/**
 * The header's links, as lines of HTML: the playground, each demo page, the course.
 * @param {string} base the site's root from the page ('./', or '../' for course/)
 * @param {string} current the page's name (a key of DEMO_PAGES, 'course', or '')
 * @param {boolean} [translated] each link names its message `nav.<page>` (data-msg), which a page
 *   in more than one language (the course's) writes in its language
 * @returns {string[]}
 */
export function headerLinks(base, current, translated = false) {
  const link = (/** @type {string} */ href, /** @type {string} */ text, /** @type {boolean} */ here) =>
    `        <a href="${base}${href}"${here ? ' aria-current="page"' : ''}${translated ? ` data-msg="nav.${href.replace(/(\/index)?\.html$/, '').replace('index', 'playground')}"` : ''}>${text}</a>`;
  return [
    link('index.html', 'Playground', false),
    ...Object.entries(DEMO_PAGES).map(([n, p]) => link(`${n}.html`, p.title, n === current)),
    link('course/index.html', 'Course', current === 'course'),
  ];
}

/**
 * The HTML of the demo page `name`.
 * @param {string} name a key of DEMO_PAGES
 * @returns {string}
 */
export function demoPageHtml(name) {
  const page = DEMO_PAGES[name];
  if (!page) throw new Error(`no demo page "${name}": one of ${Object.keys(DEMO_PAGES).join(', ')}`);
  const links = headerLinks('./', name);
  const words = {
    DEMO: name,
    TITLE: page.title,
    DESCRIPTION: page.description,
    TAGLINE: page.tagline,
    LINKS: links.join('\n'),
    SCRIPT: page.script ?? DEMO_SCRIPT,
  };
  return readFileSync(SHELL, 'utf8').replace(/%([A-Z]+)%/g, (all, key) => words[key] ?? all);
}

/**
 * The Vite plugin that makes the demo pages out of the shell: in dev, /<name>.html is served
 * from it (through Vite's HTML transform); in the build, the inputs <root>/<name>.html are loaded
 * from it, so they land in dist/ as <name>.html. URLs stay those of three files.
 * @param {string} root the Vite root (web/)
 * @returns {import('vite').Plugin}
 */
export function demoPagesPlugin(root) {
  const byId = new Map(Object.keys(DEMO_PAGES).map((n) => [resolve(root, `${n}.html`), n]));
  return {
    name: 'attention-playground-demo-pages',
    enforce: 'pre',
    resolveId(id) {
      return byId.has(id) ? id : null;
    },
    load(id) {
      return byId.has(id) ? demoPageHtml(byId.get(id)) : null;
    },
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        const name = /^\/([a-z]+)\.html(?:[?#]|$)/.exec(req.url ?? '')?.[1];
        if (!name || !Object.hasOwn(DEMO_PAGES, name)) return next();
        try {
          const html = await server.transformIndexHtml(req.url, demoPageHtml(name), req.originalUrl);
          res.setHeader('Content-Type', 'text/html');
          res.end(html);
        } catch (err) {
          next(err);
        }
      });
    },
  };
}

/** Rollup inputs of the demo pages: {name: <root>/<name>.html}. */
export const demoPageInputs = (root) =>
  Object.fromEntries(Object.keys(DEMO_PAGES).map((n) => [n, resolve(root, `${n}.html`)]));
