// Package runrecord defines the on-disk records of a run: the manifest, the
// append-only per-sample log and usage totals. The run store writes them and
// reports read them; nothing here calls a model.
package runrecord

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/memharness/memharness/llm"
)

// Sample is one finished (or errored) prediction, one JSON line in samples.jsonl.
type Sample struct {
	// ID is "<method>/<instance ID>", stable across runs; a later draw of
	// the same question (eval.repeats) adds "#r<draw>".
	ID string `json:"id"`
	// Repeat is which draw of the question this is (0, the first, is left
	// out of the line).
	Repeat  int    `json:"repeat,omitempty"`
	Method  string `json:"method"`
	Dataset string `json:"dataset"`
	User    string `json:"user"`
	Index   int    `json:"index"`
	Scene   string `json:"scene,omitempty"`
	Field   string `json:"field"`
	Kind    string `json:"kind"`
	Label   string `json:"label"`
	// Pred is the parsed answer; empty when no attempt gave a valid answer.
	Pred  string `json:"pred"`
	Valid bool   `json:"valid"`
	// Attempts is how many model draws the answer took (invalid ones are redrawn).
	Attempts int `json:"attempts"`
	// Raw is the text of the last draw (think blocks removed).
	Raw string `json:"raw,omitempty"`
	// Prompt is the prompt as sent. The run store does not write it: the
	// sample's call record holds it (runs from before kept it in
	// PromptsFile), never samples.jsonl.
	Prompt string `json:"-"`
	// Error is set when the sample could not be completed (transport failure,
	// context cancelled...). Errored samples are retried on resume.
	Error string `json:"error,omitempty"`

	Calls            int     `json:"calls"`
	CachedCalls      int     `json:"cached_calls"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	Cost             float64 `json:"cost,omitempty"`
	LatencyMS        float64 `json:"latency_ms"`

	// What the method showed the model.
	HistoryRecords int `json:"history_records"`
	HistoryTokens  int `json:"history_tokens"`
	MemoryTokens   int `json:"memory_tokens"`

	// Scores are a conversational-memory answer's scores by metric name
	// ("f1", "bleu1", "judge", "evidence_recall"); Judge is the judge's
	// label. Other families leave both empty.
	Scores map[string]float64 `json:"scores,omitempty"`
	Judge  string             `json:"judge,omitempty"`
}

// Manifest describes a run; it is written at start and updated at the end.
type Manifest struct {
	Name       string `json:"name"`
	Config     any    `json:"config"` // the resolved configuration
	ConfigPath string `json:"config_path,omitempty"`
	// ConfigHash is the SHA-256 of the resolved config; a run directory
	// refuses to resume under a different config.
	ConfigHash     string `json:"config_hash"`
	Variant        string `json:"variant,omitempty"`
	HarnessVersion string `json:"harness_version"`
	// GitCommit is the commit the binary was built from (empty when the
	// build recorded none), not the checkout's HEAD when the run started.
	GitCommit string `json:"git_commit,omitempty"`
	Backbone  string `json:"backbone"` // "sim" or "openai"
	Model     string `json:"model"`
	// BuildModel is the memory-construction model when it differs.
	BuildModel string `json:"build_model,omitempty"`
	// Judges name the models that graded the answers (conversational
	// memory): the run's judge first, then any compared judges, each with
	// its model and wording.
	Judges        []string          `json:"judges,omitempty"`
	Endpoints     []string          `json:"endpoints,omitempty"` // base URLs, never keys
	DataSource    string            `json:"data_source"`         // e.g. "synthetic MovieLens-1M (seed 7)"
	DatasetSHA256 map[string]string `json:"dataset_sha256,omitempty"`
	// DataWarnings are data problems that did not stop the run (e.g. a
	// malformed user file whose user was left out).
	DataWarnings []string `json:"data_warnings,omitempty"`
	// LeftOut lists the parts of the configured work that did not run here
	// (an environment whose prerequisites are missing), with the reason and
	// how to install what is missing.
	LeftOut []LeftOut `json:"left_out,omitempty"`
	// EmptyMemories names, per method, the users whose built memory came out
	// empty (e.g. every extraction answer was invalid).
	EmptyMemories map[string][]string `json:"empty_memories,omitempty"`
	// JournalFindings is what the checks of the usage journal found when
	// the run was last opened: lines whose checksum failed (their usage
	// left out of usage.json) and lines taken unchecked, each naming the
	// file and the line.
	JournalFindings []string `json:"journal_findings,omitempty"`
	// JournalLosses is the usage the journal lost (a torn final line cut,
	// damaged lines skipped, the journal missing while samples were
	// saved), as the opens of the run found it; kept over resumes, since
	// the file no longer shows it.
	JournalLosses []string `json:"journal_losses,omitempty"`
	// Errored counts the samples (or episodes) that failed when the run last
	// finished; Fingerprint says what its report was built from (see
	// bench's up-to-date check), so an unchanged run is not redone.
	Errored     int    `json:"errored,omitempty"`
	Fingerprint string `json:"fingerprint,omitempty"`
	// Shard is "I/N" for one shard of a sharded run (empty otherwise).
	Shard string `json:"shard,omitempty"`
	// Seal is a finished shard's SHA-256 of each file of its folder that
	// the merge reads, by slash path relative to the folder; bench merge
	// refuses a shard whose files no longer match.
	Seal map[string]string `json:"seal,omitempty"`
	Seed int64             `json:"seed"`
	// Prompts says whose wording the model saw: "own" (the harness's) or
	// "release" (the authors', read from a release pack at run time);
	// PromptsPack names the pack (repository@commit) and the pack's files'
	// digests are in PromptsSHA256.
	Prompts       string            `json:"prompts,omitempty"`
	PromptsPack   string            `json:"prompts_pack,omitempty"`
	PromptsSHA256 map[string]string `json:"prompts_sha256,omitempty"`
	// Provenance says, per stage ("<method>/<stage>", or "<environment>/
	// <stage>" for agents), where its prompt, request settings and answer
	// parser came from.
	Provenance map[string]Provenance `json:"provenance,omitempty"`
	// External describes each method run outside the harness (kind
	// external): what was run and the version it reported.
	External []ExternalMethod `json:"external_methods,omitempty"`
	// Profile is the config profile applied (e.g. "paper") and
	// ProfileSet the settings it changed.
	Profile    string            `json:"profile,omitempty"`
	ProfileSet map[string]string `json:"profile_set,omitempty"`
	// Embedder names the text embedder retrieval used; EmbedderWarning is
	// set when a real backbone retrieved with the hash embedder.
	Embedder        string `json:"embedder,omitempty"`
	EmbedderWarning string `json:"embedder_warning,omitempty"`
	// SeedNote says what is known of how the backbone's endpoints treat a
	// request's seed when they are known not to sample reproducibly from it
	// (llm.SeedNote); empty when nothing is known against them (the sim
	// backbone is deterministic). Each call's seed is in its call record.
	SeedNote string `json:"seed_note,omitempty"`
	// BLEU1Tokens says how a conversational run's BLEU-1 tokenised the
	// answers: nltk.word_tokenize's Punkt sentence splitting with an
	// untrained model (own) or with nltk_data's English model (the pinned
	// package, under prompts: release); empty where no BLEU-1 is scored.
	BLEU1Tokens string `json:"bleu1_tokens,omitempty"`
	// Tokenizer counts the history windows' tokens: "approx" (the
	// release's character estimate) or "tokenizer.json <sha256>".
	Tokenizer string     `json:"tokenizer,omitempty"`
	Methods   []string   `json:"methods"`
	Samples   int        `json:"samples"` // planned samples
	Started   time.Time  `json:"started"`
	Finished  *time.Time `json:"finished,omitempty"`
}

// PromptsLabel is how reports name the prompts of a run: "own wording"
// for the harness's (also for runs recorded before the field existed), or
// "authors' release <pack>".
func (m Manifest) PromptsLabel() string {
	if m.Prompts == "release" {
		if m.PromptsPack != "" {
			return "authors' release " + m.PromptsPack
		}
		return "authors' release"
	}
	return "own wording"
}

// Where a stage's prompt, request settings or parser came from.
const (
	FromSource = "source" // the authors' released code, with its run defaults
	FromPaper  = "paper"  // the paper, where it states a setting the code does not use
	FromOwn    = "own"    // the harness's own
	FromConfig = "config" // set in the run's config
	FromNone   = "none"   // the stage has no such part (e.g. a reply that is not parsed)
)

// Provenance is where one stage's prompt, request settings and answer
// parser came from (From* values), with a note where one of them needs a
// sentence (e.g. a release behaviour that cannot be reproduced).
type Provenance struct {
	Prompt   string `json:"prompt"`
	Sampling string `json:"sampling"`
	Parser   string `json:"parser"`
	Note     string `json:"note,omitempty"`
}

// ProvenanceLabel is the report titles' short form of Provenance: stages
// with the same provenance grouped, "method/{a,b}: prompt P, sampling S,
// parser Q", notes after; "" when the run recorded none.
func (m Manifest) ProvenanceLabel() string {
	if len(m.Provenance) == 0 {
		return ""
	}
	type group struct {
		p    Provenance
		keys []string
	}
	var groups []*group
	for _, k := range slices.Sorted(maps.Keys(m.Provenance)) {
		p := m.Provenance[k]
		i := slices.IndexFunc(groups, func(g *group) bool { return g.p == p })
		if i < 0 {
			groups = append(groups, &group{p: p})
			i = len(groups) - 1
		}
		groups[i].keys = append(groups[i].keys, k)
	}
	parts := make([]string, len(groups))
	for i, g := range groups {
		s := stageList(g.keys) + ": prompt " + g.p.Prompt + ", sampling " + g.p.Sampling + ", parser " + g.p.Parser
		if g.p.Note != "" {
			s += " (" + g.p.Note + ")"
		}
		parts[i] = s
	}
	return strings.Join(parts, "; ")
}

// stageList writes sorted "owner/stage" keys with a shared owner once:
// "pramem/{reflect,trial}".
func stageList(keys []string) string {
	var out []string
	for i := 0; i < len(keys); {
		owner, _, _ := strings.Cut(keys[i], "/")
		j := i
		var stages []string
		for j < len(keys) {
			o, st, ok := strings.Cut(keys[j], "/")
			if !ok || o != owner {
				break
			}
			stages = append(stages, st)
			j++
		}
		switch {
		case j == i:
			out = append(out, keys[i])
			j = i + 1
		case len(stages) == 1:
			out = append(out, owner+"/"+stages[0])
		default:
			out = append(out, owner+"/{"+strings.Join(stages, ",")+"}")
		}
		i = j
	}
	return strings.Join(out, ", ")
}

// ProvenanceSummary counts, for titles (agent runs, whose values read
// "source: <where>", "paper: <where>" or "own"), how many stages took each part
// from the source, the paper or the harness ("" without provenance):
// "prompt source 9, own 3; sampling source 12; parser source 8, own 4".
func (m Manifest) ProvenanceSummary() string {
	if len(m.Provenance) == 0 {
		return ""
	}
	kind := func(s string) string {
		k, _, _ := strings.Cut(s, ":")
		return strings.TrimSpace(k)
	}
	count := func(get func(Provenance) string) string {
		n := map[string]int{}
		for _, p := range m.Provenance {
			n[kind(get(p))]++
		}
		var parts []string
		for _, k := range []string{"source", "paper", "own"} {
			if n[k] > 0 {
				parts = append(parts, fmt.Sprintf("%s %d", k, n[k]))
				delete(n, k)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(n)) {
			parts = append(parts, fmt.Sprintf("%s %d", k, n[k]))
		}
		return strings.Join(parts, ", ")
	}
	return "prompt " + count(func(p Provenance) string { return p.Prompt }) +
		"; sampling " + count(func(p Provenance) string { return p.Sampling }) +
		"; parser " + count(func(p Provenance) string { return p.Parser })
}

// LeftOut is one part of a run's configured work that did not run.
type LeftOut struct {
	What    string `json:"what"`              // e.g. "miniwob"
	Reason  string `json:"reason"`            // why it could not run here
	Install string `json:"install,omitempty"` // the command that installs what is missing
}

// MethodUsage is the usage of one call purpose (a method's predictions or a
// memory-building stage), summed over every invocation of the run.
//
// Invalid counts rejected draws; Units the answers judged and InvalidFinal
// those still invalid after every redraw (InvalidRate = InvalidFinal/Units).
// Cost is null when the run has no prices: "not priced", not free.
// LatencyMS is the total over live calls and LatencyMeanMS the mean per call.
type MethodUsage struct {
	Calls          int     `json:"calls"`
	LiveCalls      int     `json:"live_calls"`
	CachedCalls    int     `json:"cached_calls"`
	Errors         int     `json:"errors"`
	Retries        int     `json:"retries"`
	Invalid        int     `json:"invalid"`
	Units          int     `json:"units"`
	InvalidFinal   int     `json:"invalid_final"`
	InvalidRate    float64 `json:"invalid_rate"`
	InvalidExample string  `json:"invalid_example,omitempty"`
	// UsageEstimated counts calls whose token counts from the endpoint were
	// negative or absurd and were replaced by the harness's own count
	// (UsageEstimatedWhy quotes one).
	UsageEstimated    int    `json:"usage_estimated,omitempty"`
	UsageEstimatedWhy string `json:"usage_estimated_why,omitempty"`
	// BatchedCalls counts the live calls a provider batch answered
	// (backbone.batch), at the batch price.
	BatchedCalls     int      `json:"batched_calls,omitempty"`
	PromptTokens     int      `json:"prompt_tokens"`
	CompletionTokens int      `json:"completion_tokens"`
	Cost             *float64 `json:"cost"`
	LatencyMS        float64  `json:"latency_total_ms"`
	LatencyMeanMS    float64  `json:"latency_mean_ms"`
}

// EstimatedText is the report's sentence on token counts the harness had
// to estimate itself (llm.UsageWarning), so readers of the run log need not
// import the model path.
func (u MethodUsage) EstimatedText() string {
	return llm.UsageWarning(u.UsageEstimated, u.UsageEstimatedWhy)
}
