#!/usr/bin/env bash
# tests/native/outputs_test.sh ATTNPLAY — train's outputs on a shared machine: --out and
# --metrics are checked (their temporary files created) before the first step, so that a folder,
# a missing folder, a name too long or a pipe nobody reads is refused at once, not after the
# training; --out and --metrics naming one file are refused; a model that cannot be written at
# the end still leaves the metrics, and the message says the weights were not saved; a rewritten
# file keeps its owner and mode; another user's symbolic link in a sticky, world-writable folder
# is refused; --set-file refuses what --text-file refuses, with the same sentences, and drops
# the file's last line break. Non-zero exit on any failure.
set -uo pipefail
source "$(dirname "$0")/check.sh" "$@"
bin=$(realpath "$bin")  # the checks run in the temporary folder
cd "$dir" || exit 1
tiny=(--set task=copy --set d_model=16 --set heads=2 --set layers=1 --set ffn=32 --set seq_len=8 --set batch=4 --set eval_every=0 --set eval_batches=1)
long=("${tiny[@]}" --set steps=10000000)  # would train for hours: a refusal must come first

# Refused at once (under 20 s, exit 2, one line) with a message holding every given text.
refused() { # command... -- text...
  local args=() out rc t
  while [ "$1" != -- ]; do args+=("$1"); shift; done
  shift
  out=$(timeout -k 5 20 "${args[@]}" 2>&1 >/dev/null); rc=$?  # -k: the old code blocked on a FIFO after SIGTERM
  [ $rc -eq 124 ] && { echo "   not refused within 20 s: ${args[*]}" >&2; return 1; }
  [ $rc -ne 2 ] && { echo "   exit $rc: $out" >&2; return 1; }
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || { echo "   not one line: $out" >&2; return 1; }
  for t in "$@"; do
    case $out in *"$t"*) ;; *) echo "   '$t' missing from: $out" >&2; return 1 ;; esac
  done
}

# --- 1. --out and --metrics checked before the first step ------------------------------------
mkdir folder
check "--out a folder is refused before training" refused "$bin" train "${long[@]}" --out folder -- "cannot write model file 'folder': it is a folder"
check "--out in a missing folder is refused before training" refused "$bin" train "${long[@]}" --out no/m.safetensors -- "'no/m.safetensors': its folder does not exist"
name=$(printf 'm%.0s' $(seq 255))
check "--out with a 255-byte name (its temporary name too long) is refused before training" refused "$bin" train "${long[@]}" --out "$name" -- "its name is too long for the temporary file" "give a shorter name"
mkfifo pipe
check "--out a named pipe that no program reads is refused before training" refused "$bin" train "${long[@]}" --out pipe -- "'pipe': it is a named pipe (FIFO) that no program reads"
# A folder this user cannot write in: a read-only one (non-root), or /sys for root (sysfs creates no files).
mkdir ro && chmod 555 ro
if touch ro/t 2>/dev/null; then rm -f ro/t; ro=/sys; touch /sys/t 2>/dev/null && ro=""; else ro=ro; fi
if [ -n "$ro" ]; then
  check "--out in a folder that cannot be written is refused before training" refused "$bin" train "${long[@]}" --out "$ro/m.safetensors" -- "cannot write model file '$ro/m.safetensors'" "a temporary file cannot be created in its folder '$ro'"
else
  echo "   (skipped the unwritable folder check: no such folder here)"
fi
chmod 755 ro && rmdir ro
check "--metrics a folder is refused before training" refused "$bin" train "${long[@]}" --metrics folder -- "cannot write metrics file 'folder': it is a folder"
check "... and nothing was left in the folder" [ "$(ls -A)" = "$(printf 'folder\npipe\n')" ]

# --- 2. --out and --metrics naming one file --------------------------------------------------
mkdir sub
check "--out X --metrics X is refused before training, naming both flags" refused "$bin" train "${long[@]}" --out sub/x --metrics sub/x -- "--out 'sub/x' and --metrics 'sub/x' name the same file"
check "... also spelled differently (sub/./x, sub/../sub/x)" refused "$bin" train "${long[@]}" --out sub/./x --metrics sub/../sub/x -- "--out 'sub/./x' and --metrics 'sub/../sub/x' name the same file"
touch sub/y && ln -s sub/y ylink
check "... also through a symbolic link to an existing file" refused "$bin" train "${long[@]}" --out ylink --metrics "$dir/sub/y" -- "name the same file"
check "--out /dev/null --metrics /dev/null still trains (devices are written in place)" "$bin" train "${tiny[@]}" --set steps=2 --out /dev/null --metrics /dev/null

