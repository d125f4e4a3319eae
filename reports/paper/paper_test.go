package paper

import (
	"math"
	"testing"
)

// TestTable1Overall checks that every Overall in the embedded Table 1 is the
// mean of its four scenes within ±0.05 (the paper rounds to one decimal),
// which is how the spec says the paper computes it.
func TestTable1Overall(t *testing.T) {
	for _, b := range Table1 {
		if len(b.Rows) != 8 {
			t.Errorf("%s: %d rows, want 8", b.Name, len(b.Rows))
		}
		for _, r := range b.Rows {
			var acc, f1 float64
			for _, s := range r.Scene {
				acc += s.ACC
				f1 += s.F1
			}
			acc, f1 = acc/4, f1/4
			if math.Abs(acc-r.Overall.ACC) > 0.05+1e-9 || math.Abs(f1-r.Overall.F1) > 0.05+1e-9 {
				t.Errorf("%s %s: Overall %v/%v, scene mean %.3f/%.3f", b.Name, r.Label, r.Overall.ACC, r.Overall.F1, acc, f1)
			}
		}
	}
}

func TestFind(t *testing.T) {
	b := Table1[0]
	for _, name := range []string{"Long-context (32K)", "Truncation (8K)", "RAG", "Summary", "PraMem", "Mem0", "MemOS", "ProEx"} {
		if _, ok := b.Find(name); !ok {
			t.Errorf("Find(%q) found nothing", name)
		}
	}
	for _, name := range []string{"pramem", "long_context", "echo", ""} {
		if r, ok := b.Find(name); ok {
			t.Errorf("Find(%q) = %s", name, r.Label)
		}
	}
	if r, _ := b.Find("PraMem"); r.Overall != (ACCF1{84.7, 31.6}) || r.Scene[2] != (ACCF1{82.3, 43.7}) {
		t.Errorf("GPT-OSS PraMem = %+v", r)
	}
	if r, _ := Table1[1].Find("Truncation (8K)"); r.Overall != (ACCF1{63.8, 20.9}) {
		t.Errorf("Qwen3.5 truncation = %+v", r)
	}
}

func TestSameModel(t *testing.T) {
	gpt, qwen := Table1[0], Table1[1]
	if !gpt.SameModel("openai/gpt-oss-120b") || gpt.SameModel("gpt-oss-20b") || gpt.SameModel("") {
		t.Error("GPT-OSS-120B model matching")
	}
	if !qwen.SameModel("Qwen/Qwen3.5-35B-A3B-FP8") || qwen.SameModel("qwen3-32b") {
		t.Error("Qwen3.5 model matching")
	}
}
