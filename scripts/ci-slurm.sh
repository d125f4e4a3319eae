#!/usr/bin/env bash
# Runs a sharded memharness job on a real, one-node Slurm cluster on this
# machine: installs Debian's slurm-wlm and munge when missing, starts munged,
# slurmctld and slurmd on localhost with a minimal slurm.conf, submits the
# smoke config as a 4-shard array plus the dependent merge job (through
# scripts/slurm/submit.sh), waits with a bounded timeout, and checks that the
# merged run equals a single-process run byte for byte. Every daemon it
# started is stopped on exit. Skips (exit 0) with a message where the
# packages cannot be installed.
#
# Usage: scripts/ci-slurm.sh [CONFIG] [SHARDS]   (default: configs/smoke.yaml 4)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
config="${1:-configs/smoke.yaml}"
shards="${2:-4}"
start=$SECONDS

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
	sudo=""
	[ "$(id -u)" = 0 ] || sudo="sudo"
	if ! { $sudo apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null; }; then
		echo "ci-slurm: skipped: could not install slurm-wlm and munge (apt-get failed)"
		exit 0
	fi
fi

work="$(mktemp -d)"
chmod 755 "$work"
export SLURM_CONF="$work/slurm.conf"
pids=()
cleanup() {
	scontrol shutdown >/dev/null 2>&1 || true
	sleep 1
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for f in "$work"/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT

# munge: a throwaway key and socket of our own.
mkdir -p "$work/munge"
chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged --force --key-file="$work/munge/munge.key" --socket="$work/munge/munge.socket" \
	--pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" --seed-file="$work/munge/seed"
pids+=("$(cat "$work/munge/munged.pid")")

cpus="$(nproc)"
mem_mb="$(awk '/MemTotal/ {print int($2/1024*0.8)}' /proc/meminfo)"
node="ci-node"
mkdir -p "$work/state" "$work/spool"
cat >"$SLURM_CONF" <<EOF
ClusterName=memharness-ci
SlurmctldHost=localhost(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
NodeName=$node NodeHostname=$(hostname -s) NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=ci Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -c -f "$SLURM_CONF"
slurmd -N "$node" -f "$SLURM_CONF"
for _ in $(seq 60); do
	if sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^idle'; then break; fi
	sleep 1
done
if ! sinfo -h -N -o '%T' | grep -qE '^idle'; then
	echo "ci-slurm: the node did not come up:" >&2
	sinfo -N >&2 || true
	tail -20 "$work/slurmctld.log" "$work/slurmd.log" >&2 || true
	exit 1
fi
echo "ci-slurm: cluster up ($cpus CPUs) after $((SECONDS - start)) s"

go build -o "$work/bench" ./cmd/bench
export BENCH="$work/bench"
out="$work/runs"
name="$(awk '$1 == "name:" {print $2; exit}' "$config")"
ids="$(SBATCH_ARGS="--chdir=$root --output=$work/%x-%A_%a.out" bash scripts/slurm/submit.sh "$config" "$shards" "$out")"
echo "ci-slurm: submitted: $ids"
merge_id="${ids##* }"

deadline=$((SECONDS + 600))
while squeue -h -j "$merge_id" 2>/dev/null | grep -q .; do
	if [ "$SECONDS" -gt "$deadline" ]; then
		echo "ci-slurm: timed out waiting for the jobs" >&2
		squeue >&2 || true
		exit 1
	fi
	sleep 2
done
state="$(scontrol show job "$merge_id" 2>/dev/null | grep -o 'JobState=[A-Z_]*' || true)"
for f in "$work"/*.out; do echo "--- $(basename "$f")"; tail -5 "$f"; done
run_dir="$out/$name"
if [ ! -f "$run_dir/report/index.md" ]; then
	echo "ci-slurm: the merge job ($state) wrote no report" >&2
	exit 1
fi

# The same config in one process, then a byte-for-byte comparison.
"$BENCH" run -c "$config" --out "$work/single" >"$work/single.log" 2>&1
for f in samples.jsonl report/metrics.csv report/table.md; do
	if ! cmp -s "$run_dir/$f" "$work/single/$name/$f"; then
		echo "ci-slurm: $f of the merged Slurm run differs from the single-process run" >&2
		diff <(head -c 2000 "$run_dir/$f") <(head -c 2000 "$work/single/$name/$f") >&2 || true
		exit 1
	fi
done
echo "ci-slurm: $shards shards on Slurm merged equal to one process; passed in $((SECONDS - start)) s"
