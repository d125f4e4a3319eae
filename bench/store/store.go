// Package store is the run store: one directory per run holding the
// manifest, an append-only sample log (one fsync'd JSON line per finished
// sample), usage totals and per-user memory snapshots. Re-opening a run
// directory resumes it: finished samples are skipped, errored ones retried.
package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/memharness/memharness/runlog"
)

// Store is an open run directory. It is safe for concurrent use.
type Store struct {
	dir string

	mu      sync.Mutex
	f       *os.File
	prompts *os.File                 // prompts.jsonl, opened on the first prompt
	samples map[string]runlog.Sample // last record per ID
	order   []string                 // first-seen order of IDs
}

// Open opens (creating if needed) the run directory dir. An existing sample
// log is read back; a torn final line left by a killed process is cut off so
// that new records start on a fresh line.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("run store: %w", err)
	}
	path := filepath.Join(dir, runlog.SamplesFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("run store: %w", err)
	}
	s := &Store{dir: dir, f: f, samples: map[string]runlog.Sample{}}
	if err := s.load(); err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

// load reads the log and truncates any torn tail.
func (s *Store) load() error {
	name := filepath.Join(s.dir, runlog.SamplesFile)
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("run store: %w", err)
	}
	br := bufio.NewReaderSize(s.f, 1<<16)
	var good int64 // offset just past the last complete, valid line
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		complete := err == nil
		if complete && len(bytes.TrimSpace(b)) > 0 {
			var rec runlog.Sample
			if jerr := json.Unmarshal(b, &rec); jerr != nil {
				return fmt.Errorf("%s:%d: %w", name, line, jerr)
			}
			s.put(rec)
		}
		if complete {
			good += int64(len(b))
			continue
		}
		if errors.Is(err, io.EOF) {
			break
		}
		return fmt.Errorf("%s:%d: %w", name, line, err)
	}
	if err := s.f.Truncate(good); err != nil {
		return fmt.Errorf("run store: truncate torn tail: %w", err)
	}
	if _, err := s.f.Seek(good, io.SeekStart); err != nil {
		return fmt.Errorf("run store: %w", err)
	}
	return nil
}

func (s *Store) put(rec runlog.Sample) {
	if _, ok := s.samples[rec.ID]; !ok {
		s.order = append(s.order, rec.ID)
	}
	s.samples[rec.ID] = rec
}

// Dir is the run directory.
func (s *Store) Dir() string { return s.dir }

// Done reports whether sample id finished without error.
func (s *Store) Done(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.samples[id]
	return ok && rec.Error == ""
}

// Counts returns how many samples are finished and how many errored.
func (s *Store) Counts() (done, errored int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.samples {
		if r.Error == "" {
			done++
		} else {
			errored++
		}
	}
	return done, errored
}

// Append writes one record and fsyncs it before returning, so a record that
// Append acknowledged survives a crash. The record's prompt, when set, goes to
// prompts.jsonl first, so an acknowledged sample always has its prompt.
func (s *Store) Append(rec runlog.Sample) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("run store: encode %s: %w", rec.ID, err)
	}
	b = append(b, '\n')
	var pl []byte
	if rec.Prompt != "" {
		if pl, err = runlog.EncodePrompt(rec.ID, rec.Prompt); err != nil {
			return fmt.Errorf("run store: %w", err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if pl != nil {
		if err := s.appendPrompt(pl); err != nil {
			return err
		}
	}
	if _, err := s.f.Write(b); err != nil {
		return fmt.Errorf("run store: append %s: %w", rec.ID, err)
	}
	if err := s.f.Sync(); err != nil {
		return fmt.Errorf("run store: fsync: %w", err)
	}
	s.put(rec)
	return nil
}

// Samples returns the current record of every sample, in first-seen order.
func (s *Store) Samples() []runlog.Sample {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]runlog.Sample, 0, len(s.order))
	for _, id := range s.order {
		out = append(out, s.samples[id])
	}
	return out
}

