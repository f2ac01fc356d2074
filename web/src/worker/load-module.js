// Loads one variant of the Emscripten module inside the worker. The variants are imported by
// literal paths so that Vite bundles them and copies their .wasm files. The type checker reads
// each module's types from the attnplay.d.mts beside it (which re-exports web/src/wasm-api.d.ts).
//
// The threaded variant is not bundled: its pthreads run in Web Workers that run
// attnplay.worker.js, which imports the module again by URL (mainScriptUrlOrBlob). So the module
// and the .wasm are copied as they are (`?url`) and found through locateFile; the worker script
// (2 KB, a classic script that Vite's dev server would turn into a module) is inlined as text and
// started from a blob: URL (the pages' CSP allows worker-src blob:). Its pool of workers is
// started with the module (pthreadPoolSize), so no thread ever waits for a worker to load.
import simdWasmUrl from '../wasm/simd/attnplay.wasm?url';
import simdDeferredUrl from '../wasm/simd/attnplay.deferred.wasm?url';
import scalarWasmUrl from '../wasm/scalar/attnplay.wasm?url';
import scalarDeferredUrl from '../wasm/scalar/attnplay.deferred.wasm?url';
import threadsWasmUrl from '../wasm/threads/attnplay.wasm?url';
import threadsWorkerSource from '../wasm/threads/attnplay.worker.js?raw';
import threadsModuleUrl from '../wasm/threads/attnplay.mjs?url';
import { threadsAvailable } from '../common/simd-support.js';

/** @typedef {import('../wasm-api').AttnplayModule} AttnplayModule */
/** @typedef {(options?: Parameters<typeof import('../wasm-api').default>[0]) => Promise<AttnplayModule>} Factory */

const variants = {
  simd: { factory: () => import('../wasm/simd/attnplay.mjs'), wasmUrl: simdWasmUrl, deferredUrl: simdDeferredUrl },
  scalar: {
    factory: () => import('../wasm/scalar/attnplay.mjs'),
    wasmUrl: scalarWasmUrl,
    deferredUrl: scalarDeferredUrl,
  },
};

// The simd and scalar modules come in two parts (build-scripts/wasm-split.mjs): attnplay.wasm, what
// a first view runs (training, attention, positions, predictions), and attnplay.deferred.wasm, the
// rest (Explore, Generate, interventions, head diagnostics, model files, the PyTorch export). The
// glue calls loadSplitModule on a call into a function of the second part; its own loader would
// fetch it again on every such call (Embind keeps the placeholders), so this one loads it once,
// synchronously (a worker may), and later calls go straight through the table it filled.
/** @param {string} url */
function deferredLoader(url) {
  let loaded = false;
  return (/** @type {string} */ _file, /** @type {WebAssembly.Imports} */ imports) => {
    if (loaded) return;
    const xhr = new XMLHttpRequest();
    xhr.open('GET', url, false);
    xhr.responseType = 'arraybuffer';
    xhr.send();
    if (xhr.status !== 200 && xhr.status !== 0)
      throw new Error(`the engine's second part (${url}) could not be loaded: HTTP ${xhr.status}`);
    new WebAssembly.Instance(new WebAssembly.Module(xhr.response), imports);
    loaded = true;
  };
}

// The glue's notes on loading the second part go nowhere; anything else it prints stays a warning.
/** @param {string} text */
const printErr = (text) => {
  if (!/^(placeholder function called|instantiated deferred module)/.test(text)) console.warn(text);
};

/**
 * @param {'threads'|'simd'|'scalar'} variant
 * @returns {Promise<AttnplayModule>} the instantiated Embind module
 */
export async function loadModule(variant) {
  if (variant === 'threads') return loadThreaded();
  const v = variants[variant];
  if (!v) throw new Error(`unknown module variant '${variant}': use threads, simd or scalar`);
  const { default: createAttnplay } = await v.factory();
  return createAttnplay({ locateFile: () => v.wasmUrl, loadSplitModule: deferredLoader(v.deferredUrl), printErr });
}

/** The threaded variant with min(cores, 4) threads; refuses where it cannot run. */
async function loadThreaded() {
  const threads = threadsAvailable();
  if (!threads)
    throw new Error('the threaded engine needs a crossOriginIsolated page (COOP/COEP headers) and more than one core');
  const moduleUrl = new URL(threadsModuleUrl, self.location.href).href;
  const workerUrl = URL.createObjectURL(new Blob([threadsWorkerSource], { type: 'text/javascript' }));
  const { default: createAttnplay } = /** @type {{default: Factory}} */ (await import(/* @vite-ignore */ moduleUrl));
  const mod = await createAttnplay({
    locateFile: (/** @type {string} */ path) => (path.endsWith('.worker.js') ? workerUrl : threadsWasmUrl),
    mainScriptUrlOrBlob: moduleUrl,
    pthreadPoolSize: threads - 1,
  });
  mod.setThreads(threads);
  return mod;
}
