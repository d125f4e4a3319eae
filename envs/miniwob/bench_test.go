package miniwob

import (
	"context"
	"testing"

	"github.com/memharness/memharness/envs"
)

// BenchmarkOracleEmbedded times a full oracle run over the embedded suite
// (the fixture folder holds no MiniWoB++ pages; see TestOfficialOracle).
func BenchmarkOracleEmbedded(b *testing.B) {
	needBrowser(b)
	s := embedded(b, Config{})
	for b.Loop() {
		res, err := envs.Check(context.Background(), s)
		if err != nil || res.Failed > 0 {
			b.Fatalf("check: %+v %v", res, err)
		}
	}
}
