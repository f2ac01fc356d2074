# tests/native/check.sh — sourced by the CLI's shell tests (cli_test.sh, files_test.sh,
# input_test.sh): `bin` (the attnplay binary, $1), a temporary `dir` removed at exit, and
# check DESCRIPTION COMMAND... which prints ok/FAIL and counts `passes` and `fails`.
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0 passes=0
check() { # description command...
  local what=$1; shift
  if "$@"; then echo "ok   $what"; passes=$((passes + 1)); else echo "FAIL $what"; fails=$((fails + 1)); fi
}
