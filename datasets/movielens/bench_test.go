package movielens_test

import (
	"bytes"
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
