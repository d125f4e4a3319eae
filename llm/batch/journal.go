package batch

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// JournalName is the journal's file name in a batch directory.
const JournalName = "journal.jsonl"

// Journal steps, in the order a wave takes them.
const (
	StepWritten   = "written"   // the wave's input file is on disk
	StepUploaded  = "uploaded"  // the provider holds it (FileID)
	StepSubmitted = "submitted" // a batch runs over it (BatchID)
	StepDone      = "done"      // the batch ended; its output is on disk
	StepImported  = "imported"  // an offline run-batch output was read in
	StepOffline   = "offline"   // the wave waits for bench batch export / import
)

// Entry is one journal line.
type Entry struct {
	Step string `json:"step"`
	Wave int    `json:"wave"`
	// File is the wave's input file, relative to the batch directory.
	File string `json:"file,omitempty"`
	// Requests are the custom ids of the wave with their purposes (on
	// StepWritten).
	Requests []Request `json:"requests,omitempty"`
	// Provider names where the wave went (sanitized base URL, "sim" or
	// "offline"), on StepWritten.
	Provider string `json:"provider,omitempty"`
	FileID   string `json:"file_id,omitempty"`
	BatchID  string `json:"batch_id,omitempty"`
	// Status, Output and Errors are on StepDone: the batch's end status and
	// its saved output and error files.
	Status string `json:"status,omitempty"`
	Output string `json:"output,omitempty"`
	Errors string `json:"errors,omitempty"`
	// OK, Failed and Unknown count answered requests, requests that came
	// back without an answer (failed, expired or missing: retried) and
	// output lines naming no request of the wave (ignored).
	OK      int    `json:"ok,omitempty"`
	Failed  int    `json:"failed,omitempty"`
	Unknown int    `json:"unknown,omitempty"`
	Time    string `json:"time,omitempty"`
}

// Request is one request of a wave.
type Request struct {
	ID      string `json:"id"`
	Purpose string `json:"purpose"`
}

// Journal is the append-only record of a batch directory's waves.
type Journal struct {
	dir string
	mu  sync.Mutex
}

// OpenJournal opens (creating) the journal in dir.
func OpenJournal(dir string) (*Journal, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("batch journal: %w", err)
	}
	return &Journal{dir: dir}, nil
}

// Dir is the batch directory.
func (j *Journal) Dir() string { return j.dir }

// Append writes one entry and syncs it to disk before returning: a step is
// journaled before the run goes on to the next.
func (j *Journal) Append(e Entry) error {
	e.Time = time.Now().UTC().Format(time.RFC3339)
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	f, err := os.OpenFile(filepath.Join(j.dir, JournalName), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("batch journal: %w", err)
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("batch journal: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("batch journal: %w", err)
	}
	return f.Close()
}

// WaveState is what the journal says of one wave.
type WaveState struct {
	Wave     int
	File     string
	Provider string
	Requests []Request
	FileID   string
	BatchID  string
	// Step is the last step taken.
	Step                string
	Status              string
	Output, Errors      string
	OK, Failed, Unknown int
}

// Open is true while the wave's batch may still answer (submitted, or
// uploaded and perhaps submitted) or waits offline.
func (w WaveState) Open() bool {
	switch w.Step {
	case StepUploaded, StepSubmitted, StepOffline:
		return true
	}
	return false
}

// ReadJournal reads the waves of the batch directory dir, in wave order
// (none when it has no journal). A torn last line (a kill while writing
// it) is left out; a damaged line before others is an error naming it.
func ReadJournal(dir string) ([]WaveState, error) {
	path := filepath.Join(dir, JournalName)
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	byWave := map[int]*WaveState{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(line, &e); err != nil {
			if !bytes.HasSuffix(data, []byte("\n")) && int64(len(data)) == lineEnd(data, n) {
				break // the torn last line of a killed write
			}
			return nil, fmt.Errorf("%s line %d: %w", path, n, err)
		}
		w := byWave[e.Wave]
		if w == nil {
			w = &WaveState{Wave: e.Wave}
			byWave[e.Wave] = w
		}
		w.Step = e.Step
		switch e.Step {
		case StepWritten:
			w.File, w.Requests, w.Provider = e.File, e.Requests, e.Provider
		case StepUploaded:
			w.FileID = e.FileID
		case StepSubmitted:
			w.BatchID = e.BatchID
			if e.FileID != "" {
				w.FileID = e.FileID
			}
		case StepDone, StepImported:
			w.Status, w.Output, w.Errors = e.Status, e.Output, e.Errors
			w.OK, w.Failed, w.Unknown = e.OK, e.Failed, e.Unknown
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := make([]WaveState, 0, len(byWave))
	for _, w := range byWave {
		out = append(out, *w)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Wave < out[b].Wave })
	return out, nil
}

// lineEnd is the byte offset just past line n (1-based) of data.
func lineEnd(data []byte, n int) int64 {
	off := 0
	for i := 1; i < n; i++ {
		k := bytes.IndexByte(data[off:], '\n')
		if k < 0 {
			return int64(len(data))
		}
		off += k + 1
	}
	k := bytes.IndexByte(data[off:], '\n')
	if k < 0 {
		return int64(len(data))
	}
	return int64(off + k + 1)
}
