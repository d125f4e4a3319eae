#!/usr/bin/env bash
# make perf: see cmd/perf. PERF_REPS sets the repetitions (default 3);
# PERF_QUICK=1 leaves out the slow figures.
set -euo pipefail
cd "$(dirname "$0")/.."
args=(-reps "${PERF_REPS:-3}")
if [ -n "${PERF_QUICK:-}" ]; then args+=(-quick); fi
exec go run ./cmd/perf "${args[@]}"
