// Playground page entry: loads the engine in its worker, says which variant runs, then hands
// over to the Playground wiring. No training logic here.
import { EngineClient } from '../../client/client.js';
import { bestVariant } from '../../client/simd-support.js';
import { engineKind } from '../../panels/engine-notice.js';
import { Playground } from './playground.js';
import '../../panels/style.css';

const status = /** @type {HTMLElement} */ (document.getElementById('module-status'));
const client = new EngineClient();

try {
  // The threaded build when asked for (?threads=1) and this page is crossOriginIsolated
  // (docs/threads.md), else SIMD or scalar. Opt-in for now: in Emscripten 3.1.6's pthreads build a
  // C++ exception is not caught by the engine's own handlers, so bad input would not get its message.
  const wantThreads = new URLSearchParams(location.search).get('threads') === '1';
  const engine = await client.init(bestVariant({ threads: wantThreads }));
  status.textContent = `Engine ${engine.version} · ${engineKind(engine)} (${engine.simdArch})`;
  status.title = engine.variant === 'threads'
    ? `This page is cross-origin isolated: the threaded SIMD build trains on ${engine.threads} threads.`
    : engine.variant === 'simd'
      ? `This browser runs the SIMD build, on one thread${engine.fallback ? ` (the threaded build did not start: ${engine.fallback})` : ''}.`
      : 'No WebAssembly SIMD here: the scalar build runs.';
  status.dataset.variant = engine.variant;
  status.dataset.threads = String(engine.threads);
  status.dataset.ready = 'true';
  const playground = new Playground(client, await client.registry());
  await playground.start();
  window.playground = playground; // for the console and the browser tests
} catch (err) {
  status.textContent = `The training engine failed to load: ${/** @type {Error} */ (err).message}`;
  status.dataset.error = 'true';
  console.error(err);
}
