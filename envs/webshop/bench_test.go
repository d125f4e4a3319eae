package webshop

import (
	"context"
	"testing"

	"github.com/memharness/memharness/envs"
)

// BenchmarkOracleFixtures times a full oracle run (100 ExpeL goals) over
// the fixture-backed catalogue, loading excluded.
func BenchmarkOracleFixtures(b *testing.B) {
	s, err := Open(fixtureDataDir(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		res, err := envs.Check(context.Background(), s)
		if err != nil || res.Failed > 0 {
			b.Fatalf("%+v, %v", res, err)
		}
	}
}

// BenchmarkOpenFixtures times loading the fixture data directory.
func BenchmarkOpenFixtures(b *testing.B) {
	dir := fixtureDataDir(b)
	b.ResetTimer()
	for range b.N {
		if _, err := Open(dir); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	s, err := Embedded()
	if err != nil {
		b.Fatal(err)
	}
	for range b.N {
		s.Catalogue().Search("waterproof hiking boots with rubber sole brown size 10")
	}
}
