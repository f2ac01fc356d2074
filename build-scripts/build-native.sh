#!/usr/bin/env bash
# build-scripts/build-native.sh — the two native builds (Release, -O3):
#   build/native      -march=native (the machine's best instruction set): tests, CLI, bench
#   build/native-sse  -msse4.1 only, for like-for-like comparison with wasm SIMD
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache (if installed): paths relative to the clone, so another clone of the same sources hits
# the cache; precompiled headers need the pch sloppiness.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
jobs=$(nproc 2>/dev/null || echo 2)
build() { # dir arch
  cmake -S . -B "build/$1" -DAP_ARCH="$2" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "build/$1" -j"$jobs"
}
build native native
build native-sse sse41
