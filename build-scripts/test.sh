#!/usr/bin/env bash
# `npm test`: set up what is missing, build native and wasm, run every suite, and exit non-zero
# if any suite fails. Suites: Catch2 (native, native-sse, wasm-simd, wasm-scalar, through ctest;
# the wasm ones run under Node), the wasm module's API under Node, the type check of the web
# sources (tsc), browser tests in Chromium.
set -uo pipefail
cd "$(dirname "$0")/.."
start_secs=$SECONDS
bash build-scripts/setup.sh || { echo "npm test: setup failed" >&2; exit 1; }
build_t0=$SECONDS
bash build-scripts/build-native.sh --for-tests || { echo "npm test: the native build failed" >&2; exit 1; }
bash build-scripts/build-wasm.sh --for-tests || { echo "npm test: the wasm build failed" >&2; exit 1; }
build_secs=$((SECONDS - build_t0))

passed=0; failed=0; failures=(); timings=()
suite() { # name command...
  local name=$1; shift
  echo; echo "=== $name"
  local t0=$SECONDS
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); failures+=("$name"); fi
  timings+=("$(printf '%5d s  %s' $((SECONDS - t0)) "$name")")
}
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
# Fuzzing (libFuzzer, ASan + UBSan): eight targets, 30 s each in CI, 10 s locally (`npm run fuzz`
# runs longer). It runs on one core beside the Catch2, Node and type-check suites (each of those
# uses one core), and is waited for before the browser suite (its tests wait for facts, not
# times, but run faster on free cores).
fuzz_secs=$([ "${CI:-}" = true ] && echo 30 || echo 10)
mkdir -p build
FUZZ_JOBS=1 bash build-scripts/fuzz.sh "$fuzz_secs" >build/fuzz-run.log 2>&1 &
fuzz_pid=$!
fuzz_result() { wait "$fuzz_pid"; local rc=$?; cat build/fuzz-run.log; return $rc; }
for b in native native-sse wasm-simd wasm-scalar; do
  suite "Catch2 ($b)" ctest --test-dir "build/$b" --output-on-failure
done
suite "wasm module under Node" node --test tests/node/
suite "experiments pipeline (npm run experiments -- --quick: sweeps, summaries, verdicts, reports)" node build-scripts/experiments.mjs --quick
suite "format (clang-format and Prettier, npm run format --check)" bash build-scripts/format.sh --check
suite "types (tsc --checkJs on the web sources, tsconfig.json)" node build-scripts/typecheck.mjs
suite "fuzz (config, safetensors, generate, session JSON, grid, custom pairs, CSV, --set-file; ${fuzz_secs} s each, run beside the suites above)" fuzz_result
suite "browser (Chromium, tests/browser/run.mjs: dist/ built once, one dev server and one Chromium for every file)" node tests/browser/run.mjs

echo
echo "time per suite (builds: ${build_secs} s):"
printf '  %s\n' "${timings[@]}"
echo "total: $((SECONDS - start_secs)) s"
[ $failed -gt 0 ] && echo "failed suites: ${failures[*]}"
echo "suites: $passed passed, $failed failed"
[ $failed -eq 0 ]
