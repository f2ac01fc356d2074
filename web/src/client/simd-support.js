// Which wasm variant this browser can run: a 1-function module that uses a v128 instruction
// validates only where WebAssembly SIMD is supported, and one with memory.copy only where bulk
// memory is (the SIMD variant uses both; probes as in wasm-feature-detect).
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15,
  253, 98, 11,
]);

const BULK_MEMORY_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 5, 3, 1, 0, 1, 10, 14, 1, 12, 0, 65, 0,
  65, 0, 65, 0, 252, 10, 0, 0, 11,
]);

/** @returns {'simd'|'scalar'} the best variant this browser supports */
export function bestVariant() {
  try {
    return WebAssembly.validate(SIMD_PROBE) && WebAssembly.validate(BULK_MEMORY_PROBE) ? 'simd' : 'scalar';
  } catch {
    return 'scalar';
  }
}
