#!/usr/bin/env bash
# tests/native/sweep_signal_test.sh ATTNPLAY — `attnplay sweep` stopped by a signal (docs/sweeps.md):
# (1) SIGINT to the sweep's process group, as a terminal's Ctrl-C, after its first run finished:
# exit 130, --out and --summary hold the finished rows (at least one, fewer than all), stderr
# names the kept rows' folder, and no process of the sweep's session (no `train`) is left;
# (2) SIGTERM to the sweep alone (as a service manager sends it): exit 143, the same; and under
# `timeout -s TERM`: timeout's 124, the sweep says it stopped, nothing left running;
# (3) a second SIGINT while a run cannot answer the first (stopped with SIGSTOP): the sweep kills
# it and ends at once, 130, still naming the rows' folder. (timeout's own double send, to the
# sweep and then to its group, counts once: (2b) checks that it stops, not ends at once.) Every wait is a bounded poll (60 s),
# for a busy 2-core machine.
set -uo pipefail
bin=$(realpath "$1")  # the test works in a folder of its own
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fails=0 passes=0
check() { # description command...
  local what=$1; shift
  if "$@"; then echo "ok   $what"; passes=$((passes + 1)); else echo "FAIL $what"; fails=$((fails + 1)); fi
}
# 4 runs of ~1-5 s each, one at a time
sweep=(sweep --grid "position=none,learned" --seeds 2 --set task=copy --set steps=1500 --set d_model=16
       --set ffn=32 --set layers=1 --set batch=8 --set eval_batches=2 --jobs 1)

# waits (at most 60 s) until file $1 has a line matching $2
wait_for() {
  local i
  for ((i = 0; i < 600; i++)); do
    grep -Eq -- "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "  (60 s without '$2' in $1)"; return 1
}
# waits (at most 60 s) until process $1 has ended; its exit code in $code
wait_exit() {
  local i
  for ((i = 0; i < 600; i++)); do
    kill -0 "$1" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$1" 2>/dev/null; then echo "  (still running after 60 s)"; kill -KILL -- "-$1" 2>/dev/null; fi
  wait "$1"; code=$?
}
# no process left in session $1 (the sweep's setsid) within $2 tenths of a second: the sweep waits
# for its runs (a few tenths for a killed run to go)
session_empty() {
  local i left
  for ((i = 0; i < $2; i++)); do
    left=$(ps -s "$1" -o pid=,args= 2>/dev/null)
    [ -z "$left" ] && return 0
    sleep 0.1
  done
  echo "  left running: $left"; kill -KILL -- "-$1" 2>/dev/null; return 1
}
rows_of() { [ -f "$1" ] && echo $(($(wc -l < "$1") - 1)) || echo 0; }
folder_of() { grep -Eo '/tmp/attnplay-sweep-[A-Za-z0-9]+' "$1" | tail -n 1; }
partial() { # csv err: 1 <= rows < 4, the summary written, the folder named and kept with those rows
  local n f
  n=$(rows_of "$1"); f=$(folder_of "$2")
  [ "$n" -ge 1 ] && [ "$n" -lt 4 ] || { echo "  $n rows in $1"; return 1; }
  [ "$(rows_of "${1%.csv}.summary.csv")" -ge 1 ] || { echo "  no summary"; return 1; }
  [ -n "$f" ] && [ -d "$f" ] || { echo "  no kept folder named"; return 1; }
  [ "$(ls "$f"/run-*.csv | wc -l)" -ge "$n" ] || return 1
  grep -Eq "$n of 4 runs finished" "$2" || { echo "  stderr does not count $n of 4"; return 1; }
}

# (1) SIGINT to the process group, after the first run is done
setsid "$bin" "${sweep[@]}" --out int.csv --summary int.summary.csv >int.out 2>int.err &
pid=$!
check "SIGINT: a first run finishes" wait_for int.err 'run [0-9]/4 done'
kill -INT -- "-$pid"
wait_exit "$pid"
check "SIGINT: exit code 130 (got $code)" test "$code" = 130
check "SIGINT: --out and --summary hold the finished rows (>= 1, < 4); stderr names the kept folder" partial int.csv int.err
check "SIGINT: no train left running" session_empty "$pid" 20
f=$(folder_of int.err); [ -n "$f" ] && rm -rf "$f"

# (2) SIGTERM to the sweep alone
setsid "$bin" "${sweep[@]}" --out term.csv --summary term.summary.csv >term.out 2>term.err &
pid=$!
check "SIGTERM: a first run finishes" wait_for term.err 'run [0-9]/4 done'
kill -TERM "$pid"
wait_exit "$pid"
check "SIGTERM: exit code 143 (got $code)" test "$code" = 143
check "SIGTERM: --out and --summary hold the finished rows; stderr names the kept folder" partial term.csv term.err
check "SIGTERM: no train left running" session_empty "$pid" 20
f=$(folder_of term.err); [ -n "$f" ] && rm -rf "$f"

# (2b) timeout -s TERM: timeout's own code (124) when it fired; the sweep stopped, nothing left
# (runs long enough that the timeout comes first: the last --set steps wins)
setsid timeout -s TERM 3 "$bin" "${sweep[@]}" --set steps=200000 --out tmo.csv >tmo.out 2>tmo.err &
pid=$!
wait_exit "$pid"
check "timeout -s TERM: exit code 124 (got $code)" test "$code" = 124
check "timeout -s TERM: the sweep says it stopped and where the rows are" \
  grep -Eq 'stopped by SIGTERM: [0-9] of 4 runs finished.*/tmp/attnplay-sweep-' tmo.err
check "timeout -s TERM: no train left running" session_empty "$pid" 20
f=$(folder_of tmo.err); [ -n "$f" ] && rm -rf "$f"

# (3) a second SIGINT ends at once, the run that did not answer the first one killed
setsid "$bin" "${sweep[@]}" --out twice.csv >twice.out 2>twice.err &
pid=$!
check "twice: a first run finishes" wait_for twice.err 'run [0-9]/4 done'
train=""
for ((i = 0; i < 600; i++)); do
  procs=$(ps -s "$pid" -o pid=,args=)
  train=$(awk '$3 == "train" { print $1; exit }' <<<"$procs")
  [ -n "$train" ] && break
  sleep 0.1
done
check "twice: the next run is running" test -n "$train"
[ -n "$train" ] && kill -STOP "$train"
kill -INT -- "-$pid"
check "twice: the sweep passed the first SIGINT on" wait_for twice.err 'no new run starts'
t0=$(date +%s)
env kill -INT -- "-$pid"  # another sender than the first (a repeat from the same one at once is ignored)
wait_exit "$pid"
check "twice: exit code 130 (got $code) within 10 s" test "$code" = 130 -a $(($(date +%s) - t0)) -le 10
check "twice: stderr still names the rows' folder" grep -Eq 'second signal.*/tmp/attnplay-sweep-' twice.err
check "twice: the stopped run was killed, nothing left" session_empty "$pid" 100
f=$(folder_of twice.err); [ -n "$f" ] && rm -rf "$f"

echo "sweep_signal: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
