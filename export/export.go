package export

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Write exports the finished run in dir, in each of formats, under out
// (out/inspect/, out/eee/, out/lmeval/), and returns the files written.
// It reads only what the run wrote; it never calls a model.
func Write(dir, out string, formats []string) ([]string, error) {
	for _, f := range formats {
		if !slices.Contains(formatNames, f) {
			return nil, fmt.Errorf("unknown export format %q (known: %s)", f, strings.Join(formatNames, ", "))
		}
	}
	r, err := open(dir)
	if err != nil {
		return nil, err
	}
	cs, err := openCalls(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	defer cs.Close()
	var files []string
	for _, f := range formats {
		var fs []string
		sub := filepath.Join(out, f)
		switch f {
		case FormatInspect:
			fs, err = r.writeInspect(cs, sub)
		case FormatEEE:
			fs, err = r.writeEEE(cs, sub)
		case FormatLMEval:
			fs, err = r.writeLMEval(cs, sub)
		}
		files = append(files, fs...)
		if err != nil {
			return files, fmt.Errorf("export %s as %s: %w", dir, f, err)
		}
	}
	return files, nil
}
