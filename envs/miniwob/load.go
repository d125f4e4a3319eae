package miniwob

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memharness/memharness/internal/safefile"
)

// embeddedFS is our own task suite: MiniWoB-style pages plus tasks.json.
//
//go:embed pages/*.html pages/tasks.json
var embeddedFS embed.FS

// taskList is the native task-list format of the embedded suite.
type taskList struct {
	Note  string `json:"note"`
	Tasks []struct {
		Page  string  `json:"page"`
		Seeds []int64 `json:"seeds"`
	} `json:"tasks"`
}

// Embedded returns the suite written by us (8 pages × 2 seeds), with the
// default Config.
func Embedded() (*Suite, error) { return EmbeddedConfig(Config{}) }

// EmbeddedConfig is Embedded with a Config.
func EmbeddedConfig(cfg Config) (*Suite, error) {
	pages, _ := fs.Sub(embeddedFS, "pages")
	raw, err := fs.ReadFile(pages, "tasks.json")
	if err != nil {
		return nil, fmt.Errorf("miniwob: embedded tasks.json: %w", err)
	}
	root := mountFS{prefix: "miniwob", fsys: pages}
	list, titles, err := parseTaskList("tasks.json", raw, root)
	if err != nil {
		return nil, err
	}
	return newSuite(root, list, titles, cfg, true), nil
}

// parseTaskList decodes a tasks.json and checks every page exists below
// root (as miniwob/<page>.html).
func parseTaskList(file string, raw []byte, root fs.FS) ([]taskData, map[string]string, error) {
	var tl taskList
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&tl); err != nil {
		return nil, nil, fmt.Errorf("miniwob: %s%s: %w", file, jsonLine(raw, err), err)
	}
	titles := map[string]string{}
	var out []taskData
	for i, t := range tl.Tasks {
		field := fmt.Sprintf("%s: tasks[%d]", file, i)
		if t.Page == "" || strings.ContainsAny(t.Page, `/\`) {
			return nil, nil, fmt.Errorf("miniwob: %s.page: %q is not a page name", field, t.Page)
		}
		if len(t.Seeds) == 0 {
			return nil, nil, fmt.Errorf("miniwob: %s.seeds: empty", field)
		}
		src, err := fs.ReadFile(root, "miniwob/"+t.Page+".html")
		if err != nil {
			return nil, nil, fmt.Errorf("miniwob: %s.page: %w", field, err)
		}
		titles[t.Page] = pageTitle(string(src))
		for _, seed := range t.Seeds {
			out = append(out, taskData{Page: t.Page, Seed: seed, Turns: turnsFor(t.Page)})
		}
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("miniwob: %s: no tasks", file)
	}
	return out, titles, nil
}

// jsonLine turns a decoding error's byte offset into ":line N".
func jsonLine(raw []byte, err error) string {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(raw)) {
		return ""
	}
	return fmt.Sprintf(":%d", 1+bytes.Count(raw[:off], []byte("\n")))
}

// Open reads the task pages of a MiniWoB++ checkout with the default Config.
// dir may be the repository root (pages in miniwob/html/miniwob/, or
// html/miniwob/ in older layouts) or the html folder itself. The checkout's
// core/core.js is never loaded: our runtime replaces it; its other files
// (common/ui_utils.js, core/core.css, ...) are served as they are.
func Open(dir string) (*Suite, error) { return OpenConfig(dir, Config{}) }

// OpenConfig is Open with a Config (Config.Seeds picks the episodes).
func OpenConfig(dir string, cfg Config) (*Suite, error) {
	cfg = cfg.withDefaults()
	root, err := findHTMLRoot(dir)
	if err != nil {
		return nil, err
	}
	fsys := safefile.FS(os.DirFS(root), 0)
	names, err := fs.Glob(fsys, "miniwob/*.html")
	if err != nil {
		return nil, fmt.Errorf("miniwob: list %s: %w", root, err)
	}
	sort.Strings(names)
	titles := map[string]string{}
	skipped := map[string]string{}
	var list []taskData
	for _, name := range names {
		file := filepath.Join(root, filepath.FromSlash(name))
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("miniwob: %s: %w", file, err)
		}
		page := strings.TrimSuffix(path.Base(name), ".html")
		if why := checkPage(string(src)); why != "" {
			skipped[file] = why
			continue
		}
		titles[page] = pageTitle(string(src))
		for _, seed := range cfg.Seeds {
			list = append(list, taskData{Page: page, Seed: seed, Turns: turnsFor(page)})
		}
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("miniwob: %s: no MiniWoB++ task pages in miniwob/*.html (%d skipped)", root, len(skipped))
	}
	s := newSuite(fsys, list, titles, cfg, false)
	s.skipped = skipped
	return s, nil
}

// checkPage says why a page is not a MiniWoB++ task ("" when it is one).
func checkPage(src string) string {
	switch {
	case !strings.Contains(src, "core/core.js"):
		return "does not load ../core/core.js"
	case !strings.Contains(src, "genProblem"):
		return "defines no genProblem"
	case !strings.Contains(src, `id="query"`) && !strings.Contains(src, `id='query'`) && !strings.Contains(src, "#query"):
		return `has no #query element`
	}
	return ""
}

// findHTMLRoot locates the folder that holds miniwob/*.html.
func findHTMLRoot(dir string) (string, error) {
	var tried []string
	for _, c := range []string{filepath.Join(dir, "miniwob", "html"), filepath.Join(dir, "html"), dir} {
		tried = append(tried, c)
		if m, _ := filepath.Glob(filepath.Join(c, "miniwob", "*.html")); len(m) > 0 {
			return c, nil
		}
	}
	return "", fmt.Errorf("miniwob: no task pages found in %s (want <checkout>/miniwob/html/miniwob/*.html; fetch with `bench data fetch miniwob`)",
		strings.Join(tried, ", "))
}

// mountFS shows fsys under prefix/ (the embedded pages as miniwob/*.html).
type mountFS struct {
	prefix string
	fsys   fs.FS
}

func (m mountFS) Open(name string) (fs.File, error) {
	rest, ok := strings.CutPrefix(name, m.prefix+"/")
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return m.fsys.Open(rest)
}
