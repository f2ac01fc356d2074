#!/usr/bin/env bash
# tests/native/files_test.sh ATTNPLAY — nothing lost: a model file is never half-written (a save
# killed with SIGKILL at random moments leaves the old file or the new one, complete; a write that
# fails leaves the old file and no temporary file), SIGINT/SIGTERM during `train --out` saves the
# last step's weights marked as interrupted and --resume continues them bit for bit, and model
# files are checked (type, size) before they are read. Non-zero exit on any failure.
set -uo pipefail
source "$(dirname "$0")/check.sh" "$@"
sha() { sha256sum "$1" | cut -d' ' -f1; }
# Waits (bounded: 30 s) until the command succeeds; fails with a message naming what it waited for.
wait_for() { # what command...
  local what=$1; shift
  for _ in $(seq 300); do "$@" && return 0; sleep 0.1; done
  echo "   timed out waiting for: $what" >&2
  return 1
}

# --- 1. A save killed with SIGKILL at random moments -------------------------------------------
# A ~38 MB model (4 layers x d_model 256 x ffn 1024, weights and Adam moments): old = 1 step, new = 2.
big=(--set task=copy --set d_model=256 --set heads=4 --set layers=4 --set ffn=1024 --set batch=2 --set seq_len=8 --set eval_every=0 --set eval_batches=1)
"$bin" train "${big[@]}" --set steps=1 --out "$dir/old.safetensors" > /dev/null || { echo "FAIL could not train the old model"; exit 1; }
# Waits (bounded: 60 s) until the save's temporary file (.m.safetensors.tmp-PID-RANDOM, created
# before the first step) holds bytes, or the process ends; returns 1 if not.
# Shell built-ins only (no sleep), so that the moment is seen within a millisecond.
temp_of() { # folder pid
  local end=$((SECONDS + 60)) f
  while :; do
    for f in "$1/.m.safetensors.tmp-$2-"*; do [ -s "$f" ] && return 0; done
    kill -0 "$2" 2>/dev/null && [ $SECONDS -lt $end ] || return 1
  done
}
# Whether a file matches the pattern (a temporary file's name ends in a random part).
exists() { compgen -G "$1" > /dev/null; }
"$bin" train "${big[@]}" --set steps=2 --out "$dir/new.safetensors" > /dev/null || { echo "FAIL could not train the new model"; exit 1; }
mkdir "$dir/k"
old=$(sha "$dir/old.safetensors") new=$(sha "$dir/new.safetensors")
kills=0 olds=0 news=0 bad=0 strays=0
for i in $(seq 30); do
  [ $kills -lt 12 ] || break
  cp "$dir/old.safetensors" "$dir/k/m.safetensors"
  "$bin" train "${big[@]}" --set steps=2 --out "$dir/k/m.safetensors" > /dev/null 2>&1 &
  pid=$!
  # The kill lands while the file is written: 0-59 ms after its temporary file fills (writing
  # and flushing 38 MB takes about 100 ms; the random delay is the test's input, not a wait).
  temp_of "$dir/k" $pid
  sleep "$(printf '0.%03d' $((RANDOM % 60)))"
  kill -KILL $pid 2>/dev/null && kills=$((kills + 1))
  wait $pid 2>/dev/null
  got=$(sha "$dir/k/m.safetensors")
  if [ "$got" = "$old" ]; then olds=$((olds + 1)); elif [ "$got" = "$new" ]; then news=$((news + 1)); else bad=$((bad + 1)); fi
  # Only the recognisable temporary file of the killed process may be left beside it.
  for f in $(ls -A "$dir/k"); do
    case $f in m.safetensors) ;; ".m.safetensors.tmp-$pid-"*) rm -f "$dir/k/$f" ;; *) strays=$((strays + 1)); echo "   stray file $f" >&2 ;; esac
  done
done
echo "   SIGKILL: $kills kills while writing; the target was the old file $olds times, the new one $news times, other $bad times"
check "a save killed by SIGKILL (at least 10 random moments) leaves the old file or the new one, whole" [ $bad -eq 0 -a $kills -ge 10 -a $olds -ge 1 -a $strays -eq 0 ]
check "the file left by the kills loads" bash -c "'$bin' eval --model '$dir/k/m.safetensors' --json | grep -q '\"loss\"'"

# --- 2. A write that fails (file size limit: EFBIG) keeps the old file and leaves no temporary;
# the metrics are still written, and the message says that the weights were not saved -----------
mkdir "$dir/f"
cp "$dir/old.safetensors" "$dir/f/m.safetensors"
printf 'old metrics\n' > "$dir/f/m.csv"
out=$(trap '' XFSZ; ulimit -f 20000; "$bin" train "${big[@]}" --set steps=2 --out "$dir/f/m.safetensors" --metrics "$dir/f/m.csv" 2>&1 >/dev/null); rc=$?
check "a failed write (file too large) is a one-line error naming the file" bash -c "[ $rc -ne 0 ] && [ $rc -lt 128 ] && [ \$(printf '%s\n' \"\$1\" | wc -l) -eq 1 ] && printf '%s' \"\$1\" | grep -q \"cannot write model file '$dir/f/m.safetensors'\"" _ "$out"
check "... and says the weights were not saved and where the metrics went" bash -c "printf '%s' \"\$1\" | grep -qF \"the weights were not saved; the metrics were written to '$dir/f/m.csv'\"" _ "$out"
check "... and the old model stays, the metrics are the run's, with no temporary file" bash -c "[ \$(sha256sum < '$dir/f/m.safetensors' | cut -d' ' -f1) = $old ] && [ \$(wc -l < '$dir/f/m.csv') -eq 3 ] && [ \$(ls -A '$dir/f' | wc -l) -eq 2 ]"

