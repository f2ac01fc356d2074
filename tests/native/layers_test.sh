#!/usr/bin/env bash
# tests/native/layers_test.sh — the layering check (build-scripts/check-layers.sh) passes on the
# real core/ and fails, naming the include, on each forbidden edge the layout names: an axis
# into the model, one axis into the other, the model into the tasks, a layer below session/ into
# it, session/ into its users. Run by ctest.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
check="$here/../../build-scripts/check-layers.sh"
fail=0
bash "$check" "$here/../../core" || { echo "FAIL: core/ breaks its layering"; fail=1; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
expect_refused() { # from-folder include-line
  rm -rf "$tmp/core"; mkdir -p "$tmp/core/$1"
  printf '#include <vector>\n%s\n' "$2" > "$tmp/core/$1/x.cpp"
  local out; out=$(bash "$check" "$tmp/core" 2>&1)
  if [ $? -eq 1 ] && grep -q "$1/x.cpp" <<<"$out"; then echo "ok: $1/ refused $2"
  else echo "FAIL: $1/ with $2 was not refused: $out"; fail=1; fi
}
expect_refused position '#include "model/config.hpp"'
expect_refused normalization '#include "position/position.hpp"'
expect_refused position '#include "normalization/normalization.hpp"'
expect_refused model '#include "tasks/task.hpp"'
expect_refused normalization '#include "config/config.hpp"'
expect_refused common '#include "session/session.hpp"'
expect_refused model '#include "session/replay.hpp"'
expect_refused torch '#include "session/session.hpp"'
expect_refused session '#include "cli/files.hpp"'
exit $fail
