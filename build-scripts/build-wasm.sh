#!/usr/bin/env bash
# build-scripts/build-wasm.sh [--module-only | --for-tests] — the three wasm variants with Debian's Emscripten:
#   build/wasm-simd     -msimd128 -msse4.1 (xsimd's sse4.1 path, mapped onto SIMD128)
#   build/wasm-scalar   no SIMD
#   build/wasm-threads  SIMD + -pthread (SharedArrayBuffer; pages that are crossOriginIsolated)
# and copies each browser module (attnplay.mjs + .wasm, + attnplay.worker.js for threads) into
# web/src/wasm/<variant>/ for Vite. The simd and scalar modules are split first (wasm-split.mjs):
# attnplay.wasm holds what a first view runs, attnplay.deferred.wasm the rest, loaded on demand.
# --module-only skips the test and bench programs (used by
# `npm start`); --for-tests (npm test) builds what the tests run: wasm-simd whole, wasm-scalar's
# modules (browser, Node) and kernel tests. The threads variant builds only its modules (its kernels are
# the SIMD ones, and the Catch2 tests of the split run natively).
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache (if installed): paths relative to the clone, so another clone of the same sources hits
# the cache; precompiled headers need the pch sloppiness.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
# Debian's emscripten runs its JS tools under the system Node and needs its modules.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
jobs=$(nproc 2>/dev/null || echo 2)
mode=${1:-}
for variant in simd scalar threads; do
  simd=ON threads=OFF
  [ "$variant" = scalar ] && simd=OFF
  [ "$variant" = threads ] && threads=ON
  dir="build/wasm-$variant"
  emcmake cmake -S . -B "$dir" -DAP_WASM_SIMD=$simd -DAP_WASM_THREADS=$threads -DCMAKE_BUILD_TYPE=Release >/dev/null
  targets=()
  if [ "$variant" = threads ]; then
    targets=(--target ap_web ap_node)
  elif [ "$mode" = --module-only ]; then
    targets=(--target ap_web ap_node ap_split) # ap_split: the split's profile (wasm.cmake)
  elif [ "$variant" = scalar ] && [ "$mode" = --for-tests ]; then
    targets=(--target ap_web ap_node ap_split aptests)
  fi
  cmake --build "$dir" -j"$jobs" "${targets[@]}"
  # simd, scalar: what a first view runs in attnplay.wasm, the rest in attnplay.deferred.wasm
  if [ "$variant" != threads ]; then node build-scripts/wasm-split.mjs "$dir"; fi
  mkdir -p "web/src/wasm/$variant"
  cp "$dir/attnplay.mjs" "$dir/attnplay.wasm" "web/src/wasm/$variant/"
  if [ "$variant" = threads ]; then cp "$dir/attnplay.worker.js" "web/src/wasm/$variant/"; fi
  if [ "$variant" != threads ]; then cp "$dir/attnplay.deferred.wasm" "web/src/wasm/$variant/"; fi
done
