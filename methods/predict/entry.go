package predict

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/memharness/memharness/kinds"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/runrecord"
)

// Entry is everything the harness knows about one prediction method kind,
// declared beside the kind's code and registered with one line
// (methods/registry.Default, or Register in a program of one's own).
// Config validation, docs/CONFIG_KEYS.md, the sampling defaults, `bench
// memory` and the viewer read it; nothing else names the kind.
type Entry struct {
	// Kind is the name a config's methods[].kind selects.
	Kind string
	// About is one line on what the method does, for docs/CONFIG_KEYS.md.
	About string
	// New builds a method from its spec.
	New func(Spec) (Method, error)
	// Keys are the Spec keys beyond the common ones (name, kind, language,
	// templates, params, sampling, parser) that the kind reads: a key
	// another kind reads, set on this one, is reported as unused.
	Keys []string
	// Options, when not nil, is a zero value of the kind's own settings
	// struct: the keys of its yaml tags may be written in the method's
	// block beside the common ones. The config checks them strictly (type
	// errors and unknown keys at file:line, with suggestions) and the kind
	// reads them with OptionsOf.
	Options any
	// Purposes are the call purposes the kind sends, with their sampling
	// defaults (nil: the kind declares none, and methods[].sampling is not
	// checked against them).
	Purposes []Purpose
	// GatewayPurposes says the kind serves its process a model gateway,
	// whose calls may carry purposes the process names: "<method>.<name>"
	// (llm/gateway), beyond Purposes.
	GatewayPurposes bool
	// Memory describes the memories the kind builds for `bench memory` and
	// the viewer (zero: the generic description).
	Memory Inspector
	// SimReaders are the embedded backbone's readers of the hints the kind
	// attaches to its requests (nil: it sends none, and the sim's generic
	// prompt reader reads its prompts). Kinds sharing a hint type list the
	// same reader; the run registers each hint type once.
	SimReaders func() []sim.Reader
	// Paper places the kind in the papers' tables (nil: the papers show no
	// such method): the reports set a run's method beside the paper's row
	// through it.
	Paper []kinds.PaperRow
	// Provenance, when set, says where the prompt, the request settings
	// and the answer parser of each of the kind's stages beyond the
	// prediction come from, by stage (the manifest's "<method>/<stage>"):
	// release is true under prompts: release, and sampling gives a call
	// purpose's sampling origin as resolved. Nil: each purpose the entry
	// declares besides the prediction is a stage of our prompt and parser.
	Provenance func(s Spec, release bool, sampling func(purpose string) string) map[string]runrecord.Provenance
	// RanksByEmbedding is true for a kind that retrieves by the embedder's
	// vectors (config embedder): a run stamps the embedder it used, and a
	// plan, which calls no endpoint, says it ranked with the local hash
	// embedder instead.
	RanksByEmbedding bool
	// Check, when set, checks the kind's own options beyond their types
	// (templates, paths, combinations) when the config loads; each problem
	// names its field relative to the method's block, so the config
	// places it at file:line.
	Check func(Spec) []FieldError
}

// FieldError is one problem Entry.Check found: Field is a path in the
// method's block ("write.arguments.name"; empty: the block itself).
type FieldError struct{ Field, Msg string }

// Purpose is one call purpose a kind sends and its default request
// settings under each prompts setting (llm.Purpose, shared with the agent
// kinds). Methods hold no sampling value themselves: the bench fills
// methods[].sampling from these.
type Purpose = llm.Purpose

// PredictPurpose is the prediction call every built-in kind sends.
func PredictPurpose() Purpose {
	return Purpose{Name: PurposePredict, ReleaseFrom: runrecord.FromSource,
		Source: "model_caller.py: temperature commented out, no max_tokens for PraMem's questions (server defaults)"}
}

// Inspector is what `bench memory` and the viewer show of a kind's
// per-user memories beyond the generic description (tokens, calls, the
// text as the prompt shows it).
type Inspector struct {
	// Columns are per-user counters read from Memory.Meta.
	Columns []Column
	// Summary, when set, adds the kind's own clause to the one-line
	// description of all users' memories.
	Summary func(mems []Memory) string
	// NoText is true for a kind that keeps no text memory by design (RAG
	// keeps an index), so an empty text is not flagged.
	NoText bool
	// Detail, when set, reads one user's construction checkpoints (dir is
	// the user's checkpoint folder) for the full view: JSON fields added
	// to `bench memory --json` and text lines for the terminal.
	Detail func(dir string, mem Memory) (Detail, error)
	// Snapshot, when set, reads one of the kind's checkpoint files (its
	// name and content) as the memory after one round of construction, for
	// the viewer's round-by-round view; ok is false for a file that is no
	// round.
	Snapshot func(name string, data []byte) (s Snapshot, ok bool, err error)
}

// Snapshot is a kind's memory after one round of its construction.
type Snapshot struct {
	Round int
	// Review is true when the round's self-review ran.
	Review   bool
	Sections []Section
}

// Section is one named list of memory entries.
type Section struct {
	Name    string
	Entries []string
}

// Column is one per-user counter: its heading and its Memory.Meta key.
type Column struct{ Heading, Key string }

// Detail is one user's memory as a kind describes it in full.
type Detail struct {
	// JSON holds the fields the kind adds to the JSON view.
	JSON map[string]any
	// Text is the kind's part of the terminal view.
	Text string
}

// MetaInt reads an integer counter of a memory's meta (0 when absent).
func MetaInt(meta map[string]any, key string) int {
	switch x := meta[key].(type) {
	case float64:
		return int(x)
	case int:
		return x
	}
	return 0
}

// OptionsOf decodes the kind's own settings of a spec (Spec.Options) into
// a T, strictly: an unknown key is an error. The config has checked them
// already against the kind's Entry.Options; this is for a spec built in
// code.
func OptionsOf[T any](s Spec) (T, error) {
	var out T
	if len(s.Options) == 0 {
		return out, nil
	}
	b, err := yaml.Marshal(s.Options)
	if err != nil {
		return out, fmt.Errorf("method %s: options: %w", s.Name, err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&out); err != nil {
		return out, fmt.Errorf("method %s: options: %w", s.Name, err)
	}
	return out, nil
}
