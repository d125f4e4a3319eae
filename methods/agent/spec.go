package agent

import (
	"bytes"
	"context"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/kinds"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
)

// Spec is one agent method of a lifelong run with its knobs (the config's
// lifelong.methods[] entry). Zero knobs mean the method's own defaults
// (top_k 2, split_size 50, tau 0.95 for LifeMem).
type Spec struct {
	// Name labels the method in results and directories.
	Name string `yaml:"name" json:"name"`
	// Kind selects a registered Entry.
	Kind string `yaml:"kind" json:"kind"`
	// TopK is the number of trajectories (or skills) retrieved per task;
	// 0 takes the method's default: synapse 3 (its Mind2Web
	// retrieve_top_k), expel 2, autoskill 5 skills (its SDK's
	// default_search_limit, ECNU-ICALK/AutoSkill autoskill/config.py),
	// lifemem 2.
	TopK int `yaml:"top_k" json:"top_k,omitempty"`
	// SplitSize is LifeMem's L: a cluster may split once it has more members.
	SplitSize int `yaml:"split_size" json:"split_size,omitempty"`
	// Tau is LifeMem's τ: split only when the cluster's mean resultant
	// length is below it (1.0 splits on size alone).
	Tau float64 `yaml:"tau" json:"tau,omitempty"`
	// NoSkills and NoTrajectories are LifeMem's ablations: leave the
	// cluster skills or the exemplar trajectories out of the prompt.
	NoSkills       bool `yaml:"no_skills" json:"no_skills,omitempty"`
	NoTrajectories bool `yaml:"no_trajectories" json:"no_trajectories,omitempty"`
	// Sampling maps each call purpose of the kind's own (its
	// Entry.Purposes) to its request settings: the run fills in the
	// defaults the entry declares for the prompts setting, and a purpose
	// set here wins. Purposes shared by every kind (act, construction, ...)
	// are set in lifelong.sampling instead. The kind reads them with
	// ParamsFor; it holds no sampling value of its own.
	Sampling map[string]llm.Params `yaml:"sampling,omitempty" json:"sampling,omitempty"`
	// Options are the settings of a kind's own (its Entry.Options keys),
	// written beside the keys above; the kind reads them with OptionsOf.
	// Empty for the built-in kinds, so their encoding (and the config
	// hash) is as before.
	Options map[string]any `yaml:",inline" json:"options,omitempty"`
}

// ParamsFor is the request settings of one of the kind's own call
// purposes (Spec.Sampling's entry; zero: the server's defaults).
func (s Spec) ParamsFor(purpose string) llm.Params { return CloneParams(s.Sampling[purpose]) }

