#!/usr/bin/env bash
# build-scripts/build-wasm.sh [--module-only] — the two wasm variants with Debian's Emscripten:
#   build/wasm-simd    -msimd128 -msse4.1 (xsimd's sse4.1 path, mapped onto SIMD128)
#   build/wasm-scalar  no SIMD
# and copies each browser module (attnplay.mjs + .wasm) into web/src/wasm/<variant>/ for Vite.
# --module-only skips the test and bench programs (used by `npm start`).
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache (if installed): paths relative to the clone, so another clone of the same sources hits
# the cache; precompiled headers need the pch sloppiness.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
# Debian's emscripten runs its JS tools under the system Node and needs its modules.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
jobs=$(nproc 2>/dev/null || echo 2)
targets=()
[ "${1:-}" = "--module-only" ] && targets=(--target ap_web ap_node)
for variant in simd scalar; do
  simd=ON; [ "$variant" = scalar ] && simd=OFF
  dir="build/wasm-$variant"
  emcmake cmake -S . -B "$dir" -DAP_WASM_SIMD=$simd -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$dir" -j"$jobs" "${targets[@]}"
  mkdir -p "web/src/wasm/$variant"
  cp "$dir/attnplay.mjs" "$dir/attnplay.wasm" "web/src/wasm/$variant/"
done
