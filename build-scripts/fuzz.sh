#!/usr/bin/env bash
# build-scripts/fuzz.sh [seconds] [target...] — build the libFuzzer targets of tests/fuzz/ with
# clang++ under ASan and UBSan (build/fuzz, a CMake project of its own) and run each for
# `seconds` (default 60) on its corpus. The committed seeds in tests/fuzz/corpus/<target>/ are
# read-only inputs; what the fuzzer finds goes to build/fuzz/corpus/<target>/ (FUZZ_KEEP=1
# merges the new coverage back into tests/fuzz/corpus). A crash leaves its input in
# build/fuzz/crashes/ and makes the script exit non-zero: turn it into a Catch2 regression test
# in tests/native/test_fuzz_regressions.cpp. Targets: fuzz_config (Config JSON and key=value
# lines), fuzz_safetensors (model files: load, then evaluate and generate once), fuzz_generate
# (the prompt tokenizer and generate's arguments), fuzz_session_json (the JSON of run, configure
# and a grads batch), fuzz_grid (the sweep --grid parser), fuzz_pairs (the custom task's pairs), fuzz_csv (the
# sweep's CSV reader and writer), fuzz_set_file (train --set-file's reader and its value).
# FUZZ_JOBS sets the build's parallelism (default 2).
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz_config fuzz_safetensors fuzz_generate fuzz_session_json fuzz_grid fuzz_pairs fuzz_csv fuzz_set_file)

# ccache (if installed, tests/fuzz/CMakeLists.txt): paths relative to the clone, as the builds do.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
command -v clang++ >/dev/null 2>&1 || { echo "fuzz: clang++ is missing (npm run setup)" >&2; exit 1; }
cmake -S tests/fuzz -B build/fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE= >/dev/null ||
  { echo "fuzz: cmake configure failed" >&2; exit 1; }
cmake --build build/fuzz -j"${FUZZ_JOBS:-2}" --target "${targets[@]}" ||
  { echo "fuzz: build failed (libFuzzer needs libclang-rt-14-dev: npm run setup)" >&2; exit 1; }

failed=()
for t in "${targets[@]}"; do
  seeds="tests/fuzz/corpus/$t" work="build/fuzz/corpus/$t" crashes="build/fuzz/crashes"
  mkdir -p "$seeds" "$work" "$crashes"
  dict=(); [ "$t" = fuzz_config ] && dict=(-dict=tests/fuzz/config.dict)
  # fuzz_config takes long inputs, so that nesting far past the depth limit is reachable.
  max_len=16384; [ "$t" = fuzz_config ] && max_len=131072
  echo "=== $t: ${secs}s"
  # -rss_limit_mb: the session loader may build models up to the 64 MB limit the target sets.
  if ! "build/fuzz/$t" "$work" "$seeds" "${dict[@]}" -max_total_time="$secs" -max_len="$max_len" \
      -timeout=20 -rss_limit_mb=2560 -print_final_stats=1 -artifact_prefix="$crashes/$t-" \
      2> >(grep -E '^(#[0-9]+.*DONE|Done|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY|.*(crash|leak|timeout|oom)-)' >&2); then
    failed+=("$t")
  fi
  if [ "${FUZZ_KEEP:-0}" = 1 ]; then
    "build/fuzz/$t" -merge=1 "$seeds" "$work" -max_len="$max_len" >/dev/null 2>&1 || true
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]}; inputs in build/fuzz/crashes/" >&2
  exit 1
fi
echo "fuzz: no findings"