// Entry is everything the harness knows about one agent method kind,
// declared beside the kind's code and registered with one line
// (lifelong.DefaultMethods, or Register in a program of one's own).
type Entry struct {
	// Kind is the name a config's lifelong.methods[].kind selects.
	Kind string
	// About is one line on what the method does, for docs/CONFIG_KEYS.md.
	About string
	// New builds a fresh method from its spec.
	New func(Spec) (Method, error)
	// Keys are the Spec knobs beyond name and kind that the kind reads
	// (top_k, split_size, tau, no_skills, no_trajectories): one another
	// kind reads, set on this one, is reported as unused.
	Keys []string
	// Options, when not nil, is a zero value of the kind's own settings
	// struct, whose yaml keys may be written in the method's block; the
	// config checks them strictly and the kind reads them with OptionsOf.
	Options any
	// Purposes are the call purposes of the kind's own (beyond the shared
	// ones of lifelong.sampling, which the protocol resolves), with their
	// request defaults under prompts own and release; the run fills
	// Spec.Sampling from them and lifelong.methods[].sampling replaces
	// them.
	Purposes []llm.Purpose
	// Calls are the purposes of the kind's own calls beyond acting (the
	// purposes its requests carry: "expel.rules"), which
	// backbone.batch.purposes may name.
	Calls []string
	// GatewayPurposes says the kind serves its process a model gateway,
	// whose calls may carry purposes the process names: "<method>.<name>"
	// (llm/gateway).
	GatewayPurposes bool
	// Shared declares the defaults of the shared purposes (the keys of
	// lifelong.sampling beyond acting and the customer: reflect, abstract,
	// construction, skills) that the kind's own requests make: Own under
	// prompts own, Release with the Source it is read from under prompts
	// release (no Source: the source makes no such call, and own's
	// settings are sent). The first kind registered that declares a
	// purpose gives its defaults; lifelong.sampling replaces them.
	Shared []llm.Purpose
	// Check, when set, reports problems of the kind's knobs beyond their
	// being read ("tau: …"), each naming its key.
	Check func(Spec) []string
	// Memory describes what the method keeps for `bench memory` (zero: an
	// outline of its saved state files).
	Memory Inspector
	// NoEmbedder says the method retrieves nothing, so a run of it alone
	// needs (and records) no embedder.
	NoEmbedder bool
	// SimReaders are the embedded backbone's readers of the hints the kind
	// attaches to its requests, told what the environments of the run say
	// of their action syntax (nil: the sim reads its prompts generically).
	SimReaders func(acting ...envs.SimActing) ([]sim.Reader, error)
	// Paper places the kind in the papers' tables (nil: the papers show no
	// such method): the LifeMem report finds the paper's methods through it.
	Paper []kinds.PaperRow
}

// Inspector reads an agent method's memory from its folder of a run
// (lifelong/<method>: the saved state under state/, and any statistics
// file of its own beside it).
type Inspector struct {
	// Summary is the one-line description; ok is false when the folder
	// holds nothing the kind can read.
	Summary func(dir string) (line string, ok bool)
	// Describe reads the memory in full: JSON fields for `--json` and the
	// text for the terminal.
	Describe func(ctx context.Context, dir string) (Detail, error)
}

// Detail is an agent method's memory as its kind describes it.
type Detail struct {
	JSON map[string]any
	Text string
}

// OptionsOf decodes the kind's own settings of a spec (Spec.Options) into
// a T, strictly: an unknown key is an error.
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

// Entries are the baselines' entries: ReAct (no memory), Synapse, ExpeL
// and AutoSkill.
func Entries() []Entry {
	entries := []Entry{
		{Kind: "react", Paper: lifeMemRow("ReAct"), New: newBaseline, About: "acts from the task alone: no memory", NoEmbedder: true},
		{Kind: "synapse", Paper: lifeMemRow("Synapse"), New: newBaseline, Keys: []string{"top_k"},
			About:  "retrieves the most similar past trajectories as exemplars",
			Shared: []llm.Purpose{abstractPurpose()}, Calls: []string{PurposeAbstract}},
		{Kind: "expel", Paper: lifeMemRow("ExpeL"), New: newBaseline, Keys: []string{"top_k"},
			About:  "exemplar trajectories plus insights an editor distils from successes and failures",
			Shared: []llm.Purpose{reflectPurpose()}, Calls: []string{PurposeExpeLRules}},
		{Kind: "autoskill", Paper: lifeMemRow("AutoSkill"), New: newBaseline, Keys: []string{"top_k"},
			About:  "retrieves skills written from past trajectories",
			Shared: []llm.Purpose{skillsPurpose()}, Calls: []string{PurposeSkillExtract}},
	}
	for i := range entries {
		entries[i].SimReaders = SimReaders
	}
	return entries
}

// lifeMemRow places a kind in LifeMem's Table 2 under the paper's label.
func lifeMemRow(label string) []kinds.PaperRow {
	return []kinds.PaperRow{{Table: "LifeMem Table 2", Label: label}}
}

// newBaseline builds a baseline from its spec: top_k is its K.
func newBaseline(s Spec) (Method, error) { return New(s.Kind, Options{K: s.TopK}) }
