#!/usr/bin/env bash
# make perf: runs the Go benchmarks behind memharness's performance targets
# and prints each figure against its target and against a baseline measured
# in the same run (so the ratios mean something on any machine).
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT="${PERF_COUNT:-3}"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT

run() { # pkg regex benchtime
	go test -run '^$' -bench "$2" -benchtime "$3" -count "$COUNT" "$1" | tee -a "$tmp/raw.txt" | grep -E '^Benchmark' >>"$tmp/bench.txt" || true
}
echo "running benchmarks (count=$COUNT)..." >&2
run ./datasets/movielens 'ParseRatings1M(Naive)?$' 3x
run ./llm 'LiveCall(RawHTTP)?$' 3000x
run ./llm/cache 'Cache(Hit|Key)$' 20000x
run ./llm 'Throughput50ms(RawHTTP)?$' 2x
run ./datasets/synth 'GenerateOmniBehavior$' 3x

# median of a metric (column whose unit is $2) for benchmark $1
med() {
	awk -v name="$1" -v unit="$2" '
		{ split($1, a, "-"); if (a[1] != name) next
		  for (i = 2; i < NF; i++) if ($(i+1) == unit) v[n++] = $i }
		END { if (n == 0) { print "NaN"; exit }
		      for (i = 1; i < n; i++) for (j = i; j > 0 && v[j-1] > v[j]; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
		      print (n % 2) ? v[(n-1)/2] : (v[n/2-1] + v[n/2]) / 2 }' "$tmp/bench.txt"
}

parse=$(med BenchmarkParseRatings1M ns/op);      parse0=$(med BenchmarkParseRatings1MNaive ns/op)
live=$(med BenchmarkLiveCall cpu-ns/call);       live0=$(med BenchmarkLiveCallRawHTTP cpu-ns/call)
hit=$(med BenchmarkCacheHit ns/op);              hit0=$(med BenchmarkCacheKey ns/op)
frac=$(med BenchmarkThroughput50ms ideal-fraction); frac0=$(med BenchmarkThroughput50msRawHTTP ideal-fraction)
rps=$(med BenchmarkThroughput50ms req/s)
gen=$(med BenchmarkGenerateOmniBehavior ns/op)

awk -v parse="$parse" -v parse0="$parse0" -v live="$live" -v live0="$live0" -v hit="$hit" -v hit0="$hit0" \
    -v frac="$frac" -v frac0="$frac0" -v rps="$rps" -v gen="$gen" 'BEGIN {
	fmt = "%-44s %14s %12s %-34s %s\n"
	printf fmt, "figure (median of runs)", "measured", "target", "same-run baseline", "verdict"
	line("parse 1,000,000-line ratings.dat", sprintf("%.3f s", parse/1e9), "<= 1 s", \
	     sprintf("naive split+strconv %.3f s (x%.1f faster)", parse0/1e9, parse0/parse), parse/1e9 <= 1)
	line("harness CPU per live call (incl. fake server)", sprintf("%.3f ms", live/1e6), "<= 0.2 ms", \
	     sprintf("bare net/http %.3f ms (stack adds %.3f)", live0/1e6, (live-live0)/1e6), live/1e6 <= 0.2)
	line("cost per cache hit", sprintf("%.1f us", hit/1e3), "<= 50 us", \
	     sprintf("key alone %.1f us (lookup x%.1f)", hit0/1e3, hit/hit0), hit/1e3 <= 50)
	line("req/s vs ideal 640/s (50 ms server, conc. 32)", sprintf("%.3f (%.0f/s)", frac, rps), ">= 0.8", \
	     sprintf("bare net/http %.3f", frac0), frac >= 0.8)
	line("generate the default synthetic OmniBehavior", sprintf("%.3f s", gen/1e9), "<= 2 s", "-", gen/1e9 <= 2)
	exit (fails > 0)
	}
	function line(name, got, target, base, ok) { printf fmt, name, got, target, base, ok ? "ok" : "MISSED"; if (!ok) fails++ }'
