package batch

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/memharness/memharness/internal/atomicfile"
)

// ChatURL is the endpoint every line of a wave names.
const ChatURL = "/v1/chat/completions"

// InputLine is one request of a batch input file: OpenAI's format, which
// vLLM's run-batch reads as it is.
type InputLine struct {
	CustomID string          `json:"custom_id"`
	Method   string          `json:"method"`
	URL      string          `json:"url"`
	Body     json.RawMessage `json:"body"`
}

// OutputLine is one line of a batch output or error file (OpenAI's and
// run-batch's format).
type OutputLine struct {
	ID       string `json:"id,omitempty"`
	CustomID string `json:"custom_id"`
	Response *struct {
		StatusCode int             `json:"status_code"`
		RequestID  string          `json:"request_id,omitempty"`
		Body       json.RawMessage `json:"body"`
	} `json:"response"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// answer is the reply body of a line that succeeded, or why it did not.
func (l OutputLine) answer() (json.RawMessage, string) {
	switch {
	case l.Error != nil && (l.Error.Code != "" || l.Error.Message != ""):
		return nil, strings.TrimSpace(l.Error.Code + " " + l.Error.Message)
	case l.Response == nil:
		return nil, "no response"
	case l.Response.StatusCode/100 != 2:
		return nil, fmt.Sprintf("HTTP %d: %s", l.Response.StatusCode, shorten(string(l.Response.Body), 200))
	case len(l.Response.Body) == 0:
		return nil, "empty response body"
	}
	return l.Response.Body, ""
}

// parseOutput reads an output or error file's lines; line numbers in its
// errors are 1-based, named after name.
func parseOutput(name string, data []byte) ([]OutputLine, error) {
	var out []OutputLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var l OutputLine
		if err := json.Unmarshal(line, &l); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", name, n, err)
		}
		if l.CustomID == "" {
			return nil, fmt.Errorf("%s line %d: no custom_id", name, n)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// readInput reads a wave's input file, by custom id.
func readInput(path string) (map[string]InputLine, []string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	byID := map[string]InputLine{}
	var order []string
	for i, raw := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		var l InputLine
		if err := json.Unmarshal(raw, &l); err != nil {
			return nil, nil, fmt.Errorf("%s line %d: %w", path, i+1, err)
		}
		byID[l.CustomID] = l
		order = append(order, l.CustomID)
	}
	return byID, order, nil
}

// Dirs lists the batch directories under a run's batch root (one per model).
func Dirs(root string) ([]string, error) {
	ents, err := os.ReadDir(root)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			if _, err := os.Stat(filepath.Join(root, e.Name(), JournalName)); err == nil {
				out = append(out, filepath.Join(root, e.Name()))
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// Export writes the requests that wait offline (waves in StepOffline) of
// the batch directories under root as one run-batch input file on w,
// leaving out those whose purpose is not in purposes (empty: all). It
// returns how many lines it wrote.
func Export(root string, purposes []string, w io.Writer) (int, error) {
	dirs, err := Dirs(root)
	if err != nil {
		return 0, err
	}
	seen := map[string]bool{}
	n := 0
	bw := bufio.NewWriter(w)
	for _, dir := range dirs {
		waves, err := ReadJournal(dir)
		if err != nil {
			return n, err
		}
		for _, wv := range waves {
			if wv.Step != StepOffline {
				continue
			}
			lines, order, err := readInput(filepath.Join(dir, wv.File))
			if err != nil {
				return n, err
			}
			purpose := map[string]string{}
			for _, r := range wv.Requests {
				purpose[r.ID] = r.Purpose
			}
			for _, id := range order {
				if seen[id] || (len(purposes) > 0 && !slices.Contains(purposes, purpose[id])) {
					continue
				}
				seen[id] = true
				b, err := json.Marshal(lines[id])
				if err != nil {
					return n, err
				}
				bw.Write(b)
				bw.WriteByte('\n')
				n++
			}
		}
	}
	return n, bw.Flush()
}

// Import reads a run-batch output file into the waves that wait offline
// under root: each answered request is saved beside its wave and journaled,
// so the next run takes its answer instead of sending it. A line whose
// custom_id matches no waiting request is refused, naming it and its line,
// and nothing is imported. It returns how many answers it took and how
// many lines came back without an answer (those are sent again).
func Import(root, name string, data []byte) (ok, failed int, err error) {
	lines, err := parseOutput(name, data)
	if err != nil {
		return 0, 0, err
	}
	dirs, err := Dirs(root)
	if err != nil {
		return 0, 0, err
	}
	type home struct {
		dir  string
		wave WaveState
	}
	waiting := map[string][]home{}
	for _, dir := range dirs {
		waves, err := ReadJournal(dir)
		if err != nil {
			return 0, 0, err
		}
		for _, wv := range waves {
			if wv.Step != StepOffline {
				continue
			}
			for _, r := range wv.Requests {
				waiting[r.ID] = append(waiting[r.ID], home{dir, wv})
			}
		}
	}
	for i, l := range lines {
		if len(waiting[l.CustomID]) == 0 {
			return 0, 0, fmt.Errorf("%s: line %d: custom_id %q matches no request waiting in %s (a file from another run, or imported already?); nothing imported",
				name, i+1, l.CustomID, root)
		}
	}
	// Split the lines by wave and write each wave's part beside it.
	type part struct {
		h     home
		lines [][]byte
		ok    int
		bad   int
	}
	parts := map[string]*part{}
	var keys []string
	for _, l := range lines {
		b, err := json.Marshal(l)
		if err != nil {
			return 0, 0, err
		}
		for _, h := range waiting[l.CustomID] {
			k := fmt.Sprintf("%s\x00%d", h.dir, h.wave.Wave)
			p := parts[k]
			if p == nil {
				p = &part{h: h}
				parts[k] = p
				keys = append(keys, k)
			}
			p.lines = append(p.lines, b)
			if _, why := l.answer(); why == "" {
				p.ok++
			} else {
				p.bad++
			}
		}
		if _, why := l.answer(); why == "" {
			ok++
		} else {
			failed++
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := parts[k]
		out := fmt.Sprintf("wave-%04d.imported.jsonl", p.h.wave.Wave)
		path := filepath.Join(p.h.dir, out)
		prev, _ := os.ReadFile(path)
		body := append(prev, append(bytes.Join(p.lines, []byte("\n")), '\n')...)
		if err := atomicfile.Write(path, body); err != nil {
			return 0, 0, err
		}
		j, err := OpenJournal(p.h.dir)
		if err != nil {
			return 0, 0, err
		}
		if err := j.Append(Entry{Step: StepImported, Wave: p.h.wave.Wave, Status: StatusCompleted, Output: out, OK: p.ok, Failed: p.bad}); err != nil {
			return 0, 0, err
		}
	}
	return ok, failed, nil
}
