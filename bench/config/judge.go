package config

import (
	"fmt"
	"math"
	"slices"

	"github.com/memharness/memharness/llm"
)

// Judge kinds and prompt wordings (judge.kind, judge.prompt).
const (
	// JudgeBackbone grades with the run's own model stack (the default).
	JudgeBackbone = "backbone"
	// JudgePromptStrict and JudgePromptLenient are the harness's own
	// stricter and more lenient wordings, for the judge-sensitivity table.
	JudgePromptStrict  = "strict"
	JudgePromptLenient = "lenient"
)

// JudgeKinds are the values of judge.kind.
func JudgeKinds() []string { return []string{JudgeBackbone, "sim", "openai"} }

// JudgePrompts are the values of judge.prompt ("" follows prompts).
func JudgePrompts() []string {
	return []string{PromptsOwn, PromptsRelease, JudgePromptStrict, JudgePromptLenient}
}

// Judge is the model that grades a conversational-memory run's answers
// (tasks locomo and longmemeval): a role of its own beside the backbone,
// with its own model, endpoints and sampling. Absent, the backbone's model
// grades with the wording the prompts setting names.
type Judge struct {
	// Kind is "backbone" (the run's own model stack, the default), "sim"
	// (the embedded heuristic judge) or "openai" (an OpenAI-compatible
	// endpoint serving Model).
	Kind string `yaml:"kind,omitempty" json:"kind,omitempty"`
	// Model is the judge model sent to its endpoint (openai; default:
	// backbone.model). Name a dated snapshot: mem0's LoCoMo judge calls
	// gpt-4o-mini, LongMemEval's gpt-4o-2024-08-06.
	Model string `yaml:"model,omitempty" json:"model,omitempty"`
	// BaseURLs of the judge's endpoints (openai; default: backbone.base_urls,
	// else OPENAI_BASE_URL).
	BaseURLs []string `yaml:"base_urls,omitempty" json:"base_urls,omitempty"`
	// Params override the judge request's sampling, which is otherwise the
	// source's own (mem0: temperature 0 and a JSON response format;
	// LongMemEval: temperature 0, max_tokens 10, n 1). The backbone's
	// params never reach the judge.
	Params llm.Params `yaml:"params,omitempty" json:"params,omitempty"`
	// Prompt is the judge's wording: "own" (the harness's), "release" (the
	// sources' text, read from the fetched mem0-eval and longmemeval-eval
	// packs, or prompt.release_dirs), "strict" or "lenient" (the harness's
	// stricter and more lenient wordings); default: the prompts setting.
	Prompt string `yaml:"prompt,omitempty" json:"prompt,omitempty"`
	// Compare are further judges every answer is also graded by, for the
	// judge-sensitivity table (agreement by Cohen's kappa and the score
	// change against the judge above).
	Compare []JudgeAlt `yaml:"compare,omitempty" json:"compare,omitempty"`
}

// JudgeAlt is one more judge of judge.compare; an unset key takes the main
// judge's value.
type JudgeAlt struct {
	// Name labels the judge in the sensitivity table and the sample's
	// scores ("judge@NAME"); letters, digits, '.', '_' and '-'.
	Name string `yaml:"name" json:"name"`
	// Kind is "backbone", "sim" or "openai" (default: judge.kind).
	Kind string `yaml:"kind,omitempty" json:"kind,omitempty"`
	// Model is this judge's model (openai; default: judge.model, then
	// backbone.model): a second judge model.
	Model string `yaml:"model,omitempty" json:"model,omitempty"`
	// BaseURLs of this judge's endpoints (default: judge.base_urls, then
	// backbone.base_urls).
	BaseURLs []string `yaml:"base_urls,omitempty" json:"base_urls,omitempty"`
	// Params override this judge's sampling (default: judge.params).
	Params llm.Params `yaml:"params,omitempty" json:"params,omitempty"`
	// Prompt is this judge's wording: own, release, strict or lenient
	// (default: judge.prompt).
	Prompt string `yaml:"prompt,omitempty" json:"prompt,omitempty"`
}

// JudgeSpec is one resolved judge: what grades, where, and in which
// wording. The run's task family builds its judge from it.
type JudgeSpec struct {
	// Name is "" for the run's judge, the compare entry's name otherwise.
	Name     string
	Kind     string
	Model    string
	BaseURLs []string
	Params   llm.Params
	Prompt   string
}

// Label names the judge in titles and the manifest: "backbone judge
// (release prompt)", "openai gpt-4o-mini judge (strict prompt)".
func (s JudgeSpec) Label() string {
	who := s.Kind
	switch s.Kind {
	case JudgeBackbone:
		who = "backbone"
	case "openai":
		who = "openai " + s.Model
	}
	out := who + " judge (" + s.Prompt + " prompt"
	if !s.Params.IsZero() {
		out += ", own sampling"
	}
	return out + ")"
}

