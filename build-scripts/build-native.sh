#!/usr/bin/env bash
# build-scripts/build-native.sh [--for-tests] — the two native builds (Release, -O3):
#   build/native      -march=native (the machine's best instruction set): tests, CLI, bench
#   build/native-sse  -msse4.1 only, for like-for-like comparison with wasm SIMD
# --for-tests (npm test) builds only what the tests run: native-sse is then its kernel tests and
# its CLI (build/native's ctest grads_builds compares the two builds' gradients; the bench builds
# the rest when it needs it).
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache (if installed): paths relative to the clone, so another clone of the same sources hits
# the cache; precompiled headers need the pch sloppiness.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
jobs=$(nproc 2>/dev/null || echo 2)
build() { # dir arch [targets...]
  local dir=$1 arch=$2; shift 2
  cmake -S . -B "build/$dir" -DAP_ARCH="$arch" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "build/$dir" -j"$jobs" ${1:+--target "$@"}
}
build native native
if [ "${1:-}" = "--for-tests" ]; then
  build native-sse sse41 aptests attnplay
else
  build native-sse sse41
  # the registry as data for the page (web/src/state/registry.gen.js); npm test does not write
  # it: tests/node/registry.test.mjs fails when the committed file is not this build's registry
  node build-scripts/registry.mjs
fi
