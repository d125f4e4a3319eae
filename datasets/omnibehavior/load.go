package omnibehavior

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/memharness/memharness/internal/safefile"
)

// ErrNotFound is wrapped by Load when no dataset is found at the path.
var ErrNotFound = errors.New("omnibehavior dataset not found")

// FetchHint tells a user how to obtain the dataset. It names no flag: each
// verb adds how it takes the location.
const FetchHint = "download the release's raw_user_data/en and raw_user_data/zh folders from the Hugging Face dataset jiawei-ucas/OmniBehavior " +
	"(gated: accept its licence), then give the location of a folder of per-user JSON files, a users JSON file, or PraMem's experiment_data.json"

// Languages of the release folders and of question texts.
const (
	LangZH = "zh"
	LangEN = "en"
)

// OffsetsFile is the release's table of per-user sampler seed offsets; it
// sits next to the user files and is not a user file.
const OffsetsFile = "seed_offsets.json"

// Dataset is what Load read.
type Dataset struct {
	// Users are sorted by ID. For an experiment file, a user's Records are
	// its base_history followed by its test_time_all_actions.
	Users []User
	// Splits are the prebuilt instances of an experiment_data.json (nil
	// for raw traces); BuildInstances uses them instead of resampling.
	Splits []Split
	// Metadata is the experiment file's metadata object (null otherwise).
	Metadata Value
	// Files are the files read, in order.
	Files []string
	// Errors are the files (or users within a file) that could not be
	// read; the rest of the dataset is still usable.
	Errors []FileError
}

// FileError is a bad user file, or a bad user within a file.
type FileError struct {
	File string
	// User is the user ID when the error concerns one user of the file.
	User string
	Err  error
}

func (e FileError) Error() string { return e.File + ": " + e.Err.Error() }
func (e FileError) Unwrap() error { return e.Err }

// Load reads OmniBehavior users from path, which is one of:
//
//   - a directory of per-user *.json files (the release layout), each
//     mapping user ID → {user_profile, action_history}; a directory that
//     holds only the language folders en/ and zh/ is read through the one
//     named by lang ("" means zh, the reference's default input);
//   - one JSON file mapping many user IDs to users;
//   - PraMem's prebuilt experiment_data.json (metadata + users with
//     base_history, test_time_all_actions and test_actions).
//
// A malformed file, or a malformed user inside a file, is reported in
// Dataset.Errors (naming the file and the JSON path of the bad value) and
// skipped; the other users load. The error result is reserved for a
// missing dataset (wrapping ErrNotFound) and for a path from which no user
// at all could be read.
func Load(path, lang string) (*Dataset, error) { return LoadWith(path, lang, LoadOptions{}) }

// LoadWith is Load with options. A file holding a record over
// opts.MaxRecordBytes is reported in Dataset.Errors and skipped before it is
// decoded, so a pathological line costs no more memory than its file.
func LoadWith(path, lang string, opts LoadOptions) (*Dataset, error) {
	switch lang {
	case "":
		lang = LangZH
	case LangZH, LangEN:
	default:
		return nil, fmt.Errorf("omnibehavior: unknown language %q (want zh or en)", lang)
	}
	files, err := findFiles(path, lang)
	if err != nil {
		return nil, err
	}
	results := make([]fileResult, len(files))
	workers := min(runtime.GOMAXPROCS(0), len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			// One reader per worker: its buffers serve every file it reads.
			r := fileReader{maxRecord: opts.maxRecord()}
			for i := range next {
				results[i] = r.load(files[i])
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()

	d := &Dataset{Files: files}
	seen := make(map[string]string)
	for _, res := range results {
		d.Errors = append(d.Errors, res.errs...)
		for _, u := range res.users {
			if prev, dup := seen[u.ID]; dup {
				d.Errors = append(d.Errors, FileError{File: u.Source, User: u.ID,
					Err: fmt.Errorf("user %s: already read from %s; this copy is skipped", u.ID, prev)})
				continue
			}
			seen[u.ID] = u.Source
			d.Users = append(d.Users, u)
		}
		d.Splits = append(d.Splits, res.splits...)
		if res.meta.Kind() != KindNull {
			d.Metadata = res.meta
		}
	}
	slices.SortFunc(d.Users, func(a, b User) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(d.Splits, func(a, b Split) int { return strings.Compare(a.User, b.User) })
	if len(d.Users) == 0 && len(d.Errors) > 0 {
		return d, fmt.Errorf("omnibehavior: no user could be read from %s (%d errors; first: %w)", path, len(d.Errors), d.Errors[0])
	}
	return d, nil
}

// findFiles lists the JSON files to read at path.
func findFiles(path, lang string) ([]string, error) {
	notFound := fmt.Errorf("omnibehavior: no user JSON files at %q: %w; %s", path, ErrNotFound, FetchHint)
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notFound
	}
	if err != nil {
		return nil, fmt.Errorf("omnibehavior: %w", err)
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	files, err := jsonFiles(path)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		sub := filepath.Join(path, lang)
		if st, err := os.Stat(sub); err == nil && st.IsDir() {
			if files, err = jsonFiles(sub); err != nil {
				return nil, err
			}
		}
	}
	if len(files) == 0 {
		return nil, notFound
	}
	return files, nil
}

// jsonFiles lists dir/*.json (sorted), leaving out the seed offsets table.
func jsonFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("omnibehavior: %w", err)
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.EqualFold(filepath.Ext(name), ".json") || name == OffsetsFile {
			continue
		}
		out = append(out, filepath.Join(dir, name))
	}
	return out, nil
}