// Compact rewrites the log with one record per ID in the given order (IDs not
// in order follow, sorted), so that a finished run's log does not depend on
// goroutine scheduling or on where an earlier process was killed. The rewrite
// is atomic: a temp file is fsync'd and renamed over the log.
func (s *Store) Compact(order []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	rank := make(map[string]int, len(order))
	for i, id := range order {
		rank[id] = i
	}
	ids := append([]string(nil), s.order...)
	sort.SliceStable(ids, func(i, j int) bool {
		ri, iok := rank[ids[i]]
		rj, jok := rank[ids[j]]
		switch {
		case iok && jok:
			return ri < rj
		case iok != jok:
			return iok
		default:
			return ids[i] < ids[j]
		}
	})
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, id := range ids {
		rec := s.samples[id]
		b, err := json.Marshal(rec)
		if err != nil {
			return fmt.Errorf("run store: encode %s: %w", id, err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	if err := s.compactPrompts(ids); err != nil {
		return err
	}
	path := filepath.Join(s.dir, runlog.SamplesFile)
	if err := WriteFileAtomic(path, buf.Bytes()); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("run store: reopen: %w", err)
	}
	s.f.Close()
	s.f = f
	s.order = ids
	return nil
}

// Close closes the log.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.prompts != nil {
		s.prompts.Close()
		s.prompts = nil
	}
	return s.f.Close()
}

// appendPrompt appends one prompts.jsonl line; the caller holds mu. On first
// use a torn tail left by a killed process is cut back to the last newline so
// the new line starts fresh. The sample's own fsync follows, so the prompt
// reaches disk no later than the sample.
func (s *Store) appendPrompt(line []byte) error {
	if s.prompts == nil {
		path := filepath.Join(s.dir, runlog.PromptsFile)
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return fmt.Errorf("run store: %w", err)
		}
		end, err := completeLength(f)
		if err == nil {
			err = f.Truncate(end)
		}
		if err == nil {
			_, err = f.Seek(end, io.SeekStart)
		}
		if err != nil {
			f.Close()
			return fmt.Errorf("run store: %s: %w", path, err)
		}
		s.prompts = f
	}
	if _, err := s.prompts.Write(line); err != nil {
		return fmt.Errorf("run store: append prompt: %w", err)
	}
	if err := s.prompts.Sync(); err != nil {
		return fmt.Errorf("run store: fsync prompts: %w", err)
	}
	return nil
}

// completeLength is the length of f up to and including its last newline.
func completeLength(f *os.File) (int64, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	br := bufio.NewReaderSize(f, 1<<16)
	var n, good int64
	for {
		b, err := br.ReadBytes('\n')
		n += int64(len(b))
		if err == nil {
			good = n
			continue
		}
		if errors.Is(err, io.EOF) {
			return good, nil
		}
		return 0, err
	}
}

// compactPrompts rewrites prompts.jsonl with the last line of every ID in ids
// order (lines of IDs not in ids are dropped); the caller holds mu. It
// streams line by line so prompts never all sit in memory at once.
func (s *Store) compactPrompts(ids []string) error {
	path := filepath.Join(s.dir, runlog.PromptsFile)
	if s.prompts != nil {
		s.prompts.Close()
		s.prompts = nil
	}
	idx, err := runlog.IndexPrompts(path)
	if err != nil || len(idx) == 0 {
		return err
	}
	src, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("run store: %w", err)
	}
	defer src.Close()
	tmp, err := os.CreateTemp(s.dir, "."+runlog.PromptsFile+".tmp*")
	if err != nil {
		return fmt.Errorf("run store: %w", err)
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriterSize(tmp, 1<<16)
	for _, id := range ids {
		sp, ok := idx[id]
		if !ok {
			continue
		}
		if _, err := io.Copy(w, io.NewSectionReader(src, sp.Off, sp.Len)); err != nil {
			tmp.Close()
			return fmt.Errorf("run store: compact prompts: %w", err)
		}
	}
	if err := w.Flush(); err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("run store: compact prompts: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("run store: compact prompts: %w", err)
	}
	return nil
}

// WriteJSON writes v as indented JSON to name inside the run directory, atomically.
func (s *Store) WriteJSON(name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("run store: encode %s: %w", name, err)
	}
	path := filepath.Join(s.dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("run store: %w", err)
	}
	return WriteFileAtomic(path, append(b, '\n'))
}

// ReadJSON reads name inside the run directory into v. It reports false when
// the file does not exist.
func (s *Store) ReadJSON(name string, v any) (bool, error) {
	path := filepath.Join(s.dir, name)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("run store: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	return true, nil
}

// WriteFileAtomic writes data to path through a synced temp file and a rename.
func WriteFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
