package runstore

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
)

// Call is one recorded model call: what the Meter booked, with its request
// and reply (Exchange) read back from the chunk store.
type Call struct {
	// Unit is the work the call paid for: "sample:<id>" or
	// "file:<name>", the saved state (a memory, a checkpoint, a lifelong
	// cell) it built.
	Unit string `json:"unit"`
	// Index is the call's place among its unit's calls.
	Index int `json:"index"`
	// Lost says why the call's request and reply cannot be read back (a
	// chunk store cut short, deleted or damaged); its usage is intact.
	Lost string `json:"lost,omitempty"`
	llm.CallRecord
}

// Sample and File split Unit: the sample ID or saved file it belongs to.
func (c Call) Sample() (string, bool) { return strings.CutPrefix(c.Unit, samplePrefix) }

// File is the saved state the call built, if it built one.
func (c Call) File() (string, bool) { return strings.CutPrefix(c.Unit, filePrefix) }

// SampleUnit is the Unit of sample id's calls.
func SampleUnit(id string) string { return samplePrefix + id }

// CallRecord reads a run directory's call record: the usage journal's
// calls and the chunk store their texts live in. It reads the journal as a
// stream and the chunk store through an offset index, so a large run is
// not held in memory.
type CallRecord struct {
	dir    string
	open   func(name string) (*os.File, error)
	root   *os.Root // set when the record reads through one
	cf     *os.File
	r      *runrecord.ChunkReader
	damage []runrecord.Damage
	// lost counts the calls read so far whose texts are lost.
	lost int
}

// OpenCalls opens dir's call record for reading. A run with no record
// (made before the record existed) opens and yields calls without an
// Exchange.
func OpenCalls(dir string) (*CallRecord, error) {
	return openCalls(dir, nil, func(name string) (*os.File, error) { return os.Open(filepath.Join(dir, name)) })
}

// OpenCallsWithin is OpenCalls reading every file through an os.Root of
// dir: a journal or chunk store that is a link leading outside dir is
// refused (a viewer serving a folder reads nothing else).
func OpenCallsWithin(dir string) (*CallRecord, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("call record: %w", err)
	}
	return openCalls(dir, root, root.Open)
}

func openCalls(dir string, root *os.Root, open func(string) (*os.File, error)) (*CallRecord, error) {
	cr := &CallRecord{dir: dir, open: open, root: root}
	f, err := open(runrecord.ChunksFile)
	switch {
	case errors.Is(err, os.ErrNotExist):
		f = nil
	case err != nil:
		cr.Close()
		return nil, fmt.Errorf("call record: %w", err)
	default:
		cr.cf = f
	}
	idx, err := runrecord.IndexChunksOf(f)
	if err != nil {
		cr.Close()
		return nil, err
	}
	cr.damage = idx.Damage
	var ra io.ReaderAt = emptyReaderAt{}
	if f != nil {
		ra = f
	}
	if cr.r, err = runrecord.NewChunkReader(ra, idx); err != nil {
		cr.Close()
		return nil, err
	}
	return cr, nil
}

type emptyReaderAt struct{}

func (emptyReaderAt) ReadAt([]byte, int64) (int, error) { return 0, io.EOF }

// Damage lists the damaged stretches of the chunk store: the calls whose
// texts were there read back marked Lost, every other call in full.
func (c *CallRecord) Damage() []runrecord.Damage { return c.damage }

// Lost is the number of calls read so far whose texts are lost.
func (c *CallRecord) Lost() int { return c.lost }

// Close releases the chunk store.
func (c *CallRecord) Close() error {
	var err error
	if c.cf != nil {
		err = c.cf.Close()
	}
	if c.root != nil {
		c.root.Close()
	}
	return err
}

// Each calls fn with every recorded call whose unit keep accepts (nil:
// all), in journal order, its Exchange filled in. Units are matched before
// any text is read, so picking one sample's calls reads only those.
func (c *CallRecord) Each(keep func(unit string) bool, fn func(Call) error) error {
	path := filepath.Join(c.dir, UsageJournal)
	f, err := c.open(UsageJournal)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("call record: %w", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	for line := 1; ; line++ {
		b, rerr := br.ReadBytes('\n')
		if len(b) > 0 && b[len(b)-1] == '\n' {
			if err := c.line(path, line, b, keep, fn); err != nil {
				return err
			}
		}
		if rerr != nil {
			if errors.Is(rerr, io.EOF) {
				return nil
			}
			return fmt.Errorf("%s:%d: %w", path, line, rerr)
		}
	}
}

func (c *CallRecord) line(path string, n int, b []byte, keep func(string) bool, fn func(Call) error) error {
	if keep != nil {
		var head struct {
			Unit string `json:"unit"`
		}
		// The unit leads the line; decoding only it skips the calls.
		dec := json.NewDecoder(bytes.NewReader(b))
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return fmt.Errorf("%s:%d: not a journal line", path, n)
		}
		if k, err := dec.Token(); err == nil && k == "unit" {
			if err := dec.Decode(&head.Unit); err != nil {
				return fmt.Errorf("%s:%d: unit: %w", path, n, err)
			}
			if !keep(head.Unit) {
				return nil
			}
		}
	}
	var ul usageLine
	if err := json.Unmarshal(b, &ul); err != nil {
		return fmt.Errorf("%s:%d: %w", path, n, err)
	}
	if keep != nil && !keep(ul.Unit) {
		return nil
	}
	for i, rec := range ul.Calls {
		lost := ""
		if rec.ContentRef != "" {
			js, err := c.r.Text([]string{rec.ContentRef})
			if err == nil {
				rec.Content = new(llm.CallContent)
				err = json.Unmarshal([]byte(js), rec.Content)
			}
			if err != nil {
				rec.Content, lost = nil, "content: "+err.Error()
			}
		}
		if rec.Content != nil {
			// One call's lost texts never hide the calls around it.
			if ex, err := c.r.Exchange(rec.Content); err != nil {
				lost = err.Error()
			} else {
				rec.Exchange = &ex
			}
		}
		if lost != "" {
			c.lost++
			lost = fmt.Sprintf("%s:%d: call %d of %s: %s", path, n, i, ul.Unit, lost)
		}
		if err := fn(Call{Unit: ul.Unit, Index: i, Lost: lost, CallRecord: rec}); err != nil {
			return err
		}
	}
	return nil
}

