// Package hftok counts tokens with a Hugging Face tokenizer.json of the
// byte-level BPE kind (Qwen2/Qwen3, GPT-2 and their relatives), so history
// windows can be cut by the tokenizer the reference used (Qwen3-8B's)
// instead of the character estimate. The BPE merges run in
// github.com/sugarme/tokenizer (pure Go); the pre-tokenizer is done here,
// because Qwen's split regex needs a lookahead Go's RE2 lacks.
package hftok

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sync"

	"github.com/sugarme/tokenizer/model"
	"github.com/sugarme/tokenizer/model/bpe"
	"github.com/sugarme/tokenizer/pretokenizer"
	"golang.org/x/text/unicode/norm"
)

// Counter counts tokens as len(tokenizer.encode(text)) does for a
// byte-level BPE tokenizer without added special tokens in the text. It is
// safe for concurrent use.
type Counter struct {
	// Label names the file for manifests: "tokenizer.json sha256:<hex>".
	Label string
	nfc   bool
	split func(string) []string
	mu    sync.Mutex // the BPE's word cache is not safe for concurrent use
	bpe   *bpe.BPE
}

// file is the part of tokenizer.json the counter reads.
type file struct {
	Normalizer   *component `json:"normalizer"`
	PreTokenizer *component `json:"pre_tokenizer"`
	Model        struct {
		Type   string            `json:"type"`
		Vocab  map[string]int    `json:"vocab"`
		Merges []json.RawMessage `json:"merges"`
	} `json:"model"`
}

type component struct {
	Type          string      `json:"type"`
	Normalizers   []component `json:"normalizers"`
	Pretokenizers []component `json:"pretokenizers"`
	Pattern       *struct {
		Regex  string `json:"Regex"`
		String string `json:"String"`
	} `json:"pattern"`
	Behavior string `json:"behavior"`
	Invert   bool   `json:"invert"`
	UseRegex *bool  `json:"use_regex"`
}

// Load reads a tokenizer.json. It refuses shapes it cannot count exactly
// (a model other than BPE, a normalizer other than NFC, a pre-tokenizer
// other than byte-level with an optional isolating regex split).
func Load(path string) (*Counter, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	var f file
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("tokenizer %s: %w", path, err)
	}
	sum := sha256.Sum256(b)
	c := &Counter{Label: "tokenizer.json sha256:" + hex.EncodeToString(sum[:])}
	if f.Model.Type != "BPE" {
		return nil, fmt.Errorf("tokenizer %s: model %q: only byte-level BPE is supported", path, f.Model.Type)
	}
	if n := f.Normalizer; n != nil {
		switch {
		case n.Type == "NFC":
			c.nfc = true
		case n.Type == "Sequence" && len(n.Normalizers) == 0:
		default:
			return nil, fmt.Errorf("tokenizer %s: normalizer %q is not supported (NFC or none)", path, n.Type)
		}
	}
	if c.split, err = splitter(f.PreTokenizer); err != nil {
		return nil, fmt.Errorf("tokenizer %s: %w", path, err)
	}
	merges := make([]string, len(f.Model.Merges))
	for i, m := range f.Model.Merges {
		var s string
		var pair []string
		switch {
		case json.Unmarshal(m, &s) == nil:
			merges[i] = s
		case json.Unmarshal(m, &pair) == nil && len(pair) == 2:
			merges[i] = pair[0] + " " + pair[1]
		default:
			return nil, fmt.Errorf("tokenizer %s: merge %d is neither \"a b\" nor [a, b]", path, i)
		}
	}
	empty := ""
	c.bpe, err = bpe.New(model.Vocab(f.Model.Vocab), merges, nil, nil, &empty, &empty)
	if err != nil {
		return nil, fmt.Errorf("tokenizer %s: %w", path, err)
	}
	return c, nil
}

// splitter builds the pre-tokenizer: byte-level (without its own split),
// after an isolating regex split (Qwen's by hand, any RE2 one with package
// regexp).
func splitter(p *component) (func(string) []string, error) {
	if p == nil {
		return nil, fmt.Errorf("no pre_tokenizer: only byte-level BPE is supported")
	}
	var parts []component
	if p.Type == "Sequence" {
		parts = p.Pretokenizers
	} else {
		parts = []component{*p}
	}
	var split func(string) []string
	byteLevel := false
	for _, c := range parts {
		switch c.Type {
		case "Split":
			if split != nil || c.Pattern == nil || c.Invert || c.Behavior != "Isolated" {
				return nil, fmt.Errorf("pre-tokenizer Split: only one isolating regex split is supported")
			}
			re := c.Pattern.Regex
			if re == "" {
				return nil, fmt.Errorf("pre-tokenizer Split: only a regex pattern is supported")
			}
			if re == qwenPattern {
				split = splitQwen
				continue
			}
			rx, err := regexp.Compile(re)
			if err != nil {
				return nil, fmt.Errorf("pre-tokenizer regex %q is outside RE2 and not Qwen's: %w", re, err)
			}
			split = isolate(rx)
		case "ByteLevel":
			byteLevel = true
			if c.UseRegex == nil || *c.UseRegex {
				// GPT-2's own split (use_regex true) differs from Qwen's
				// and needs a lookahead too: not counted exactly here.
				return nil, fmt.Errorf("pre-tokenizer ByteLevel with use_regex: not supported (Qwen-style files split first and set use_regex false)")
			}
		default:
			return nil, fmt.Errorf("pre-tokenizer %q is not supported", c.Type)
		}
	}
	if !byteLevel {
		return nil, fmt.Errorf("pre-tokenizer: only byte-level BPE is supported")
	}
	if split == nil {
		split = func(s string) []string { return []string{s} }
	}
	return split, nil
}

// isolate splits s into the matches of rx and the text between them.
func isolate(rx *regexp.Regexp) func(string) []string {
	return func(s string) []string {
		var out []string
		at := 0
		for _, m := range rx.FindAllStringIndex(s, -1) {
			if m[0] > at {
				out = append(out, s[at:m[0]])
			}
			if m[1] > m[0] {
				out = append(out, s[m[0]:m[1]])
			}
			at = m[1]
		}
		if at < len(s) {
			out = append(out, s[at:])
		}
		return out
	}
}

// Count implements tokens.Counter.
func (c *Counter) Count(s string) int {
	if c.nfc {
		s = norm.NFC.String(s)
	}
	n := 0
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, piece := range c.split(s) {
		var mapped []byte
		for _, b := range []byte(piece) {
			mapped = append(mapped, pretokenizer.BytesChar[b]...)
		}
		toks, err := c.bpe.Tokenize(string(mapped))
		if err != nil {
			// A byte-level vocabulary covers every byte; count bytes if not.
			n += len(piece)
			continue
		}
		n += len(toks)
	}
	return n
}
