#!/usr/bin/env bash
# tests/native/cli_test.sh ATTNPLAY — the command-line tool end to end: list, train (--json,
# --out, --metrics), eval, grads, sample, sweep, and one-line errors with a non-zero exit.
set -uo pipefail
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
check() { # description command...
  local what=$1; shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; fails=$((fails + 1)); fi
}

check "list --json names every family" bash -c "'$bin' list --json | grep -q '\"positions\"'"
check "train copy (--json, --out, --metrics)" bash -c "'$bin' train --set task=copy --set steps=300 --set seq_len=12 --json --out '$dir/copy.safetensors' --metrics '$dir/m.csv' > '$dir/train.json'"
check "train --json has the promised keys" bash -c "tail -n 1 '$dir/train.json' | grep -q weights_sha256 && tail -n 1 '$dir/train.json' | grep -q tokens_per_s && tail -n 1 '$dir/train.json' | grep -q eval_accuracy"
check "metrics CSV has a row per step" bash -c "[ \$(wc -l < '$dir/m.csv') -eq 301 ]"
check "eval of the saved model" bash -c "'$bin' eval --model '$dir/copy.safetensors' --json | grep -q token_accuracy"
check "the same seed gives the same weights" bash -c "'$bin' train --set task=copy --set steps=300 --set seq_len=12 --json | tail -n 1 | grep -q \$(tail -n 1 '$dir/train.json' | sed 's/.*weights_sha256\":\"\\([0-9a-f]*\\).*/\\1/')"
echo '{"inputs": [[1,2,3,4,5,6,10,10,10,10,10,10]], "targets": [[0,0,0,0,0,0,1,2,3,4,5,6]], "mask": [[0,0,0,0,0,0,1,1,1,1,1,1]]}' > "$dir/batch.json"
check "grads writes a safetensors file" bash -c "'$bin' grads --model '$dir/copy.safetensors' --batch '$dir/batch.json' --out '$dir/g.safetensors' && [ -s '$dir/g.safetensors' ]"
check "train a text model and sample from it" bash -c "'$bin' train --set task=text --set steps=30 --set seq_len=16 --out '$dir/text.safetensors' > /dev/null && '$bin' sample --model '$dir/text.safetensors' --prompt 'The ' --tokens 12 --seed 3 > '$dir/s1' && [ -s '$dir/s1' ]"
check "sampling is seeded" bash -c "'$bin' sample --model '$dir/text.safetensors' --prompt 'The ' --tokens 12 --seed 3 | cmp -s - '$dir/s1'"
check "sweep runs a grid into a CSV" bash -c "'$bin' sweep --set task=probe --set steps=20 --grid 'position=none,learned seed=1,2' --out '$dir/sweep.csv' --jobs 2 > /dev/null && [ \$(wc -l < '$dir/sweep.csv') -eq 5 ]"
for bad in "train --set heads=3" "train --set position=wat" "train --set bogus=1" "eval --model /nonexistent" "train --set lr=fast"; do
  check "bad arguments '$bad' exit non-zero with one line" bash -c "out=\$('$bin' $bad 2>&1 >/dev/null); rc=\$?; [ \$rc -ne 0 ] && [ \$(printf '%s\n' \"\$out\" | wc -l) -le 2 ] && ! printf '%s' \"\$out\" | grep -qi 'terminate\\|abort\\|core dumped'"
done
echo "cli: $((15 - fails)) passed, $fails failed"
[ $fails -eq 0 ]
