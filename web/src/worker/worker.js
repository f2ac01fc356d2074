// The only owner of the wasm module. Requests arrive as {id, cmd, args}; each gets exactly one
// reply {id, ok, result} or {id, ok: false, error}. No DOM here.
import { loadModule } from './load-module.js';

let mod = null;
let variant = null;

const commands = {
  async init({ variant: wanted }) {
    mod = await loadModule(wanted);
    variant = wanted;
    return { variant, version: mod.version(), simdArch: mod.simdArch(), simd: mod.simdEnabled() };
  },
};

self.onmessage = async (event) => {
  const { id, cmd, args } = event.data;
  try {
    const handler = commands[cmd];
    if (!handler) throw new Error(`worker: unknown command '${cmd}'`);
    if (cmd !== 'init' && !mod) throw new Error('worker: the module is not loaded yet');
    const result = await handler(args ?? {});
    self.postMessage({ id, ok: true, result });
  } catch (err) {
    self.postMessage({ id, ok: false, error: String(err?.message ?? err) });
  }
};
