package toolqa

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Question sources. The range template's answer key differs between them
// (see oracle.go), so each task remembers where it came from.
const (
	SourceToolQA   = "toolqa"   // official ToolQA coffee-easy/coffee-hard
	SourceLifeMem  = "lifemem"  // LifeMem's regenerated test set
	SourceEmbedded = "embedded" // our own suite
)

// Question is one record of a ToolQA question file.
type Question struct {
	QID      string `json:"qid"`
	Question string `json:"question"`
	Answer   string `json:"answer"`
	// Source is one of the Source* constants (not in the file).
	Source string `json:"-"`
}

// ReadQuestions parses a ToolQA JSONL question file; name is used in errors.
func ReadQuestions(r io.Reader, name, source string) ([]Question, error) {
	var qs []Question
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var q Question
		if err := json.Unmarshal(b, &q); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		for _, f := range []struct{ name, v string }{{"qid", q.QID}, {"question", q.Question}, {"answer", q.Answer}} {
			if f.v == "" {
				return nil, fmt.Errorf("%s:%d: field %s: missing or empty", name, line, f.name)
			}
		}
		if prev, ok := seen[q.QID]; ok {
			return nil, fmt.Errorf("%s:%d: field qid: %q already used on line %d", name, line, q.QID, prev)
		}
		seen[q.QID] = line
		q.Source = source
		qs = append(qs, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return qs, nil
}
