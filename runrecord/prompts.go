package runrecord

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// PromptsFile holds the prompt each sample sent, one JSON line per sample:
// {"id": ..., "gz": base64(gzip(prompt))}. Prompts live beside samples.jsonl
// rather than in it so that reports, which read every sample, do not pay for
// prompts that can run to tens of thousands of tokens; the viewer indexes the
// file by offset and reads one prompt at a time.
const PromptsFile = "prompts.jsonl"

// PromptRecord is one line of prompts.jsonl.
type PromptRecord struct {
	ID string `json:"id"`
	// GZ is the prompt as sent (every message's content joined by blank
	// lines), gzip-compressed; encoding/json writes it as base64.
	GZ []byte `json:"gz"`
}

// EncodePrompt returns the prompts.jsonl line (with newline) for one sample.
// The gzip header carries no name or time, so equal prompts give equal bytes.
func EncodePrompt(id, prompt string) ([]byte, error) {
	var z bytes.Buffer
	w, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := io.WriteString(w, prompt); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	b, err := json.Marshal(PromptRecord{ID: id, GZ: z.Bytes()})
	if err != nil {
		return nil, fmt.Errorf("encode prompt of %s: %w", id, err)
	}
	return append(b, '\n'), nil
}

// DecodePrompt parses one prompts.jsonl line and returns its ID and prompt.
func DecodePrompt(line []byte) (id, prompt string, err error) {
	var r PromptRecord
	if err := json.Unmarshal(line, &r); err != nil {
		return "", "", fmt.Errorf("decode prompt line: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(r.GZ))
	if err != nil {
		return r.ID, "", fmt.Errorf("prompt of %s: %w", r.ID, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return r.ID, "", fmt.Errorf("prompt of %s: %w", r.ID, err)
	}
	return r.ID, string(b), nil
}

// Span locates one line of a JSONL file.
type Span struct{ Off, Len int64 }

// IndexPrompts scans prompts.jsonl and returns the span of the last line of
// every ID. Only the "id" member at the head of each line is parsed, so a
// file of 100,000 prompts is indexed without decompressing any. A missing
// file gives an empty index (runs from before prompts were kept); a torn
// final line is ignored.
func IndexPrompts(path string) (map[string]Span, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]Span{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index prompts: %w", err)
	}
	defer f.Close()
	idx := map[string]Span{}
	br := bufio.NewReaderSize(f, 1<<16)
	var off int64
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if len(b) > 0 && b[len(b)-1] == '\n' {
			id, ok := lineID(b)
			if !ok {
				return nil, fmt.Errorf("%s:%d: line does not start with an id", path, line)
			}
			idx[id] = Span{Off: off, Len: int64(len(b))}
		}
		off += int64(len(b))
		if err != nil {
			if errors.Is(err, io.EOF) {
				return idx, nil
			}
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
	}
}

// lineID reads the leading {"id":"..." of a line written by EncodePrompt.
func lineID(b []byte) (string, bool) {
	const head = `{"id":`
	if !bytes.HasPrefix(b, []byte(head)) {
		return "", false
	}
	dec := json.NewDecoder(bytes.NewReader(b[len(head):]))
	var id string
	if err := dec.Decode(&id); err != nil {
		return "", false
	}
	return id, true
}

// ReadPrompt reads the prompt at span sp of the prompts file f.
func ReadPrompt(f io.ReaderAt, sp Span) (string, error) {
	b := make([]byte, sp.Len)
	if _, err := f.ReadAt(b, sp.Off); err != nil {
		return "", fmt.Errorf("read prompt at %d: %w", sp.Off, err)
	}
	_, p, err := DecodePrompt(b)
	return p, err
}
