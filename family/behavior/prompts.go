package behavior

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memharness/memharness/family"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/pramem"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/releasepacks/pramemrel"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// promptsSetup is what prompts: own|release decided for a run.
type promptsSetup struct {
	label string // config.PromptsOwn or config.PromptsRelease
	// known are the run's kinds, whose entries give every purpose's
	// request defaults.
	known config.Known
	// set are the methods[].sampling maps as configured, by method name,
	// before the defaults were filled in (provenance tells them apart).
	set      map[string]map[string]llm.Params
	pack     *pramemrel.Pack
	tmpl     string   // the generated template file (release)
	warnings []string // printed once per run
}

// releaseDir is where the pack is read from: prompt.release_dir, else the
// fetched copy in the data cache.
func releaseDir(cfg *config.Config, getenv func(string) string) string {
	if cfg.Prompt.ReleaseDir != "" {
		return cfg.Prompt.ReleaseDir
	}
	return filepath.Join(family.DataCacheDir(getenv), pramemrel.FetchName)
}

// preparePrompts applies the prompts setting to a copy of cfg. With
// "release" it reads and checks the pack, writes the templates it yields
// under out/.prompts (named by their digest: the authors' text stays on the
// user's machine, outside the repository) and lists that file as an
// override of the run's prompts and of every method's, and makes PraMem's
// practice calls the release's request shape. With "own" on a real
// endpoint it warns that numbers are not comparable with the paper's.
//
// known are the run's kinds (their entries' purposes give the request
// defaults); pins are the release files' digests (nil: pramemrel.Files).
func preparePrompts(cfg *config.Config, known config.Known, getenv func(string) string, out string, pins []pramemrel.File) (*config.Config, promptsSetup, error) {
	ps := promptsSetup{label: cfg.PromptsLabel(), known: known, set: map[string]map[string]llm.Params{}}
	for _, m := range cfg.Methods {
		ps.set[m.Name] = m.Sampling
	}
	cfg = withRequestDefaults(cfg, known, ps.label)
	if ps.label != config.PromptsRelease {
		if cfg.Backbone.Kind == "openai" {
			ps.warnings = append(ps.warnings, "warning: prompts: own — the harness's own wording, not the authors'; these numbers are not comparable "+
				"with the paper's (set prompts: release and run 'bench data fetch "+pramemrel.FetchName+"')")
		}
		return cfg, ps, nil
	}
	dir := releaseDir(cfg, getenv)
	if pins == nil {
		pins = pramemrel.Files
	}
	pack, err := pramemrel.OpenPinned(dir, pins)
	if err != nil {
		return nil, ps, fmt.Errorf("prompts: release: %w", err)
	}
	text, err := pack.Templates()
	if err != nil {
		return nil, ps, err
	}
	sum := sha256.Sum256([]byte(text))
	path, err := filepath.Abs(filepath.Join(out, ".prompts", "pramem-release-"+hex.EncodeToString(sum[:6])+".tmpl"))
	if err != nil {
		return nil, ps, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, ps, fmt.Errorf("prompts: release: %w", err)
	}
	if err := runstore.WriteFileAtomic(path, []byte(text)); err != nil {
		return nil, ps, fmt.Errorf("prompts: release: %w", err)
	}
	c := *cfg
	c.Prompt.Templates = maps.Clone(cfg.Prompt.Templates)
	if c.Prompt.Templates == nil {
		c.Prompt.Templates = map[string]string{}
	}
	c.Prompt.Templates["release"] = path
	c.Methods = slices.Clone(cfg.Methods)
	for i := range c.Methods {
		m := &c.Methods[i]
		if !slices.Contains(m.Templates, path) { // a resolved config.yaml already lists it
			m.Templates = append(slices.Clone(m.Templates), path)
		}
	}
	if cfg.Dataset.Language == "en" && tasks()[cfg.Task].chineseScenes {
		// Documented, not reproduced: on the English files the release
		// recognises no scene and asks no question at all.
		ps.warnings = append(ps.warnings, "warning: prompts: release on English OmniBehavior data: the release itself asks no question there "+
			"(it only knows the Chinese scene names); the paper's runs use dataset.language zh")
	}
	if pack.ShuffleSeed != 1024 {
		ps.warnings = append(ps.warnings, fmt.Sprintf("warning: the release pack shuffles practice items with random.seed(%d); release_sampling uses 1024", pack.ShuffleSeed))
	}
	for _, d := range known.PurposeDefaults() {
		if n, ok := d.Release.Extra["max_completion_tokens"].(int); ok && slices.Contains(d.Kinds, pramem.Kind) && n != pack.PracticeMaxTokens {
			// The default is the pinned release's; a pack that disagrees
			// is not that release.
			ps.warnings = append(ps.warnings, fmt.Sprintf("warning: the release pack caps practice calls at %d tokens; %s sends %d (methods[].sampling.%s)",
				pack.PracticeMaxTokens, d.Purpose, n, d.Purpose))
			break
		}
	}
	ps.pack, ps.tmpl = pack, path
	return &c, ps, nil
}

