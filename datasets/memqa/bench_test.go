package memqa_test

import (
	"bytes"
	"testing"

	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/datasets/synth"
)

// BenchmarkDecodeLongMemEval measures strict decoding in bytes per second
// (longmemeval_s is 278 MB, _m 2.7 GB).
func BenchmarkDecodeLongMemEval(b *testing.B) {
	ds, err := synth.GenerateLongMemEval(synth.LongMemEvalConfig{PerType: 20, Abstention: 10, Sessions: 40})
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := memqa.EncodeLongMemEval(&buf, ds); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		if _, err := memqa.DecodeLongMemEval("bench", buf.Bytes()); err != nil {
			b.Fatal(err)
		}
	}
}
