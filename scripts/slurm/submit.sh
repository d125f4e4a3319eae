#!/usr/bin/env bash
# Submits a memharness config as a Slurm array of SHARDS shards plus a merge
# job that runs once every shard succeeded, and prints both job IDs.
#
#   scripts/slurm/submit.sh CONFIG SHARDS [OUT] [--set key=value ...]
#
# Extra sbatch options go in SBATCH_ARGS (e.g. SBATCH_ARGS="--partition=gpu --time=12:00:00").
# A failed or cancelled shard leaves the merge pending (afterok); re-submit
# the shard with --array=I, then the merge: finished samples are kept.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
config="${1:?usage: submit.sh CONFIG SHARDS [OUT] [--set k=v ...]}"
shards="${2:?usage: submit.sh CONFIG SHARDS [OUT] [--set k=v ...]}"
out="${3:-runs}"
shift $(( $# >= 3 ? 3 : 2 ))
read -ra extra <<<"${SBATCH_ARGS:-}"
array=$(sbatch --parsable "${extra[@]}" --array=0-$((shards - 1)) "$here/bench-array.sbatch" "$config" "$out" "$@")
array="${array%%;*}"
merge=$(sbatch --parsable "${extra[@]}" --dependency=afterok:"$array" "$here/bench-merge.sbatch" "$config" "$out" "$@")
merge="${merge%%;*}"
echo "array $array ($shards shards), merge $merge"
