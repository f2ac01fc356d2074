#!/usr/bin/env bash
# build-scripts/format.sh [--check] — `npm run format`: clang-format (Debian's, style in
# build-scripts/format/clang-format.yaml) on the C++ of core/, tests/ and the bench, and Prettier
# (pinned in package.json, build-scripts/format/prettier.json) on the JavaScript of web/, tests/ and
# build-scripts/. --check (run by `npm test`) changes nothing and exits 1 naming the files that
# differ from their formatted text.
set -uo pipefail
cd "$(dirname "$0")/.."
check=0; [ "${1:-}" = --check ] && check=1
command -v clang-format >/dev/null 2>&1 || { echo "format: clang-format is missing (npm run setup)" >&2; exit 1; }
mapfile -t cpp < <(find core tests/native tests/fuzz build-scripts/bench -name '*.cpp' -o -name '*.hpp' | sort)
js=(web tests build-scripts)
prettier=(node node_modules/prettier/bin/prettier.cjs --config build-scripts/format/prettier.json
          --ignore-path build-scripts/format/prettierignore)
if [ $check = 1 ]; then
  rc=0
  bad=$(for f in "${cpp[@]}"; do clang-format --style=file:build-scripts/format/clang-format.yaml "$f" | cmp -s - "$f" || echo "$f"; done)
  if [ -n "$bad" ]; then echo "format: clang-format would change:"; sed 's/^/  /' <<<"$bad"; rc=1; fi
  # (not a pipeline's status: under pipefail, Prettier's own exit code 1 would hide the finding)
  differ=$("${prettier[@]}" --list-different "${js[@]}")
  if [ -n "$differ" ]; then sed 's/^/format: Prettier would change: /' <<<"$differ"; rc=1; fi
  [ $rc = 0 ] && echo "format: ${#cpp[@]} C++ files and the JavaScript are formatted" || echo "format: run npm run format"
  exit $rc
fi
clang-format -i --style=file:build-scripts/format/clang-format.yaml "${cpp[@]}"
"${prettier[@]}" --write "${js[@]}" >/dev/null
echo "format: formatted ${#cpp[@]} C++ files and the JavaScript"
