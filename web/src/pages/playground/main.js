// Playground page entry: loads the engine in its worker, says which variant runs, then hands
// over to the Playground wiring. No training logic here.
import { EngineClient } from '../../client/client.js';
import { Playground } from './playground.js';
import '../../panels/style.css';

const status = /** @type {HTMLElement} */ (document.getElementById('module-status'));
const client = new EngineClient();

try {
  const engine = await client.init();
  const kind = engine.variant === 'simd' ? 'WebAssembly SIMD' : 'scalar WebAssembly';
  status.textContent = `Engine ${engine.version} · ${kind} (${engine.simdArch})`;
  status.title = engine.variant === 'simd' ? 'This browser runs the SIMD build.' : 'No WebAssembly SIMD here: the scalar build runs.';
  status.dataset.variant = engine.variant;
  status.dataset.ready = 'true';
  const playground = new Playground(client, await client.registry());
  await playground.start();
  window.playground = playground; // for the console and the browser tests
} catch (err) {
  status.textContent = `The training engine failed to load: ${/** @type {Error} */ (err).message}`;
  status.dataset.error = 'true';
  console.error(err);
}