# --- 3. SIGINT / SIGTERM during train --out: saved, marked, resumed bit for bit -----------------
small=(--set task=copy --set d_model=32 --set heads=2 --set layers=2 --set ffn=64 --set seq_len=12 --set eval_every=50 --set dropout=0.1 --set schedule=cosine --set steps=3000)
"$bin" train "${small[@]}" --out "$dir/full.safetensors" --metrics "$dir/full.csv" > /dev/null || { echo "FAIL the uninterrupted run"; exit 1; }
for sig in INT TERM; do
  f=$dir/int-$sig.safetensors
  "$bin" train "${small[@]}" --out "$f" --metrics "$dir/int-$sig.csv" > /dev/null 2> "$dir/int-$sig.err" &
  pid=$!
  # Training has begun when its metrics' temporary file exists; the signal comes 100-400 ms later.
  wait_for "run SIG$sig to start training" exists "$dir/.int-$sig.csv.tmp-$pid-*"
  sleep "0.$((100 + RANDOM % 300))"
  kill -$sig $pid
  wait $pid; rc=$?
  want=$((128 + $(kill -l $sig)))
  check "SIG$sig: train exits $want and says where the weights went" bash -c "[ $rc -eq $want ] && grep -q 'interrupted by SIG$sig after step' '$dir/int-$sig.err' && grep -q -- '--resume $f' '$dir/int-$sig.err'"
  echo "   SIG$sig: interrupted at step $("$bin" eval --model "$f" --json | sed 's/.*"step":\([0-9]*\).*/\1/') of 3000"
  check "SIG$sig: the file holds fewer steps, marked as interrupted in its metadata" bash -c "'$bin' eval --model '$f' --json | grep -q '\"stopped\":\"interrupted by SIG$sig after step' && ! cmp -s '$f' '$dir/full.safetensors'"
  "$bin" train --resume "$f" --out "$f" --metrics "$dir/int-$sig.csv" > /dev/null
  check "SIG$sig: --resume ends with the same file as the uninterrupted run, byte for byte" [ "$(sha "$f")" = "$(sha "$dir/full.safetensors")" ]
  check "SIG$sig: ... and the same metrics (all but the timing column)" bash -c "cmp -s <(cut -d, -f1-7,9- '$dir/full.csv') <(cut -d, -f1-7,9- '$dir/int-$sig.csv')"
done
# A second Ctrl-C ends the process at once; the file is then the old one or the new one, whole.
cp "$dir/old.safetensors" "$dir/twice.safetensors"
"$bin" train "${big[@]}" --set steps=50 --out "$dir/twice.safetensors" --metrics "$dir/twice.csv" > /dev/null 2>&1 &
pid=$!
wait_for "the run to start training" exists "$dir/.twice.csv.tmp-$pid-*"
# (the second from another process: the same signal from the same sender at once is an echo, below)
kill -INT $pid; bash -c "kill -INT $pid"
wait $pid; rc=$?
check "two SIGINTs: exit 130 at once, and the file is the old one or loads" bash -c "[ $rc -eq 130 ] && { [ \$(sha256sum < '$dir/twice.safetensors' | cut -d' ' -f1) = $old ] || '$bin' eval --model '$dir/twice.safetensors' > /dev/null; }"
# GNU timeout sends SIGTERM to the command and then to its process group: one stop, not two. The
# run saves as after one SIGTERM (timeout's own exit code, 124), marked as interrupted.
timeout -s TERM 3 "$bin" train "${small[@]}" --set steps=1000000 --out "$dir/timeout.safetensors" > /dev/null 2> "$dir/timeout.err"; rc=$?
check "under timeout -s TERM (the signal sent twice at once): saved and marked, not ended unsaved" bash -c "[ $rc -eq 124 ] && grep -q 'interrupted by SIGTERM after step' '$dir/timeout.err' && '$bin' eval --model '$dir/timeout.safetensors' --json | grep -q '\"stopped\":\"interrupted by SIGTERM after step'"

# --- 4. Model files are checked before they are read ---------------------------------------------
truncate -s 1G "$dir/sparse.safetensors"
refused() { # option-text expected-text command...: refused at once (under 5 s), one line naming both
  local opt=$1 want=$2 out rc; shift 2
  out=$(timeout 5 "$@" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 124 ] && { echo "   not refused within 5 s: $*" >&2; return 1; }
  [ $rc -ne 0 ] && [ $rc -lt 128 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
    printf '%s' "$out" | grep -qF -- "$opt" && printf '%s' "$out" | grep -qF -- "$want"
}
check "eval --model /dev/zero is refused at once, naming the option" refused "--model '/dev/zero'" "not a regular file" "$bin" eval --model /dev/zero
check "train --resume /dev/zero is refused at once, naming the option" refused "--resume '/dev/zero'" "not a regular file" "$bin" train --resume /dev/zero
check "a sparse 1 GiB --model is refused at once, naming the size limit" refused "--model '$dir/sparse.safetensors'" "above the limit of 268435456 bytes" "$bin" heads --model "$dir/sparse.safetensors"
check "a sparse 1 GiB --resume is refused at once" refused "--resume '$dir/sparse.safetensors'" "above the limit" "$bin" train --resume "$dir/sparse.safetensors"
# What train can write, every loader reads: a model above the limit is refused before training.
check "8 layers x d_model 512 x ffn 2048 is refused in validation, naming the fields and the limit" \
  refused "d_model=512, layers=8, ffn=2048" "256 MiB" "$bin" train --set d_model=512 --set heads=8 --set layers=8 --set ffn=2048 --out "$dir/huge.safetensors"
check "... and nothing was written" [ ! -e "$dir/huge.safetensors" ]

echo "files: $passes passed, $fails failed"
[ $fails -eq 0 ]
