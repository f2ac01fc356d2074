// Which wasm variant this browser can run: a 1-function module that uses a v128 instruction
// validates only where WebAssembly SIMD is supported (same probe as wasm-feature-detect).
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15,
  253, 98, 11,
]);

/** @returns {'simd'|'scalar'} the best variant this browser supports */
export function bestVariant() {
  try {
    return WebAssembly.validate(SIMD_PROBE) ? 'simd' : 'scalar';
  } catch {
    return 'scalar';
  }
}
