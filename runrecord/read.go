package runrecord

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// File names inside a run directory.
const (
	ManifestFile = "manifest.json"
	SamplesFile  = "samples.jsonl"
	UsageFile    = "usage.json"
)

// ReadSamples reads a samples.jsonl file. Records are keyed by ID and the last
// record of an ID wins (an errored attempt may be followed by its retry). A
// torn final line — the mark of a process killed mid-write — is ignored; a
// malformed line elsewhere is an error naming the line.
func ReadSamples(path string) ([]Sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read samples: %w", err)
	}
	defer f.Close()
	return DecodeSamples(f, path)
}

// DecodeSamples is ReadSamples over a reader; name is used in errors.
func DecodeSamples(r io.Reader, name string) ([]Sample, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	index := map[string]int{}
	var out []Sample
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(b)) > 0 {
			var s Sample
			if jerr := json.Unmarshal(b, &s); jerr != nil {
				if errors.Is(err, io.EOF) { // torn last line, no newline
					break
				}
				return nil, fmt.Errorf("%s:%d: %w", name, line, jerr)
			}
			if i, ok := index[s.ID]; ok {
				out[i] = s
			} else {
				index[s.ID] = len(out)
				out = append(out, s)
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	return out, nil
}

// ReadManifest reads manifest.json, with the warnings stored beside it
// (warnings.json) added.
func ReadManifest(path string) (Manifest, error) {
	var m Manifest
	b, err := os.ReadFile(path)
	if err != nil {
		return m, fmt.Errorf("read manifest: %w", err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("%s: %w", path, err)
	}
	w, _, err := ReadWarnings(filepath.Dir(path))
	if err != nil {
		return m, err
	}
	w.apply(&m)
	return m, nil
}
