package movielens_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/movielens"
	"github.com/memharness/memharness/datasets/synth"
)

// BenchmarkParseRatings1M parses one million ratings.dat lines held in
// memory (the real file has 1,000,209); the budget is 1 s on 2 cores.
func BenchmarkParseRatings1M(b *testing.B) {
	var buf bytes.Buffer
	if err := synth.WriteRatingsLines(&buf, 1_000_000, 1); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		rs, err := movielens.ParseRatings(data, movielens.RatingsFile)
		if err != nil || len(rs) != 1_000_000 {
			b.Fatalf("parsed %d, err %v", len(rs), err)
		}
	}
}

// BenchmarkBuildInstancesSynth builds the instances of the embedded
// synthetic default (about 50 long-history users).
func BenchmarkBuildInstancesSynth(b *testing.B) {
	dir := b.TempDir()
	if err := synth.WriteMovieLens(dir, synth.MovieLensConfig{Seed: 1}); err != nil {
		b.Fatal(err)
	}
	d, err := movielens.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := movielens.BuildInstances(d, movielens.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseRatings1MNaive is the same-run baseline for make perf: the
// obvious strings.Split + strconv parse a script would write.
func BenchmarkParseRatings1MNaive(b *testing.B) {
	var buf bytes.Buffer
	if err := synth.WriteRatingsLines(&buf, 1_000_000, 1); err != nil {
		b.Fatal(err)
	}
	data := buf.String()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var out []movielens.Rating
		for _, line := range strings.Split(data, "\n") {
			if line == "" {
				continue
			}
			f := strings.Split(line, "::")
			if len(f) != 4 {
				b.Fatalf("bad line %q", line)
			}
			u, _ := strconv.Atoi(f[0])
			m, _ := strconv.Atoi(f[1])
			r, _ := strconv.Atoi(f[2])
			ts, _ := strconv.ParseInt(f[3], 10, 64)
			out = append(out, movielens.Rating{User: int32(u), Movie: int32(m), Value: int8(r), Time: ts})
		}
		if len(out) != 1_000_000 {
			b.Fatalf("parsed %d", len(out))
		}
	}
}
