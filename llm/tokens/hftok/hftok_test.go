package hftok

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sugarme/tokenizer/pretokenizer"
)

// The expected splits were produced with Python's re on the same pattern
// (\p{L} and \p{N} written as classes that agree on these inputs).
func TestSplitQwen(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Hello world", []string{"Hello", " world"}},
		{"I'm  here's  'LL", []string{"I", "'m", " ", " here", "'s", " ", " '", "LL"}},
		{"【行为 1】时间：2025-09-03 12:00\n  场景：视频浏览\n", []string{"【行为", " ", "1", "】时间", "：", "2", "0", "2", "5", "-", "0", "9", "-", "0", "3", " ", "1", "2", ":", "0", "0", "\n", " ", " 场景", "：视频浏览", "\n"}},
		{"a   b\n\n  c  ", []string{"a", "  ", " b", "\n\n", " ", " c", "  "}},
		{"x_y __z", []string{"x", "_y", " __", "z"}},
		{"price: 12.5万!!\r\n\r\nok", []string{"price", ":", " ", "1", "2", ".", "5", "万", "!!\r\n\r\n", "ok"}},
		{" 你好，世界。 ", []string{" 你好", "，世界", "。", " "}},
		{"tab\there\t\t", []string{"tab", "\there", "\t\t"}},
		{"'Sound 'stuff", []string{"'S", "ound", " '", "stuff"}},
		{"", nil},
	} {
		if got := splitQwen(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("splitQwen(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzSplitQwen(f *testing.F) {
	f.Add("Hello world\n\n  x")
	f.Fuzz(func(t *testing.T, s string) {
		parts := splitQwen(s)
		if strings.Join(parts, "") != string([]rune(s)) {
			t.Fatalf("pieces of %q do not rebuild it: %q", s, parts)
		}
		for _, p := range parts {
			if p == "" {
				t.Fatalf("empty piece in %q", s)
			}
		}
	})
}

// writeTokenizer writes a tiny byte-level BPE tokenizer.json in Qwen's
// shape: every byte a token, and merges that build "hello" and " hello".
func writeTokenizer(t *testing.T, normalizer any, merges any) string {
	t.Helper()
	vocab := map[string]int{}
	for b := 0; b < 256; b++ {
		vocab[pretokenizer.BytesChar[uint8(b)]] = b
	}
	for i, tok := range []string{"he", "ll", "hell", "hello", "Ġhello"} {
		vocab[tok] = 256 + i
	}
	doc := map[string]any{
		"normalizer": normalizer,
		"pre_tokenizer": map[string]any{"type": "Sequence", "pretokenizers": []any{
			map[string]any{"type": "Split", "pattern": map[string]any{"Regex": qwenPattern}, "behavior": "Isolated", "invert": false},
			map[string]any{"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": false, "use_regex": false},
		}},
		"model": map[string]any{"type": "BPE", "vocab": vocab, "merges": merges},
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "tokenizer.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCount(t *testing.T) {
	strs := []string{"h e", "l l", "he ll", "hell o", "Ġ hello"}
	pairs := [][]string{{"h", "e"}, {"l", "l"}, {"he", "ll"}, {"hell", "o"}, {"Ġ", "hello"}}
	for name, merges := range map[string]any{"string merges": strs, "pair merges": pairs} {
		c, err := Load(writeTokenizer(t, map[string]any{"type": "NFC"}, merges))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, tc := range []struct {
			in   string
			want int
		}{
			{"hello hello", 2},
			{"hello world", 7}, // hello + Ġ w o r l d
			{"你好", 6},          // three bytes each, no merges
			{"e\u0301", 2},     // NFC: é is two bytes
			{"", 0},
		} {
			if got := c.Count(tc.in); got != tc.want {
				t.Errorf("%s: Count(%q) = %d, want %d", name, tc.in, got, tc.want)
			}
		}
		if !strings.HasPrefix(c.Label, "tokenizer.json sha256:") {
			t.Errorf("label %q", c.Label)
		}
	}
	noNFC, err := Load(writeTokenizer(t, nil, strs))
	if err != nil {
		t.Fatal(err)
	}
	if got := noNFC.Count("e\u0301"); got != 3 {
		t.Errorf("without NFC: Count = %d, want 3", got)
	}
}

func TestLoadRefuses(t *testing.T) {
	p := writeTokenizer(t, map[string]any{"type": "Lowercase"}, []string{})
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "normalizer") {
		t.Errorf("lowercase normalizer: %v", err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("missing file loaded")
	}
}
