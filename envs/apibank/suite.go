package apibank

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/safefile"
)

// Name is the registry name of the environment.
const Name = "apibank"

// MaxSteps is LifeMem's turn limit for API-Bank (five model outputs).
const MaxSteps = 5

// Suite is API-Bank levels 1 and 2 over one data directory.
type Suite struct {
	data  *dataset
	tasks []envs.Task
}

var (
	_ envs.Suite  = (*Suite)(nil)
	_ envs.Oracle = (*Suite)(nil)
)

// Open loads the official layout from dir: api_specs.json,
// init_database/*.json and lv1-lv2-samples/<subset>/*.jsonl.
func Open(dataDir string) (*Suite, error) {
	st, err := os.Stat(dataDir)
	if err != nil {
		return nil, fmt.Errorf("apibank: %w (fetch the data with `bench data fetch %s`)", err, Name)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("apibank: %s is not a directory", dataDir)
	}
	d, err := load(safefile.FS(os.DirFS(dataDir), 0))
	if err != nil {
		return nil, fmt.Errorf("apibank: %s: %w", dataDir, err)
	}
	return newSuite(d), nil
}

func newSuite(d *dataset) *Suite {
	s := &Suite{data: d}
	for _, dlg := range d.dialogues {
		s.tasks = append(s.tasks, envs.Task{
			ID: dlg.ID, Env: Name, Split: "test", Instruction: dlg.Instruction,
			Difficulty: dlg.Level, Data: dlg,
		})
	}
	return s
}

func (s *Suite) Name() string       { return Name }
func (s *Suite) MaxSteps() int      { return MaxSteps }
func (s *Suite) Tasks() []envs.Task { return append([]envs.Task(nil), s.tasks...) }

// Skipped lists sample files that gave no task (empty, or no recorded call).
func (s *Suite) Skipped() []Skipped { return append([]Skipped(nil), s.data.skipped...) }

// APIs lists the API descriptions, in file order.
func (s *Suite) APIs() []APISpec { return append([]APISpec(nil), s.data.specs...) }

func (s *Suite) dialogue(t envs.Task) (*Dialogue, error) {
	if dlg, ok := t.Data.(*Dialogue); ok {
		return dlg, nil
	}
	for _, dlg := range s.data.dialogues {
		if dlg.ID == t.ID {
			return dlg, nil
		}
	}
	return nil, fmt.Errorf("apibank: unknown task %q", t.ID)
}

// NewEpisode starts a fresh session on the initial databases.
func (s *Suite) NewEpisode(_ context.Context, t envs.Task, opts envs.Options) (envs.Episode, error) {
	dlg, err := s.dialogue(t)
	if err != nil {
		return nil, err
	}
	return &episode{
		data: s.data, dlg: dlg, seed: opts.Seed, embedder: opts.Embedder,
		mgr: newManager(s.data, opts.Seed, opts.Embedder),
		obs: Preamble + "\n\nUser: " + dlg.Instruction,
	}, nil
}

// Preamble is shown before the user's request: the call syntax and the two
// tools the agent starts with (LifeMem has it search for tools first).
const Preamble = `You help a user by calling tools from a large library. Write a call as ` +
	`[ToolName(key='value', ...)], one call per turn; the call's output comes back to you. ` +
	`Start with ToolSearcher to retrieve the description of a tool that fits the request, then call that tool. ` +
	`When the request has been handled, call [Finish()].
ToolSearcher(keywords: str): returns the best-matching tool's description (with GetUserToken's when the tool needs a token).
Finish(): ends the task.`

// Gold replays the dialogue's recorded calls, preceded by a ToolSearcher
// call when the dialogue has none first (LifeMem makes agents search first),
// and ends with [Finish()].
func (s *Suite) Gold(t envs.Task) ([]string, error) {
	dlg, err := s.dialogue(t)
	if err != nil {
		return nil, err
	}
	var out []string
	if dlg.Calls[0].Name != "ToolSearcher" {
		last := dlg.Calls[len(dlg.Calls)-1].Name
		out = append(out, "[ToolSearcher(keywords='"+splitCamel(last)+"')]")
	}
	for i, c := range dlg.Calls {
		a, err := FormatCall(c.Name, c.Params)
		if err != nil {
			return nil, fmt.Errorf("call %d: %w", i+1, err)
		}
		out = append(out, a)
	}
	return append(out, "[Finish()]"), nil
}

// splitCamel turns "QueryHistoryToday" into "query history today".
func splitCamel(name string) string {
	return strings.TrimSpace(APISpec{Name: name}.searchText())
}