# --- 3. A model that cannot be written at the end: the metrics are still written ---------------
mkdir fail
out=$(trap '' XFSZ; ulimit -f 4; "$bin" train "${tiny[@]}" --set steps=3 --out fail/m.safetensors --metrics fail/m.csv 2>&1 >/dev/null); rc=$?
check "a model too large to write (EFBIG): exit 2, one line naming the file" bash -c '[ $1 -eq 2 ] && [ $(printf "%s\n" "$2" | wc -l) -eq 1 ] && case $2 in *"cannot write model file '"'"'fail/m.safetensors'"'"': File too large; the weights were not saved; the metrics were written to '"'"'fail/m.csv'"'"'"*) ;; *) false ;; esac' _ $rc "$out"
check "... the metrics hold the run's rows, and no temporary file is left" bash -c '[ $(wc -l < fail/m.csv) -eq 4 ] && [ "$(ls -A fail)" = m.csv ]'

# --- 4. A rewritten file keeps its owner and mode (hard links split) ---------------------------
printf 'old\n' > kept.csv
chmod 640 kept.csv
root=$([ "$(id -u)" -eq 0 ] && echo 1 || echo 0)
[ $root -eq 1 ] && chown 65534:65534 kept.csv
ln kept.csv hard.csv
"$bin" train "${tiny[@]}" --set steps=2 --metrics kept.csv > /dev/null
want=$([ $root -eq 1 ] && echo "65534:65534 640" || echo "$(id -u):$(id -g) 640")
check "--metrics over an existing file keeps its owner and mode ($want)" [ "$(stat -c '%u:%g %a' kept.csv)" = "$want" ]
check "... and a hard link to it keeps the old contents" bash -c '[ "$(cat hard.csv)" = old ] && [ $(wc -l < kept.csv) -eq 3 ]'

# --- 5. Another user's symbolic link in a sticky, world-writable folder ----------------------
if [ $root -eq 1 ]; then
  mkdir shared && chmod 1777 shared
  printf 'theirs\n' > target.csv
  ln -s ../target.csv shared/link.csv && chown -h 65534:65534 shared/link.csv
  check "another user's link in a sticky, world-writable folder is refused before training" refused "$bin" train "${long[@]}" --metrics shared/link.csv -- "cannot write metrics file 'shared/link.csv'" "symbolic link owned by another user (uid 65534)" "fs.protected_symlinks"
  check "... and its target is untouched" [ "$(cat target.csv)" = theirs ]
  chown -h 0:0 shared/link.csv
  check "the user's own link there is written through" bash -c "'$bin' train ${tiny[*]} --set steps=2 --metrics shared/link.csv > /dev/null && [ -L shared/link.csv ] && [ \$(wc -l < target.csv) -eq 3 ]"
else
  echo "   (skipped the symbolic link checks: they need root to give a link to another user)"
fi

# --- 6. --set-file refuses what --text-file refuses; one line break dropped ------------------
: > empty.txt
for flag in --text-file --set-file; do
  arg() { [ $flag = --set-file ] && echo "text=$1" || echo "$1"; }
  check "$flag a folder is refused, naming the flag" refused "$bin" train --set task=text $flag "$(arg folder)" -- "$flag 'folder' is a folder; give a text file"
  check "$flag /dev/zero is refused at once" refused "$bin" train --set task=text $flag "$(arg /dev/zero)" -- "$flag '/dev/zero' is not a regular file (a device or a pipe); give a text file"
  check "$flag an empty file is refused" refused "$bin" train --set task=text $flag "$(arg empty.txt)" -- "$flag 'empty.txt' is empty"
done
check "--set-file reads a /proc file (its size says 0) to its end, without its line break" refused "$bin" train "${long[@]}" --set-file task=/proc/sys/kernel/ostype -- "'Linux'"
printf '0.0005\n' > lr.txt
out=$("$bin" train "${tiny[@]}" --set steps=1 --set-file lr=lr.txt --json 2>&1)
check "--set-file lr=FILE with '0.0005\\n' trains with lr 0.0005" bash -c 'case $1 in *"\"lr\":0.0005"*) ;; *) echo "   $1" >&2; false ;; esac' _ "$out"

echo "outputs: $passes passed, $fails failed"
[ $fails -eq 0 ]
