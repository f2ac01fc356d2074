// What the widget's browser tests share: test pages served next to dist/ (the widget's script comes
// from dist/, as on any host; FIXTURES: those of widgets.test.mjs and build-scripts/bench-long-tasks.mjs), and
// startWidgetServer, which serves them with dist/ on a plain static server, with Chromium
// (harness.mjs launchBrowser: the suite's, or Debian's Chromium launched with the project's flags).
import { DIST, ensureDist } from './dist.mjs';
import { serveStatic } from './static-server.mjs';
import { pausedWidget } from './until.mjs';
import { launchBrowser } from './harness.mjs';

/** A strict Content-Security-Policy for a page's head: same-origin scripts, no blob: or data: images. */
export const STRICT_CSP = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; connect-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; font-src 'self' data:; object-src 'none'">`;
export const SCRIPT = '<script type="module" src="/attention-playground.js"></script>';
export const page = (body, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">${head}${SCRIPT}</head><body>${body}</body></html>`;

export const FIXTURES = {
  // view="generate": continue a prompt with the widget's model (issue: generation).
  '/fixtures/generate.html': page(
    '<attention-playground task="text" seq-len="16" steps="60" autoplay view="chart,generate"></attention-playground>',
  ),
  '/fixtures/one.html': page('<attention-playground preset="sinusoidal" steps="60" autoplay></attention-playground>'),
  // Six widgets at once, in a grid, under a page stylesheet that would wreck anything it reached.
  '/fixtures/six.html': page(
    `<div class="grid">
      <attention-playground preset="playground" steps="150" height="90" autoplay view="chart"></attention-playground>
      <attention-playground preset="sinusoidal" steps="150" height="90" autoplay view="chart"></attention-playground>
      <attention-playground preset="learned" steps="150" height="90" autoplay theme="dark" view="chart"></attention-playground>
      <attention-playground preset="none" steps="150" height="90" autoplay view="chart"></attention-playground>
      <attention-playground task="reverse" position="sinusoidal" steps="150" height="90" autoplay controls="play,position"></attention-playground>
      <attention-playground task="copy" steps="150" height="90" autoplay view="chart,predictions"></attention-playground>
    </div>`,
    `<style>
      .grid { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 8px; }
      * { font-family: 'Comic Sans MS', cursive !important; color: hotpink; }
      div, section, header { border: 5px dotted lime; padding: 20px; }
      button { display: none; }
      canvas { opacity: 0.1; }
      .ap, .uplot, .ap-chart { display: none !important; }
    </style>`,
  ),
  // Bad attributes of several kinds beside one good widget.
  '/fixtures/bad.html': page(
    `<attention-playground id="bad-value" d-model="lots" autoplay></attention-playground>
     <attention-playground id="bad-preset" preset="nonsense"></attention-playground>
     <attention-playground id="bad-combo" heads="3" d-model="32"></attention-playground>
     <attention-playground id="bad-html" position="&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;" view="chart,&lt;b&gt;bold&lt;/b&gt;"></attention-playground>
     <attention-playground id="good" preset="sinusoidal" steps="60" autoplay></attention-playground>`,
    '<style>attention-playground { margin: 4px 0 !important; }</style>',
  ),
};

/**
 * Record page p's uncaught exceptions and its console messages of `types` in `errors`.
 * @returns {string[]} errors
 */
export function recordErrors(p, types = ['error'], errors = []) {
  p.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  p.on('console', (m) => types.includes(m.type()) && errors.push(`console: ${m.text()}`));
  return errors;
}

/**
 * The widget at `selector` has its pause acknowledged by its worker, and stays paused one more
 * round trip to the worker later (until.mjs, pausedWidget). Resolves with its step; throws, naming
 * what it saw, when the pause does not land within 10 s.
 */
export const pauseAcknowledged = (p, selector) => pausedWidget(p, selector);

/**
 * dist/ (built when stale: dist.mjs) and `pages`
 * ({path: html}) on a static server (static-server.mjs: url, hits, extra), and Chromium. open(path)
 * loads a path of that server (or an absolute URL) in a new page that records errors (console
 * messages of `console`'s types) and, given `chunks` (a RegExp), the requested paths it matches
 * (its first group); `setup(page)` runs before the page loads (init scripts, tracing).
 * @param {Record<string, string>} [pages]
 */
export async function startWidgetServer(pages = {}) {
  await ensureDist();
  const server = await serveStatic(DIST, pages);
  let browser;
  try {
    browser = await launchBrowser();
  } catch (e) {
    await server.close();
    throw e;
  }
  /**
   * @param {string} path
   * @param {{width?: number, height?: number, colorScheme?: 'light' | 'dark', console?: string[], chunks?: RegExp, setup?: (page: import('playwright-core').Page) => unknown}} [o]
   */
  async function open(
    path,
    { width = 1100, height = 900, colorScheme, console = ['error'], chunks: pattern, setup } = {},
  ) {
    const p = await browser.newPage({ viewport: { width, height }, colorScheme });
    const errors = recordErrors(p, console);
    const chunks = [];
    if (pattern)
      p.on('request', (r) => {
        const m = pattern.exec(new URL(r.url()).pathname);
        if (m) chunks.push(m[1] ?? m[0]);
      });
    await setup?.(p);
    await p.goto(/^https?:/.test(path) ? path : `${server.url}${path}`);
    return { page: p, errors, chunks };
  }
  return {
    ...server,
    browser,
    open,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}
