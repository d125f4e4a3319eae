package memqa

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/memharness/memharness/internal/safefile"
)

// ErrNotFound is wrapped by Load when the file is not there, so a caller
// can add where to pass another location.
var ErrNotFound = errors.New("conversational-memory data not found")

// DefaultFile is the file Load reads when given a folder: the one `bench
// data fetch` leaves there for the benchmark (LongMemEval: the _s file, the
// one the papers report on).
func DefaultFile(b Benchmark) string {
	if b == LongMemEval {
		return LongMemEvalS
	}
	return LoCoMoFile
}

// Load reads a file of benchmark b from path: the file itself, or a folder
// holding DefaultFile(b). A missing file is an error naming the command
// that fetches it.
func Load(b Benchmark, path string) (Dataset, error) {
	if b != LoCoMo && b != LongMemEval {
		return Dataset{}, fmt.Errorf("unknown conversational-memory benchmark %q (known: %s, %s)", b, LoCoMo, LongMemEval)
	}
	// A folder, or a path that is not there and names no .json file, is
	// the folder the file should be in: the error then names the file.
	if st, err := os.Stat(path); err == nil && st.IsDir() || err != nil && filepath.Ext(path) != ".json" {
		path = filepath.Join(path, DefaultFile(b))
	}
	if b == LongMemEval {
		// Streamed: longmemeval_m is 2.7 GB.
		f, err := safefile.Open(path, 0)
		if err != nil {
			return Dataset{}, openError(b, err)
		}
		defer f.Close()
		return ReadLongMemEval(path, f)
	}
	data, err := safefile.ReadFile(path, 0)
	if err != nil {
		return Dataset{}, openError(b, err)
	}
	return DecodeLoCoMo(path, data)
}

// openError is a data file that could not be read, naming the fetch
// command when it is missing.
func openError(b Benchmark, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w: %w; %s", b, ErrNotFound, err, FetchHint(b))
	}
	return fmt.Errorf("%s: %w", b, err)
}

// FetchHint says how to obtain benchmark b's official files.
func FetchHint(b Benchmark) string {
	return fmt.Sprintf("run 'bench data fetch %s' to download the pinned release (not shipped: its licence does not allow it)", b)
}

// Benchmarks lists the benchmarks this package reads, as `bench data`
// names them.
func Benchmarks() []Benchmark { return []Benchmark{LoCoMo, LongMemEval} }

// Names are the benchmarks' names as commands take them.
func Names() []string {
	var names []string
	for _, b := range Benchmarks() {
		names = append(names, string(b))
	}
	return names
}

// Find looks a benchmark up by its name.
func Find(name string) (Benchmark, bool) {
	for _, b := range Benchmarks() {
		if string(b) == name {
			return b, true
		}
	}
	return "", false
}

// FetchDir is where `bench data fetch` puts benchmark b's files below the
// data cache, and where Load looks by default.
func FetchDir(cache string, b Benchmark) string { return filepath.Join(cache, string(b)) }
