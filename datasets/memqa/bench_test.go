package memqa_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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

// BenchmarkStreamLongMemEval measures the streamed decoding Load uses for
// LongMemEval (bounded memory: one question at a time), in bytes per
// second, on the same data as BenchmarkDecodeLongMemEval; its allocations
// per op are compared with the whole-file decoding's.
func BenchmarkStreamLongMemEval(b *testing.B) {
	ds, err := synth.GenerateLongMemEval(synth.LongMemEvalConfig{PerType: 20, Abstention: 10, Sessions: 40})
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := memqa.EncodeLongMemEval(&buf, ds); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		err := memqa.StreamLongMemEval("bench", bytes.NewReader(buf.Bytes()), func(memqa.Conversation) error { n++; return nil })
		if err != nil || n != len(ds.Conversations) {
			b.Fatalf("%d questions, %v", n, err)
		}
	}
}

// On a synthetic file of many questions and sessions, the stream gives
// exactly the whole-file decoding, and Load (which streams) gives it too.
func TestStreamEqualsWholeFileSynthetic(t *testing.T) {
	ds, err := synth.GenerateLongMemEval(synth.LongMemEvalConfig{PerType: 4, Abstention: 3, Sessions: 12, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := memqa.EncodeLongMemEval(&buf, ds); err != nil {
		t.Fatal(err)
	}
	whole, err := memqa.DecodeLongMemEval("f.json", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	streamed, err := memqa.ReadLongMemEval("f.json", bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(whole, streamed) {
		t.Fatal("streamed dataset differs from the whole-file decoding")
	}
	path := filepath.Join(t.TempDir(), memqa.LongMemEvalS)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	loaded, err := memqa.Load(memqa.LongMemEval, path)
	if err != nil {
		t.Fatal(err)
	}
	loaded.Conversations = slices.Clip(loaded.Conversations)
	whole.Conversations = slices.Clip(whole.Conversations)
	if !reflect.DeepEqual(whole.Conversations, loaded.Conversations) {
		t.Fatal("Load differs from the whole-file decoding")
	}
}