// Judges are the run's judge and the compare judges, resolved: defaults
// filled from the backbone and the prompts setting.
func (c *Config) Judges() []JudgeSpec {
	j := Judge{}
	if c.Judge != nil {
		j = *c.Judge
	}
	main := JudgeSpec{Kind: j.Kind, Model: j.Model, BaseURLs: j.BaseURLs, Params: j.Params, Prompt: j.Prompt}
	if main.Kind == "" {
		main.Kind = JudgeBackbone
	}
	if main.Prompt == "" {
		main.Prompt = c.PromptsLabel()
	}
	if main.Kind == "openai" {
		if main.Model == "" {
			main.Model = c.Backbone.Model
		}
		if len(main.BaseURLs) == 0 {
			main.BaseURLs = c.Backbone.BaseURLs
		}
	}
	out := []JudgeSpec{main}
	for _, a := range j.Compare {
		s := JudgeSpec{Name: a.Name, Kind: a.Kind, Model: a.Model, BaseURLs: a.BaseURLs, Params: a.Params, Prompt: a.Prompt}
		if s.Kind == "" {
			s.Kind = main.Kind
		}
		if s.Prompt == "" {
			s.Prompt = main.Prompt
		}
		if s.Params.IsZero() {
			s.Params = main.Params
		}
		if s.Kind == "openai" {
			if s.Model == "" {
				s.Model = main.Model
			}
			if s.Model == "" {
				s.Model = c.Backbone.Model
			}
			if len(s.BaseURLs) == 0 {
				s.BaseURLs = main.BaseURLs
			}
			if len(s.BaseURLs) == 0 {
				s.BaseURLs = c.Backbone.BaseURLs
			}
		}
		out = append(out, s)
	}
	return out
}

// validate checks the judge section; judged says whether the task grades
// its answers with a judge at all.
func (j *Judge) validate(v *validator, task string, judged bool, backboneKind string) {
	if j == nil {
		return
	}
	if !judged {
		v.add("judge", "task %s has no judge (the conversational-memory tasks locomo and longmemeval have one)", task)
		return
	}
	checkOne := func(at, kind, model string, urls []string, p llm.Params, prompt string) {
		if kind != "" {
			v.oneOf(at+"kind", kind, JudgeKinds())
		}
		if prompt != "" {
			v.oneOf(at+"prompt", prompt, JudgePrompts())
		}
		for i, u := range urls {
			if err := checkURL(u); err != nil {
				v.add(fmt.Sprintf("%sbase_urls[%d]", at, i), "%v", err)
			}
		}
		if kind != "openai" && kind != "" {
			if model != "" {
				v.add(at+"model", "is read only by an openai judge (kind is %s)", kind)
			}
			if len(urls) > 0 {
				v.add(at+"base_urls", "are read only by an openai judge (kind is %s)", kind)
			}
		}
		if p.Temperature != nil && (math.IsNaN(*p.Temperature) || *p.Temperature < 0 || *p.Temperature > 2) {
			v.add(at+"params.temperature", "must be between 0 and 2, got %v", *p.Temperature)
		}
		if p.TopP != nil && (math.IsNaN(*p.TopP) || *p.TopP <= 0 || *p.TopP > 1) {
			v.add(at+"params.top_p", "must be in (0, 1], got %v", *p.TopP)
		}
		v.atLeast(at+"params.max_tokens", p.MaxTokens, 0)
	}
	checkOne("judge.", j.Kind, j.Model, j.BaseURLs, j.Params, j.Prompt)
	if j.Kind == "openai" && j.Model == "" && backboneKind != "openai" {
		v.add("judge.model", "an openai judge needs a model (the backbone is %s and names none to share)", backboneKind)
	}
	if j.Kind == "openai" && len(j.BaseURLs) == 0 && backboneKind != "openai" {
		v.add("judge.base_urls", "an openai judge needs base_urls (the backbone is %s and has none to share)", backboneKind)
	}
	var names []string
	for i, a := range j.Compare {
		at := fmt.Sprintf("judge.compare[%d].", i)
		switch {
		case a.Name == "":
			v.add(at+"name", "every compared judge needs a name (it labels the sensitivity table)")
		case !safeName(a.Name):
			v.add(at+"name", "%q is not a safe name (use letters, digits, '.', '_' and '-')", a.Name)
		case slices.Contains(names, a.Name):
			v.add(at+"name", "%q names two compared judges", a.Name)
		}
		names = append(names, a.Name)
		checkOne(at, a.Kind, a.Model, a.BaseURLs, a.Params, a.Prompt)
	}
}

// judgeForHash is j with what cannot change a verdict cleared: where the
// judge is served (its model name stays).
func judgeForHash(j *Judge) *Judge {
	if j == nil {
		return nil
	}
	out := *j
	out.BaseURLs = nil
	out.Compare = slices.Clone(j.Compare)
	for i := range out.Compare {
		out.Compare[i].BaseURLs = nil
	}
	return &out
}
