#!/usr/bin/env bash
# `npm test`: set up what is missing, build native and wasm, run every suite, and exit non-zero
# if any suite fails. Suites: Catch2 (native, native-sse, wasm-simd, wasm-scalar, through ctest;
# the wasm ones run under Node), the wasm module's API under Node, the type check of the web
# sources (tsc), browser tests in Chromium.
set -uo pipefail
cd "$(dirname "$0")/.."
bash build-scripts/setup.sh || { echo "npm test: setup failed" >&2; exit 1; }
bash build-scripts/build-native.sh || { echo "npm test: the native build failed" >&2; exit 1; }
bash build-scripts/build-wasm.sh || { echo "npm test: the wasm build failed" >&2; exit 1; }

passed=0; failed=0; failures=()
suite() { # name command...
  local name=$1; shift
  echo; echo "=== $name"
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); failures+=("$name"); fi
}
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
for b in native native-sse wasm-simd wasm-scalar; do
  suite "Catch2 ($b)" ctest --test-dir "build/$b" --output-on-failure
done
suite "wasm module under Node" node --test tests/node/
suite "types (tsc --checkJs on the web sources, tsconfig.json)" node build-scripts/typecheck.mjs
# Fuzzing (libFuzzer, ASan + UBSan): five targets, 60 s each in CI, 10 s locally.
suite "fuzz (config, safetensors, generate, session JSON, grid)" bash build-scripts/fuzz.sh "$([ "${CI:-}" = true ] && echo 60 || echo 10)"
suite "browser (Chromium)" node --test --test-concurrency=1 tests/browser/

echo
[ $failed -gt 0 ] && echo "failed suites: ${failures[*]}"
echo "suites: $passed passed, $failed failed"
[ $failed -eq 0 ]
