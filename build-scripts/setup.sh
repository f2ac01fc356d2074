#!/usr/bin/env bash
# build-scripts/setup.sh — install what is missing, quickly and idempotently.
# As root on Debian/Ubuntu: apt-installs the toolchain and libraries, then `npm ci` when
# node_modules is missing or older than package-lock.json. Anywhere else: prints exactly what is
# missing and how to get it, and exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."

# command-or-header-or-glob : Debian package
NEEDS=(
  "cmd:cmake:cmake"
  "cmd:g++:g++"
  "cmd:em++:emscripten"
  # splits the widget's wasm modules (build-scripts/wasm-split.mjs)
  "cmd:wasm-split:binaryen"
  "hdr:xtensor/xtensor.hpp:libxtensor-dev"
  "hdr:xsimd/xsimd.hpp:libxsimd-dev"
  "hdr:catch2/catch.hpp:catch2"
  "hdr:nlohmann/json.hpp:nlohmann-json3-dev"
  "hdr:CLI/CLI.hpp:libcli11-dev"
  "cmd:chromium:chromium"
  # a Chinese font, so that the browser tests' screenshots of the course in 中文 show its text
  "glob:/usr/share/fonts/truetype/wqy/wqy-microhei.ttc:fonts-wqy-microhei"
  "cmd:ccache:ccache"
  # sweeps across job slots and machines (attnplay sweep --emit gnu-parallel; docs/sweeps.md)
  "cmd:parallel:parallel"
  # the Slurm path, tested on a real single-node Slurm (tests/native/slurm_test.sh)
  "cmd:slurmctld:slurmctld"
  "cmd:slurmd:slurmd"
  "cmd:sbatch:slurm-client"
  "cmd:munged:munge"
  # the text task's bundled corpus (build-scripts/corpus.mjs, docs/corpus.md)
  "glob:/usr/share/doc/jargon-text/jargon.txt.gz:jargon-text"
  # the PyTorch export's test (tests/native/torch_test.sh) runs the exported file under Debian's torch
  "glob:/usr/lib/python3/dist-packages/torch/__init__.py:python3-torch"
  # fuzzing (build-scripts/fuzz.sh): clang with libFuzzer and the sanitizer runtimes
  "cmd:clang++:clang"
  "glob:/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-14-dev"
)
missing_pkgs=()
for need in "${NEEDS[@]}"; do
  IFS=: read -r kind what pkg <<<"$need"
  if [ "$kind" = cmd ]; then
    command -v "$what" >/dev/null 2>&1 || missing_pkgs+=("$pkg")
  elif [ "$kind" = glob ]; then
    compgen -G "$what" >/dev/null || missing_pkgs+=("$pkg")
  else
    [ -f "/usr/include/$what" ] || missing_pkgs+=("$pkg")
  fi
done

if [ ${#missing_pkgs[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing ${missing_pkgs[*]} (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing_pkgs[@]}" >/dev/null
  else
    echo "setup: these are missing: ${missing_pkgs[*]}" >&2
    if command -v apt-get >/dev/null 2>&1; then
      echo "  install them with: sudo apt-get install ${missing_pkgs[*]}" >&2
    else
      echo "  on macOS: brew install cmake xtensor xsimd catch2@2 nlohmann-json cli11 chromium," >&2
      echo "  and Emscripten through emsdk (https://emscripten.org/docs/getting_started/downloads.html)" >&2
    fi
    exit 1
  fi
fi

for tool in node npm; do
  command -v "$tool" >/dev/null 2>&1 || { echo "setup: $tool is missing: install Node.js 20 or newer" >&2; exit 1; }
done

# Also when a pinned devDependency is missing (a lock that changed in a pull keeps an older mtime).
deps_missing() {
  node -e 'const d = require("./package.json").devDependencies || {};
    const fs = require("fs"); process.exit(Object.keys(d).every((n) => fs.existsSync(`node_modules/${n}/package.json`)) ? 1 : 0)'
}
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ] || deps_missing; then
  echo "setup: npm ci"
  # npm ci refuses a lock file without an entry for every platform's optional package (rollup's
  # android/darwin/... builds); a registry mirror that lacks them yields such a lock. Then
  # `npm install --no-save` installs the same pinned versions from the lock without rewriting it.
  if ! npm ci --no-audit --no-fund --loglevel=error 2>/tmp/attnplay-npm-ci.log; then
    if grep -q "EUSAGE\|in sync" /tmp/attnplay-npm-ci.log; then
      echo "setup: npm ci refused the lock file's missing optional platform packages; npm install --no-save"
      npm install --no-save --no-audit --no-fund --loglevel=error
    else
      cat /tmp/attnplay-npm-ci.log >&2
      echo "setup: npm ci failed (is the npm registry reachable?)" >&2
      exit 1
    fi
  fi
  touch node_modules
fi
