// Playground page: wires the client to the DOM. No training logic here.
import { PlaygroundClient } from '../../client/client.js';

const status = document.getElementById('module-status');
const client = new PlaygroundClient();
client
  .init()
  .then((info) => {
    status.textContent = `Engine ${info.version} loaded: ${info.variant === 'simd' ? 'WebAssembly SIMD' : 'scalar WebAssembly'} (${info.simdArch}).`;
    status.dataset.variant = info.variant;
    status.dataset.ready = 'true';
  })
  .catch((err) => {
    status.textContent = `The training engine failed to load: ${err.message}`;
    status.dataset.error = 'true';
  });
