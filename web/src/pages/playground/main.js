// Playground page entry: loads the engine in its worker and, meanwhile, draws the settings from the
// registry (data: state/registry.gen.js); says which variant runs, then hands over to the
// Playground wiring. No training logic here.
import { EngineClient } from '../../client/client.js';
import { bestVariant, threadsRequested } from '../../common/simd-support.js';
import { engineKind } from '../../panels/engine-notice.js';
import { Playground } from './playground.js';
import { loadMessages } from '../../common/messages.js';
import registry from '../../state/registry.js';
import '../../panels/style.css';

const status = /** @type {HTMLElement} */ (document.getElementById('module-status'));
const client = new EngineClient();

try {
  // The threaded build when this page is crossOriginIsolated with SharedArrayBuffer and more than
  // one core (docs/threads.md), unless the address says ?threads=0; else SIMD or scalar.
  const init = client.init(bestVariant({ threads: threadsRequested(location.search) }));
  init.catch(() => {}); // said below, once awaited
  // the panels' and the comparison's words (the page is in English)
  await loadMessages('en', ['widget', 'positions', 'compare', 'panels']);
  const playground = new Playground(client, registry);
  playground.preview(); // the form and the formulas while the module loads
  const engine = await init;
  status.textContent = `Engine ${engine.version} · ${engineKind(engine)} (${engine.simdArch})`;
  status.title =
    engine.variant === 'threads'
      ? `This page is cross-origin isolated: the threaded SIMD build trains on ${engine.threads} threads.`
      : engine.variant === 'simd'
        ? `This browser runs the SIMD build, on one thread${engine.fallback ? ` (the threaded build did not start: ${engine.fallback})` : ''}.`
        : 'No WebAssembly SIMD here: the scalar build runs.';
  status.dataset.variant = engine.variant;
  status.dataset.threads = String(engine.threads);
  status.dataset.ready = 'true';
  await playground.start();
  window.playground = playground; // for the console and the browser tests
} catch (err) {
  status.textContent = `The training engine failed to load: ${/** @type {Error} */ (err).message}`;
  status.dataset.error = 'true';
  console.error(err);
}
