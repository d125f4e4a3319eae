package taubench

import (
	"context"
	"testing"

	"github.com/memharness/memharness/envs"
)

// BenchmarkOracleFixtures times envs.Check over all official fixture tasks
// (retail 635 + airline 50), loading excluded.
func BenchmarkOracleFixtures(b *testing.B) {
	suites := []*Suite{openFixture(b, Retail), openFixture(b, Airline)}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range suites {
			res, err := envs.Check(context.Background(), s)
			if err != nil || res.Failed > 0 {
				b.Fatalf("%v %+v", err, res)
			}
		}
	}
}

// BenchmarkOpenFixtures times loading both domains.
func BenchmarkOpenFixtures(b *testing.B) {
	for i := 0; i < b.N; i++ {
		openFixture(b, Retail)
		openFixture(b, Airline)
	}
}
