package memqa

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// No input makes the decoders panic: a fault is an error or a dataset.
func FuzzDecode(f *testing.F) {
	small, err := os.ReadFile(filepath.Join("testdata", "longmemeval_small.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(small)
	f.Add([]byte(`[{"sample_id":"c","conversation":{"speaker_a":"A","speaker_b":"B","session_1_date_time":"x","session_1":[{"speaker":"A","dia_id":"D1:1","text":"t","img_url":["u"],"blip_caption":"c"}]},"qa":[{"question":"q","answer":3,"evidence":["D1:1"],"category":2}]}]`))
	f.Add([]byte(strings.Repeat("[", 5000)))
	f.Add([]byte(`[{"sample_id":"c","conversation":{"session_9_date_time":"x"},"qa":[]}]`))
	f.Add([]byte("\xff\xfe[]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		DecodeLoCoMo("f", data)
		DecodeLongMemEval("f", data)
		ReadLongMemEval("f", bytes.NewReader(data))
	})
}

// Truncating a valid file anywhere gives an error, never a panic or a
// partial dataset.
func TestTruncatedFiles(t *testing.T) {
	small, err := os.ReadFile(filepath.Join("testdata", "longmemeval_small.json"))
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(small)-2; n += 7 {
		if _, err := DecodeLongMemEval("f", small[:n]); err == nil {
			t.Fatalf("%d of %d bytes decode without error", n, len(small))
		}
	}
}
