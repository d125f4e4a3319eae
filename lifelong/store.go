package lifelong

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/atomicfile"
	"github.com/memharness/memharness/runrecord"
)

// Stage names of cells outside the stream.
const (
	StageSelf = "self"
	StageOOD  = "ood"
)

// StageName is the directory name of stream stage j (1-based): "01", "02"...
func StageName(j int) string { return fmt.Sprintf("%02d", j) }

// CellKey identifies one evaluation cell.
type CellKey = runrecord.LifelongCellKey

// TaskResult is one episode of a cell.
type TaskResult = runrecord.LifelongTask

// CellResult is the evaluation of one test set at one point of the stream
// (cells/<stage>/<env>.json), with its episodes' transcripts, which are
// stored beside it.
type CellResult = runrecord.LifelongCell[envs.Transcript]

// StageRecord marks a learned stage: written after EndStage and Save, so
// its presence means the method's saved state includes the stage.
type StageRecord = runrecord.LifelongStage

// CellStore persists cells and stage records so a run resumes where it
// stopped. Load and LoadStage report ok=false for what was never saved.
type CellStore interface {
	Load(key CellKey) (CellResult, bool, error)
	Save(c CellResult) error
	LoadStage(stage int) (StageRecord, bool, error)
	SaveStage(r StageRecord) error
}

// FileStore is the CellStore of one method's directory
// (lifelong/<method>/ of a run; see the package documentation).
type FileStore struct {
	Dir string
	// Commit writes a cell or stage record file (default WriteFileAtomic).
	Commit func(path string, data []byte) error
}

// commit writes one commit file as JSON.
func (f FileStore) commit(path string, v any) error {
	if f.Commit == nil {
		return writeJSON(path, v)
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return f.Commit(path, append(b, '\n'))
}

func (f FileStore) cellPath(k CellKey) string {
	return filepath.Join(f.Dir, "cells", k.Stage, k.Env+".json")
}

func (f FileStore) transcriptPath(k CellKey) string {
	return filepath.Join(f.Dir, "transcripts", k.Stage, k.Env+".jsonl")
}

func (f FileStore) stagePath(j int) string {
	return filepath.Join(f.Dir, "stages", StageName(j)+".json")
}

// Load reads a cell and its transcripts.
func (f FileStore) Load(k CellKey) (CellResult, bool, error) {
	var c CellResult
	ok, err := readJSON(f.cellPath(k), &c)
	if !ok || err != nil {
		return CellResult{}, false, err
	}
	if c.Stage != k.Stage || c.Env != k.Env {
		return CellResult{}, false, fmt.Errorf("%s: holds cell %s, want %s", f.cellPath(k), c.Key(), k)
	}
	trs, err := readTranscripts(f.transcriptPath(k))
	if err != nil {
		return CellResult{}, false, err
	}
	c.Transcripts = trs
	return c, true, nil
}

// Save writes the transcripts, then the cell (the cell file commits it).
func (f FileStore) Save(c CellResult) error {
	if err := validName(c.Stage); err != nil {
		return fmt.Errorf("save cell: stage: %w", err)
	}
	if err := validName(c.Env); err != nil {
		return fmt.Errorf("save cell: env: %w", err)
	}
	var buf bytes.Buffer
	for _, t := range c.Transcripts {
		b, err := json.Marshal(t)
		if err != nil {
			return fmt.Errorf("save cell %s: transcript %s: %w", c.Key(), t.Task, err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	if err := WriteFileAtomic(f.transcriptPath(c.Key()), buf.Bytes()); err != nil {
		return fmt.Errorf("save cell %s: %w", c.Key(), err)
	}
	if err := f.commit(f.cellPath(c.Key()), c); err != nil {
		return fmt.Errorf("save cell %s: %w", c.Key(), err)
	}
	return nil
}

// LoadStage reads stage j's record.
func (f FileStore) LoadStage(j int) (StageRecord, bool, error) {
	var r StageRecord
	ok, err := readJSON(f.stagePath(j), &r)
	if !ok || err != nil {
		return StageRecord{}, false, err
	}
	return r, true, nil
}

// SaveStage writes stage r.Stage's record.
func (f FileStore) SaveStage(r StageRecord) error {
	if err := f.commit(f.stagePath(r.Stage), r); err != nil {
		return fmt.Errorf("save stage %d: %w", r.Stage, err)
	}
	return nil
}

// validName keeps keys from escaping the store's directory.
func validName(s string) error {
	if !safeName.MatchString(s) || strings.Contains(s, "..") {
		return fmt.Errorf("%q is not a safe file name", s)
	}
	return nil
}

// WriteFileAtomic writes b to path, creating its directory, through a
// synced temporary file and a rename (atomicfile.Write), so readers never
// see a partial file.
func WriteFileAtomic(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return atomicfile.Write(path, b)
}

// writeJSON writes v indented with a final newline (stable bytes).
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return WriteFileAtomic(path, append(b, '\n'))
}

// readJSON decodes path into v; ok is false when the file does not exist.
func readJSON(path string, v any) (bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	return true, nil
}

func readTranscripts(path string) ([]envs.Transcript, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []envs.Transcript
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 64<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var t envs.Transcript
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		out = append(out, t)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
