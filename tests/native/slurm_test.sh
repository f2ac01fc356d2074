#!/usr/bin/env bash
# tests/native/slurm_test.sh ATTNPLAY — the Slurm path for real (docs/sweeps.md): a single-node
# Slurm on this machine (munged, slurmctld and slurmd from Debian's packages, started here in a
# temporary folder with their own ports and config, stopped on exit), `sbatch --wait` on the
# array job that `attnplay sweep --emit slurm` writes, then `attnplay merge`: the merged CSV equals
# the in-process sweep's on every column but the timing ones (weights_sha256 included).
# Skips (exit 77) when not root or when the Slurm packages are missing (setup.sh installs them).
set -uo pipefail
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
for c in munged slurmctld slurmd sbatch sinfo; do
  command -v "$c" >/dev/null || { echo "slurm: $c is missing (bash build-scripts/setup.sh installs it): skipped"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "slurm: slurmd must run as root here: skipped"; exit 77; }
dir=$(mktemp -d)
stop() { # stop the daemons and wait for them to go (slurmctld saves its state first), then clean up
  local pids=()
  for f in slurmd slurmctld munge/munged; do [ -f "$dir/$f.pid" ] && pids+=("$(cat "$dir/$f.pid")"); done
  [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
  for _ in $(seq 100); do kill -0 "${pids[@]}" 2>/dev/null || break; sleep 0.1; done
  kill -9 "${pids[@]}" 2>/dev/null
  rm -rf "$dir"
}
trap stop EXIT
cd "$dir" || exit 1
mkdir -p state spool log munge && chmod 700 munge
head -c 1024 /dev/urandom > munge/munge.key && chmod 400 munge/munge.key
munged --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" --pid-file="$dir/munge/munged.pid" \
  --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/seed" -f || { echo "FAIL munged did not start"; exit 1; }
host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
cat > slurm.conf <<CONF
ClusterName=attnplaytest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPort=$port
SlurmdPort=$((port + 1))
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF" && slurmd -f "$SLURM_CONF" || { echo "FAIL the Slurm daemons did not start"; cat log/*.log; exit 1; }
for _ in $(seq 60); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 0.5; done
sinfo -h -o %T | grep -q idle || { echo "FAIL the node never became idle: $(sinfo 2>&1)"; cat log/*.log; exit 1; }
echo "ok   a single-node Slurm is up ($host, port $port)"

tiny=(--set task=copy --set steps=4 --set d_model=16 --set ffn=32 --set layers=1 --set batch=8 --set eval_batches=2)
grid=(--grid "position=learned,rope" --seeds 2)
"$bin" sweep "${tiny[@]}" "${grid[@]}" --out inproc.csv --jobs 2 >/dev/null 2>&1 || { echo "FAIL the in-process sweep"; exit 1; }
job="$dir/job dir %A 50% 'q\"uo \$(touch smuggled) \`touch smuggled2\` #c"
"$bin" sweep "${tiny[@]}" "${grid[@]}" --emit slurm "$job" >/dev/null || { echo "FAIL --emit slurm"; exit 1; }
jobid=$(timeout 180 sbatch --wait --parsable "$job/sweep.sbatch") || { echo "FAIL sbatch --wait: exit $?"; cat "$job"/logs/* log/*.log 2>/dev/null | tail -30; exit 1; }
echo "ok   sbatch --wait ran the array job ($(find "$job/rows" -name 'run-*.csv' | wc -l) rows)"
for k in 0 1 2 3; do
  [ -f "$job/logs/${jobid}_$k.out" ] || { echo "FAIL no log $job/logs/${jobid}_$k.out: $(ls "$job/logs")"; exit 1; }
done
echo "ok   each task logged to its own file in the folder (%A_%a expanded, the folder's % kept)"
[ -z "$(find "$dir" -name 'smuggled*')" ] || { echo "FAIL something in the folder's name ran"; exit 1; }
echo "ok   nothing in the folder's name ran"
"$bin" merge slurm.csv "$job"/rows/run-*.csv >/dev/null || { echo "FAIL merge"; exit 1; }
node "$here/csv_compare.mjs" inproc.csv slurm.csv '^(steps_per_s|train_tokens_per_s|infer_tokens_per_s)' || { echo "FAIL merged (Slurm) differs from in-process"; exit 1; }
echo "ok   merged (Slurm) = in-process, but for timing"
