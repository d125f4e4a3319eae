package view

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"

	"github.com/memharness/memharness/runlog"
)

// readSamples reads samples.jsonl like runlog.ReadSamples (the last record
// of an ID wins, in first-seen order; a torn final line is ignored) but
// decodes the lines on every core: opening a run of 100,000 samples is the
// one slow step of the viewer.
func readSamples(base, path string) ([]runlog.Sample, error) {
	data, err := readFile(base, path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read samples: %w", err)
	}
	var lines [][]byte
	torn := false
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			lines, torn = append(lines, data), true
			break
		}
		lines = append(lines, data[:i])
		data = data[i+1:]
	}
	recs := make([]runlog.Sample, len(lines))
	ok := make([]bool, len(lines))
	errs := make([]error, len(lines))
	workers := max(1, runtime.GOMAXPROCS(0))
	chunk := (len(lines) + workers - 1) / workers
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*chunk, min((w+1)*chunk, len(lines))
		if lo >= hi {
			break
		}
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				if len(bytes.TrimSpace(lines[i])) == 0 {
					continue
				}
				if err := json.Unmarshal(lines[i], &recs[i]); err != nil {
					errs[i] = err
					continue
				}
				ok[i] = true
			}
		})
	}
	wg.Wait()
	index := make(map[string]int, len(lines))
	out := make([]runlog.Sample, 0, len(lines))
	for i := range recs {
		if errs[i] != nil {
			if torn && i == len(lines)-1 {
				break // a process killed mid-write
			}
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, errs[i])
		}
		if !ok[i] {
			continue
		}
		if j, dup := index[recs[i].ID]; dup {
			out[j] = recs[i]
			continue
		}
		index[recs[i].ID] = len(out)
		out = append(out, recs[i])
	}
	return out, nil
}
