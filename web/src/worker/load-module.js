// Loads one variant of the Emscripten module inside the worker. Both variants are imported by
// literal paths so that Vite bundles them and copies their .wasm files. The type checker reads
// each module's types from the attnplay.d.mts beside it (which re-exports web/src/wasm-api.d.ts).
import simdWasmUrl from '../wasm/simd/attnplay.wasm?url';
import scalarWasmUrl from '../wasm/scalar/attnplay.wasm?url';

const variants = {
  simd: { factory: () => import('../wasm/simd/attnplay.mjs'), wasmUrl: simdWasmUrl },
  scalar: { factory: () => import('../wasm/scalar/attnplay.mjs'), wasmUrl: scalarWasmUrl },
};

/**
 * @param {'simd'|'scalar'} variant
 * @returns {Promise<import('../wasm-api').AttnplayModule>} the instantiated Embind module
 */
export async function loadModule(variant) {
  const v = variants[variant];
  if (!v) throw new Error(`unknown module variant '${variant}': use simd or scalar`);
  const { default: createAttnplay } = await v.factory();
  return createAttnplay({ locateFile: () => v.wasmUrl });
}