// Of returns the calls of one unit.
func (c *CallRecord) Of(unit string) ([]Call, error) {
	var out []Call
	err := c.Each(func(u string) bool { return u == unit }, func(cl Call) error {
		out = append(out, cl)
		return nil
	})
	return out, err
}

// SamplePrompt is the prompt a sample's calls sent for its answer: the
// messages of its last judged call (the final draw; a sample's other calls,
// as a retrieval query, are not its answer), or of its last call when none
// was judged. One message gives its content as is, which is what runs
// before the call record kept in prompts.jsonl; several are each headed by
// their role. It reports false when no call holds a request.
func SamplePrompt(calls []Call) (string, bool) {
	pick := -1
	for i, c := range calls {
		if c.Exchange == nil {
			continue
		}
		if c.Judged || pick < 0 || !calls[pick].Judged {
			pick = i
		}
	}
	if pick < 0 {
		return "", false
	}
	msgs := calls[pick].Exchange.Messages
	if len(msgs) == 1 {
		return msgs[0].Content, true
	}
	var sb strings.Builder
	for i, m := range msgs {
		if i > 0 {
			sb.WriteString("\n\n")
		}
		sb.WriteString("[" + m.Role + "]\n" + m.Content)
	}
	return sb.String(), true
}

// IndexUnits locates every unit's journal lines (a unit journalled again,
// as a state saved twice, has several), reading only the unit at the head
// of each line, so that one unit's calls are then read (OfLines) without a
// scan of the journal.
func (c *CallRecord) IndexUnits() (map[string][]runrecord.Span, error) {
	out := map[string][]runrecord.Span{}
	err := c.EachUnit(func(unit string, sp runrecord.Span) error {
		out[unit] = append(out[unit], sp)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// EachUnit calls fn with each journal line's unit and place, in journal
// order, reading only the unit at the head of each line. A compacted run's
// journal holds its samples' lines in samples.jsonl's order, so a reader
// walking both at once needs no index.
func (c *CallRecord) EachUnit(fn func(unit string, sp runrecord.Span) error) error {
	path := filepath.Join(c.dir, UsageJournal)
	f, err := c.open(UsageJournal)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("call record: %w", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	var off int64
	for line := 1; ; line++ {
		b, rerr := br.ReadBytes('\n')
		if len(b) > 0 && b[len(b)-1] == '\n' {
			unit, err := lineUnit(b)
			if err != nil {
				return fmt.Errorf("%s:%d: %w", path, line, err)
			}
			if err := fn(unit, runrecord.Span{Off: off, Len: int64(len(b))}); err != nil {
				return err
			}
		}
		off += int64(len(b))
		if rerr != nil {
			if errors.Is(rerr, io.EOF) {
				return nil
			}
			return fmt.Errorf("%s:%d: %w", path, line, rerr)
		}
	}
}

// lineUnit decodes the unit leading a journal line.
func lineUnit(b []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return "", errors.New("not a journal line")
	}
	var unit string
	if k, err := dec.Token(); err != nil || k != "unit" {
		return "", errors.New("journal line without a leading unit")
	}
	if err := dec.Decode(&unit); err != nil {
		return "", fmt.Errorf("unit: %w", err)
	}
	return unit, nil
}

// OfLines returns the calls of the journal lines at spans (from
// IndexUnits), their Exchange filled in.
func (c *CallRecord) OfLines(spans []runrecord.Span) ([]Call, error) {
	path := filepath.Join(c.dir, UsageJournal)
	f, err := c.open(UsageJournal)
	if err != nil {
		return nil, fmt.Errorf("call record: %w", err)
	}
	defer f.Close()
	var out []Call
	for _, sp := range spans {
		b := make([]byte, sp.Len)
		if _, err := f.ReadAt(b, sp.Off); err != nil {
			return nil, fmt.Errorf("%s at %d: %w", path, sp.Off, err)
		}
		err := c.line(path, 0, b, nil, func(cl Call) error {
			out = append(out, cl)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
