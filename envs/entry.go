package envs

import (
	"fmt"
	"path/filepath"

	"github.com/memharness/memharness/datasets/fetch"
	"github.com/memharness/memharness/llm/sim"
)

// Entry is one environment kind as its own package describes it: how to
// open it, and what the harness shows and reports about it. Each
// environment package exports its entry (or one per suite it serves), and
// envs/all registers it with one line; everything else — the agent prompt,
// the LifeMem tables and figures, the test-set notes, `bench envs` — reads
// the registry's entries instead of naming the environment.
//
// Two parts of a kind's description live on its Suite, because a run holds
// the suite rather than the entry: the instructions an agent prompt opens
// with (Instructor) and the gold oracle `bench envs check` replays (Oracle).
type Entry struct {
	// Name is the registry name configs and run logs use ("alfworld").
	Name string
	// DisplayName is the name written out in tables and figures
	// ("ALFWorld"); empty shows Name.
	DisplayName string
	// ShortName is a plot-axis label, ASCII and a few letters ("ALFW");
	// empty shows the first six bytes of Name.
	ShortName string
	// Category is the environment's transfer scenario in LifeMem's Table 2
	// ("Embodied"); empty for an environment outside the paper's stream
	// (its out-of-distribution ones). Table 2 has one column pair per
	// category, in the order categories first appear in the registry.
	Category string
	// Score names what an episode's score is where it is not success (a
	// mean reward); empty: the success rate.
	Score string
	// PaperTestSize is what is known of the test set of LifeMem (arXiv
	// 2609.12655) for this environment, from the paper and its release (the
	// paper's total is 1,230 test tasks); a zero Size means the paper's is
	// not recoverable, and a run keeps the whole test split.
	PaperTestSize TestSetSize
	// DataSubdir is where the official data sits below a data root, which
	// holds one folder per environment (e.g. "taubench/retail"); `bench data
	// fetch` fills a data root in this layout.
	DataSubdir string
	// TrainFiles are the names LifeMem's release gives the environment's
	// training-trajectory file where they differ from ours
	// (train_<Name>.jsonl, which wins when both are in the directory).
	TrainFiles []string
	// FileTags are the other tags LifeMem's release files use for the
	// environment (train_<tag>.jsonl, a training line's env field),
	// lower case.
	FileTags []string
	// Open loads the official data from a directory.
	Open func(dir string) (Suite, error)
	// Embedded returns the suite written by us and compiled into the binary.
	Embedded func() (Suite, error)
	// Configure, when set, applies the harness options to a loaded suite
	// (e.g. a MySQL server for the database task).
	Configure func(s Suite, o OpenOptions) (Suite, error)
	// Fetch lists the official downloads of the environment, as the
	// environment package pins them. FileName is a slash-separated path
	// relative to the entry's DataSubdir (it may name subdirectories). Specs
	// with an empty SHA256 have no pin and must be downloaded by hand.
	Fetch func() []fetch.Spec
	// SimActing is what the embedded backbone's acting reader is told of
	// the environment's action syntax (nil: nothing; its observations list
	// the admissible actions).
	SimActing func() []SimActing
	// SimReaders are the embedded backbone's readers of hints the
	// environment itself attaches (τ-bench's simulated customer).
	SimReaders func() []sim.Reader
}

// TestSetSize is what is known of one environment's test set in a paper.
type TestSetSize struct {
	Size int
	// Known is false when the size is an assumption (Note says why).
	Known bool
	Note  string
}

// OpenOptions are harness-level settings some environments need when
// opened.
type OpenOptions struct {
	// MySQLDSN runs the database task against a real MySQL/MariaDB server
	// (empty: the in-process engine).
	MySQLDSN string
}

// Label is the name tables and figures show.
func (e Entry) Label() string {
	if e.DisplayName != "" {
		return e.DisplayName
	}
	return e.Name
}

// Short is the plot-axis label.
func (e Entry) Short() string {
	if e.ShortName != "" {
		return e.ShortName
	}
	if len(e.Name) > 6 {
		return e.Name[:6]
	}
	return e.Name
}

// OpenData opens e's official data below root.
func (e Entry) OpenData(root string, o OpenOptions) (Suite, error) {
	if e.Open == nil {
		return nil, fmt.Errorf("%s: no official data loader (only its embedded suite)", e.Name)
	}
	s, err := e.Open(filepath.Join(root, filepath.FromSlash(e.DataSubdir)))
	if err != nil || e.Configure == nil {
		return s, err
	}
	return e.Configure(s, o)
}

// OpenEmbedded returns e's embedded suite with the options applied.
func (e Entry) OpenEmbedded(o OpenOptions) (Suite, error) {
	if e.Embedded == nil {
		return nil, fmt.Errorf("%s: no embedded suite (give its official data with dataset.path)", e.Name)
	}
	s, err := e.Embedded()
	if err != nil || e.Configure == nil {
		return s, err
	}
	return e.Configure(s, o)
}

// Instructor is implemented by suites that describe their action syntax to
// an agent (tools, command grammar) in the harness's own words; an agent
// prompt written by the harness (not a release's) opens with it. Every
// built-in suite implements it.
type Instructor interface {
	Instructions() string
}
