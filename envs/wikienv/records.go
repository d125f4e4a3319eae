package wikienv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
)

// eachRecord calls fn with every JSON object of a file that is either JSONL
// (one object a line) or one JSON array (HotpotQA's official release), and
// the line the object starts on, so errors can name file and line.
func eachRecord(fsys fs.FS, name, label string, fn func(raw []byte, line int) error) error {
	f, err := fsys.Open(name)
	if err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // a BOM some editors add
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '[' {
		return eachArrayItem(data, label, fn)
	}
	line := 0
	for l := range bytes.SplitSeq(data, []byte("\n")) {
		line++
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		if err := fn(l, line); err != nil {
			return fmt.Errorf("%s:%d: %w", label, line, err)
		}
	}
	return nil
}

func eachArrayItem(data []byte, label string, fn func(raw []byte, line int) error) error {
	lineAt := func(off int64) int { return bytes.Count(data[:off], []byte("\n")) + 1 }
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("%s:1: %w", label, err)
	}
	for dec.More() {
		var raw json.RawMessage
		off := dec.InputOffset()
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("%s:%d: %w", label, lineAt(off), err)
		}
		// The offset before Decode may sit on the separating comma and
		// whitespace; the object starts where its bytes begin.
		start := off + int64(bytes.IndexByte(data[off:], raw[0]))
		if err := fn(raw, lineAt(start)); err != nil {
			return fmt.Errorf("%s:%d: %w", label, lineAt(start), err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("%s:%d: %w", label, lineAt(dec.InputOffset()), err)
	}
	return nil
}
