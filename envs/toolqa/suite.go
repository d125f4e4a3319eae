package toolqa

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/safefile"
)

// Name is the environment's registry name.
const Name = "toolqa"

// MaxSteps is the paper's step limit (the LifeMem code uses 12).
const MaxSteps = 20

// Data files, as named in the fixture folder (and by FetchSpec).
const (
	CSVFile     = "coffee_price.csv"
	EasyFile    = "coffee-easy.jsonl"
	HardFile    = "coffee-hard.jsonl"
	LifeMemFile = "lifemem_test_coffee_sql.jsonl"
)

// questionFiles are read in this order; each is optional, but a directory
// must hold at least one.
var questionFiles = []struct{ name, source string }{
	{EasyFile, SourceToolQA},
	{HardFile, SourceToolQA},
	{LifeMemFile, SourceLifeMem},
}

// ErrNoData is wrapped when a directory lacks the CSV or every question file.
var ErrNoData = fmt.Errorf("toolqa data not found (run `bench data fetch toolqa`): %w", envs.ErrNoData)

// Suite is the coffee environment with its questions.
type Suite struct {
	table  *Table
	image  []byte // serialised SQLite database every episode copies
	tasks  []envs.Task
	limits Limits
}

var (
	_ envs.Suite  = (*Suite)(nil)
	_ envs.Oracle = (*Suite)(nil)
)

// Open loads the official data from dir: coffee_price.csv and any of
// coffee-easy.jsonl, coffee-hard.jsonl (ToolQA) and
// lifemem_test_coffee_sql.jsonl (LifeMem's test set).
func Open(dir string) (*Suite, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("toolqa: %w: %w", ErrNoData, err)
	}
	return openFS(safefile.FS(os.DirFS(dir), 0), dir, questionFiles)
}

// openFS loads a suite from fsys; prefix names files in errors.
func openFS(fsys fs.FS, prefix string, files []struct{ name, source string }) (*Suite, error) {
	f, err := fsys.Open(CSVFile)
	if err != nil {
		return nil, fmt.Errorf("toolqa: %w: %w", ErrNoData, err)
	}
	table, err := ReadTable(f, path.Join(prefix, CSVFile))
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("toolqa: %w", err)
	}
	var qs []Question
	for _, qf := range files {
		f, err := fsys.Open(qf.name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("toolqa: %w", err)
		}
		got, err := ReadQuestions(f, path.Join(prefix, qf.name), qf.source)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("toolqa: %w", err)
		}
		qs = append(qs, got...)
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("toolqa: %w: no question file in %s", ErrNoData, prefix)
	}
	return New(table, qs)
}

// New builds a suite over table with the given questions. Task IDs are
// "<source>/<qid>" (the official and LifeMem files reuse qids).
func New(table *Table, qs []Question) (*Suite, error) {
	image, err := buildImage(context.Background(), table)
	if err != nil {
		return nil, fmt.Errorf("toolqa: %w", err)
	}
	s := &Suite{table: table, image: image, limits: DefaultLimits()}
	seen := map[string]bool{}
	for _, q := range qs {
		id := q.Source + "/" + q.QID
		if seen[id] {
			return nil, fmt.Errorf("toolqa: duplicate task %s", id)
		}
		seen[id] = true
		t := envs.Task{ID: id, Env: Name, Instruction: q.Question, Difficulty: difficulty(q.QID), Data: &q}
		if q.Source == SourceLifeMem {
			t.Split = "test"
		}
		s.tasks = append(s.tasks, t)
	}
	return s, nil
}

// difficulty is 1 for ToolQA's easy questions, 2 for hard ones.
func difficulty(qid string) int {
	switch {
	case len(qid) >= 4 && qid[:4] == "easy":
		return 1
	case len(qid) >= 4 && qid[:4] == "hard":
		return 2
	}
	return 0
}

// Name implements envs.Suite.
func (s *Suite) Name() string { return Name }

// Tasks implements envs.Suite.
func (s *Suite) Tasks() []envs.Task { return append([]envs.Task(nil), s.tasks...) }

// MaxSteps implements envs.Suite.
func (s *Suite) MaxSteps() int { return MaxSteps }

// Table returns the price table the suite answers from.
func (s *Suite) Table() *Table { return s.table }

// WithLimits returns a copy of s whose episodes use lim.
func (s *Suite) WithLimits(lim Limits) *Suite {
	c := *s
	c.limits = lim
	return &c
}

// Subset returns a copy of s with only the tasks of one source (e.g.
// SourceLifeMem, the SQL-only test set LifeMem reports on).
func (s *Suite) Subset(source string) *Suite {
	c := *s
	c.tasks = nil
	for _, t := range s.tasks {
		if t.Data.(*Question).Source == source {
			c.tasks = append(c.tasks, t)
		}
	}
	return &c
}

// question returns t's record, checking it belongs to this environment.
func question(t envs.Task) (*Question, error) {
	q, ok := t.Data.(*Question)
	if !ok || q == nil {
		return nil, fmt.Errorf("toolqa: task %q does not come from this environment", t.ID)
	}
	return q, nil
}

// NewEpisode implements envs.Suite. The SQLite copy is made on the first
// SQLInterpreter call, so episodes that never use SQL cost nothing.
func (s *Suite) NewEpisode(_ context.Context, t envs.Task, _ envs.Options) (envs.Episode, error) {
	q, err := question(t)
	if err != nil {
		return nil, err
	}
	return &episode{suite: s, q: q, frame: frame{table: s.table}}, nil
}
