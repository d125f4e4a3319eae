package memqa

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// StreamLongMemEval decodes a LongMemEval file from r one question at a
// time, handing each to fn in file order: it holds one question's bytes
// (and the reader's read-ahead) at a time, never the file, so
// longmemeval_m (2.7 GB) decodes in memory bounded by its largest
// question. Each question is decoded by a typed fast path
// (fastLongMemEvalQuestion) and, when that finds anything not plainly
// valid, by the strict node decoder, which has the last word. It checks what DecodeLongMemEval checks and reports the same
// DecodeErrors (file, line, JSON path); one difference: a syntax error is
// found when the decoder reaches it, so questions before it have been
// handed over (DecodeLongMemEval validates the whole file first). name is
// used in errors; an error fn returns stops the decoding and is returned.
func StreamLongMemEval(name string, r io.Reader, fn func(Conversation) error) error {
	lt := &lineTracker{r: r}
	// The framing accepts what the strict decoder judges (a member given
	// twice, invalid UTF-8), so the fault is reported as it reports it.
	dec := jsontext.NewDecoder(lt, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	fail := func(err error, path string) error {
		var se *jsontext.SyntacticError
		if errors.As(err, &se) {
			return &DecodeError{File: name, Line: lt.lineAt(se.ByteOffset), Path: path, Reason: "invalid JSON: " + se.Err.Error()}
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return &DecodeError{File: name, Line: lt.lineAt(lt.read), Path: path, Reason: "invalid JSON: unexpected end of JSON input"}
		}
		return &DecodeError{File: name, Line: lt.lineAt(dec.InputOffset()), Path: path, Reason: fmt.Sprintf("invalid JSON: %v", err)}
	}
	switch dec.PeekKind() {
	case '[':
	case 0:
		_, err := dec.ReadToken()
		if errors.Is(err, io.EOF) {
			return &DecodeError{File: name, Line: 1, Path: "$", Reason: "empty file, want a JSON array"}
		}
		return fail(err, "$")
	default:
		k := dec.PeekKind()
		return &DecodeError{File: name, Line: lt.lineAt(dec.InputOffset()), Path: "$", Reason: "want an array, found " + kindName(k)}
	}
	if _, err := dec.ReadToken(); err != nil {
		return fail(err, "$")
	}
	seen := map[string]string{}
	for i := 0; dec.PeekKind() != ']'; i++ {
		path := "[" + strconv.Itoa(i) + "]"
		raw, err := dec.ReadValue()
		if err != nil {
			return fail(err, path)
		}
		// Asked for every question, so the tracker drops what it read.
		line := lt.lineAt(dec.InputOffset() - int64(len(raw)))
		c, ok := fastLongMemEvalQuestion(raw)
		if ok {
			if _, dup := seen[c.SampleID]; dup {
				ok = false // the strict decoding names both places
			}
		}
		if ok {
			seen[c.SampleID] = path
		} else {
			// Copied: the decoder reuses its buffer.
			d := &doc{name: name, data: slices.Clone(raw), lineBase: line - 1}
			if c, err = decodeLongMemEvalElement(node{d: d, raw: d.data, path: path}, seen); err != nil {
				return err
			}
		}
		if err := fn(c); err != nil {
			return err
		}
	}
	if _, err := dec.ReadToken(); err != nil { // the closing bracket
		return fail(err, "$")
	}
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
		if err == nil {
			err = errors.New("data after the top-level array")
		}
		return fail(err, "$")
	}
	return nil
}

// ReadLongMemEval decodes a LongMemEval file from r with StreamLongMemEval
// into a Dataset.
func ReadLongMemEval(name string, r io.Reader) (Dataset, error) {
	ds := Dataset{Benchmark: LongMemEval}
	err := StreamLongMemEval(name, bufio.NewReaderSize(r, 1<<20), func(c Conversation) error {
		ds.Conversations = append(ds.Conversations, c)
		return nil
	})
	return ds, err
}

// kindName names a JSON value's kind as the errors print it.
func kindName(k jsontext.Kind) string {
	switch k {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// lineTracker passes a reader through, keeping the bytes read since the
// last place asked about, so the line of any later offset can be counted
// without holding the file: each lineAt counts the newlines up to its
// offset and drops the bytes before it.
type lineTracker struct {
	r     io.Reader
	buf   []byte // bytes from offset base on
	base  int64
	lines int   // newlines before base
	read  int64 // bytes read so far
}

func (t *lineTracker) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.buf = append(t.buf, p[:n]...)
	t.read += int64(n)
	return n, err
}

// lineAt is the 1-based line of absolute offset off; offsets asked about
// must not go back before an earlier one's (the decoder only moves on).
func (t *lineTracker) lineAt(off int64) int {
	k := int(min(max(off-t.base, 0), int64(len(t.buf))))
	t.lines += bytes.Count(t.buf[:k], []byte{'\n'})
	t.base += int64(k)
	t.buf = append(t.buf[:0], t.buf[k:]...)
	return t.lines + 1
}
