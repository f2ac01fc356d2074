#!/usr/bin/env bash
# build-scripts/build-native.sh — the two native builds (Release, -O3):
#   build/native      -march=native (the machine's best instruction set): tests, CLI, bench
#   build/native-sse  -msse4.1 only, for like-for-like comparison with wasm SIMD
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
build() { # dir arch
  cmake -S . -B "build/$1" -DAP_ARCH="$2" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "build/$1" -j"$jobs"
}
build native native
build native-sse sse41