type fileResult struct {
	users  []User
	splits []Split
	meta   Value
	errs   []FileError
}

// fileReader reads and decodes files one after the other, reusing its
// buffers: a file's bytes live only until it is parsed (what a user keeps
// is copied into its compact document), so the loader holds about one file
// per worker beyond the dataset itself.
type fileReader struct {
	p         jsonParser
	src       []byte
	maxRecord int64
}

func (r *fileReader) load(file string) fileResult {
	if err := r.read(file); err != nil {
		return fileResult{errs: []FileError{{File: file, Err: err}}}
	}
	if err := checkRecordSizes(r.src, LoadOptions{MaxRecordBytes: r.maxRecord}.maxRecord()); err != nil {
		r.src = nil // a buffer that large is not kept for the next file
		return fileResult{errs: []FileError{{File: file, Err: err}}}
	}
	return r.p.decodeFile(r.src, file)
}

// read reads file into r.src.
func (r *fileReader) read(file string) error {
	f, err := safefile.Open(file, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	r.src = r.src[:0]
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		r.src = slices.Grow(r.src, int(st.Size())+1)
	}
	for {
		if len(r.src) == cap(r.src) {
			r.src = slices.Grow(r.src, 64<<10)
		}
		n, err := f.Read(r.src[len(r.src):cap(r.src)])
		r.src = r.src[:len(r.src)+n]
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// decodeFile decodes the contents of one file: a users map or an
// experiment file.
func (p *jsonParser) decodeFile(src []byte, file string) fileResult {
	var res fileResult
	v, err := p.parse(src)
	if err != nil {
		res.errs = append(res.errs, FileError{File: file, Err: err})
		return res
	}
	if v.Kind() != KindObject { // the document is dropped unfinished; p reuses its buffers
		res.errs = append(res.errs, FileError{File: file, Err: fmt.Errorf("top level: want an object of users, got %s", v.describe())})
		return res
	}
	top := v.Fields()
	if isExperiment(top) {
		return decodeExperiment(p, top, file)
	}
	good := make([]bool, top.Count())
	for i, m := range top.All() {
		if err := checkUser(m.Key, m.Val); err != nil {
			res.errs = append(res.errs, FileError{File: file, User: m.Key, Err: err})
			continue
		}
		good[i] = true
	}
	p.finish(v.d)
	for i, m := range top.All() {
		if good[i] {
			res.users = append(res.users, buildUser(m.Key, m.Val, file))
		}
	}
	return res
}

// isExperiment recognises PraMem's experiment_data.json: a "users" array
// (a users map has objects as values).
func isExperiment(f Fields) bool {
	u, ok := f.Get("users")
	return ok && u.Kind() == KindArray
}