// withRequestDefaults is cfg with every method's sampling map filled with
// the defaults of the prompts setting that the entry of its kind among
// known declares (see config.Known.PurposeDefaults) and, under release,
// the source's answer parser where none is set; cfg is not changed.
func withRequestDefaults(cfg *config.Config, known config.Known, label string) *config.Config {
	c := *cfg
	c.Methods = slices.Clone(cfg.Methods)
	for i := range c.Methods {
		m := &c.Methods[i]
		m.Sampling = known.MethodSampling(label, m.Kind, m.Sampling)
		if m.Parser == "" && label == config.PromptsRelease {
			m.Parser = predict.ParserSource
		}
	}
	return &c
}

// rewriteData puts the release's text into the loaded data: its yes/no
// sentences into OmniBehavior questions (a rating prompt of the release
// carries no question text), and its record sentences into MovieLens
// records, rendered from each record's title, year, genres and rating.
func (ps promptsSetup) rewriteData(users []behavior.UserSet) {
	if ps.pack == nil {
		return
	}
	movie := func(e *behavior.Event) {
		if e.Attrs["movie_id"] == "" {
			return
		}
		r, ok := e.Outcomes["movie_rating"]
		e.Context, e.Result = ps.pack.MovieRecord(e.Attrs["title"], e.Attrs["year"], e.Attrs["genre"], int(r))
		if !ok {
			e.Result = "" // a target's outcome is not shown
		}
	}
	for u := range users {
		for i := range users[u].Instances {
			in := &users[u].Instances[i]
			if in.Question.Kind == behavior.Binary {
				in.Question.Text = ps.pack.Question(in.Question.Field)
			}
			// History slices of one user share their records, so each
			// is rewritten once (rendering is idempotent anyway).
			for j := range in.History {
				movie(&in.History[j])
			}
			movie(&in.Target)
		}
	}
}

// stamp records the prompts, profile and tokenizer in the manifest.
func (ps promptsSetup) stamp(m *runrecord.Manifest, cfg *config.Config, tokenizer string) {
	m.Tokenizer = tokenizer
	m.Prompts = ps.label
	if ps.pack != nil {
		m.PromptsPack = pramemrel.Repository + "@" + pramemrel.Commit
		m.PromptsSHA256 = ps.pack.Digests
	}
	m.Profile, m.ProfileSet = cfg.Profile, cfg.ProfileSet
	m.Provenance = ps.provenance(cfg)
}

// provenance says, per method and stage, where the prompt, the request
// settings and the answer parser come from.
func (ps promptsSetup) provenance(cfg *config.Config) map[string]runrecord.Provenance {
	release := ps.label == config.PromptsRelease
	prompt := runrecord.FromOwn
	if release {
		prompt = runrecord.FromSource
	}
	out := map[string]runrecord.Provenance{}
	for _, m := range cfg.Methods {
		set := ps.set[m.Name]
		from := func(purpose string) string { return ps.known.SamplingFrom(ps.label, m.Kind, purpose, set) }
		// Ratings have no released parser; yes/no answers are read by the
		// release's mapping when the method's parser is "source".
		parser := runrecord.FromOwn
		if m.Parser == predict.ParserSource && !tasks()[cfg.Task].ratings {
			parser = runrecord.FromSource
		}
		out[m.Name+"/predict"] = runrecord.Provenance{Prompt: prompt, Sampling: from(predict.PurposePredict), Parser: parser}
		if e, ok := ps.known.MethodEntry(m.Kind); ok && e.Provenance != nil {
			for stage, pv := range e.Provenance(m, release, from) {
				out[m.Name+"/"+stage] = pv
			}
			continue
		}
		// Every other call purpose its entry declares (the memory-system
		// baselines', a program's own kinds'): our prompt and parser, the
		// sampling as resolved.
		for _, d := range ps.known.PurposeDefaults() {
			if slices.Contains(d.Kinds, m.Kind) && d.Purpose != predict.PurposePredict {
				out[m.Name+"/"+strings.TrimPrefix(d.Purpose, m.Kind+".")] = runrecord.Provenance{Prompt: runrecord.FromOwn, Sampling: from(d.Purpose), Parser: runrecord.FromOwn}
			}
		}
	}
	return out
}
