package conversation

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/memharness/memharness/backbone"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/releasepacks/memqarel"
)

// ScoreJudgePrefix prefixes a compared judge's score: "judge@NAME".
const ScoreJudgePrefix = ScoreJudge + "@"

// judge is one grading model with its wording.
type judge struct {
	// name is "" for the run's judge, the compare entry's name otherwise.
	name  string
	label string
	texts *memqarel.Judges
	model llm.Model
	// modelName is the model the judge calls (the plan's).
	modelName string
}

// scoreKey is the judge's key in a sample's scores.
func (j judge) scoreKey() string {
	if j.name == "" {
		return ScoreJudge
	}
	return ScoreJudgePrefix + j.name
}

// purpose is the judge call's purpose: the source's judge purpose, with
// the compared judge's name after it, so each judge's calls are metered
// apart from the run's judge's.
func (j judge) purpose(base string) string {
	if j.name == "" {
		return base
	}
	return base + "@" + j.name
}

// judging says whether cfg's run asks a judge. LongMemEval's score is its
// judge's; on LoCoMo the judge (mem0's J) is asked when the config has a
// judge section or prompts: release, so a LoCoMo run without either makes
// one call per question, as it did before the judge was configurable.
func judging(cfg *config.Config) bool {
	return cfg.Task != "locomo" || cfg.Judge != nil || cfg.PromptsLabel() == config.PromptsRelease
}

// JudgeLabels name cfg's judges as titles and the manifest print them: the
// run's judge first, then each compared one as "NAME: label" (none when
// the run asks no judge).
func JudgeLabels(cfg *config.Config) []string {
	if !judging(cfg) {
		return nil
	}
	var out []string
	for _, s := range cfg.Judges() {
		l := s.Label()
		if s.Name != "" {
			l = s.Name + ": " + l
		}
		out = append(out, l)
	}
	return out
}

// judgeTitle is the run's judge as every report title names it.
func judgeTitle(cfg *config.Config) string {
	ls := JudgeLabels(cfg)
	switch len(ls) {
	case 0:
		return "no judge (J needs a judge section or prompts: release)"
	case 1:
		return ls[0]
	}
	return ls[0] + "; compared: " + strings.Join(ls[1:], "; ")
}

// releaseDir is where prompts: release reads fetch name n from:
// prompt.release_dirs, else the data cache.
func releaseDir(cfg *config.Config, getenv func(string) string, n string) string {
	if d := cfg.Prompt.ReleaseDirs[n]; d != "" {
		return d
	}
	return filepath.Join(family.DataCacheDir(getenv), n)
}

// openJudges opens the run's judge and the compared ones (config.Judges),
// each wording read once, each model beside back's stack.
func openJudges(ctx context.Context, env family.Env, cfg *config.Config, back *backbone.Backbone, cacheRoot string, packs memqarel.Packs) ([]judge, error) {
	if !judging(cfg) {
		return nil, nil
	}
	readers, err := env.Kinds.Readers()
	if err != nil {
		return nil, err
	}
	texts := map[string]*memqarel.Judges{}
	var out []judge
	for _, spec := range cfg.Judges() {
		t := texts[spec.Prompt]
		if t == nil {
			packs.Mem0Dir = releaseDir(cfg, env.Getenv, memqarel.NameMem0Eval)
			packs.LongMemEvalDir = releaseDir(cfg, env.Getenv, memqarel.NameLongMemEvalEval)
			t, err = memqarel.Wording(spec.Prompt, packs)
			if err != nil {
				return nil, err
			}
			texts[spec.Prompt] = t
		}
		m, err := back.OpenJudge(ctx, cfg, spec, env.Getenv, cacheRoot, env.Err, readers)
		if err != nil {
			return nil, err
		}
		out = append(out, judge{name: spec.Name, label: spec.Label(), texts: t, model: m.Model, modelName: m.Name})
	}
	return out, nil
}

// judged says whether the judges grade q. mem0's evals.py skips LoCoMo's
// adversarial category (5) before it calls its judge, so J has no score
// there; LongMemEval's judge grades every question, abstention included.
func judged(b memqa.Benchmark, q memqa.Question) bool {
	return b != memqa.LoCoMo || q.Category != 5
}

// request is judge j's request about answer pred to q, under j's purpose.
func (j judge) request(b memqa.Benchmark, q memqa.Question, pred string) (llm.Request, error) {
	var req llm.Request
	var err error
	if b == memqa.LoCoMo {
		req, err = j.texts.LoCoMoRequest(q.Question, gold(q), pred)
	} else {
		req, err = j.texts.LongMemEvalRequest(q.Type, q.ID, q.Question, gold(q), pred)
	}
	if err != nil {
		return req, fmt.Errorf("question %s: %w", q.ID, err)
	}
	req.Purpose = j.purpose(req.Purpose)
	return req, nil
}

// planJudges are cfg's judges as the plan counts them (no model opened):
// their wordings, and the model each calls. A release wording whose packs
// are not fetched is planned with our own (the run itself stops there),
// which the notes say.
func (f *Family) planJudges(cfg *config.Config, getenv func(string) string, backboneModel string) ([]judge, []string) {
	if !judging(cfg) {
		return nil, nil
	}
	var out []judge
	var notes []string
	packs := f.packs
	packs.Mem0Dir = releaseDir(cfg, getenv, memqarel.NameMem0Eval)
	packs.LongMemEvalDir = releaseDir(cfg, getenv, memqarel.NameLongMemEvalEval)
	for _, spec := range cfg.Judges() {
		t, err := memqarel.Wording(spec.Prompt, packs)
		if err != nil {
			t = memqarel.Own()
			notes = append(notes, "judge "+spec.Label()+": planned with the own wording ("+err.Error()+")")
		}
		name := backboneModel
		switch spec.Kind {
		case "sim":
			name = "sim"
		case "openai":
			name = spec.Model
		}
		out = append(out, judge{name: spec.Name, label: spec.Label(), texts: t, modelName: name})
	}
	return out, notes
}

// gradeRequest is judge j's request about answer pred to q as a run sends
// it (and the plan models it), under the sample's identity (unit).
func (j judge) gradeRequest(b memqa.Benchmark, q memqa.Question, unit, pred string) (llm.Request, error) {
	req, err := j.request(b, q, pred)
	if err != nil {
		return req, err
	}
	req.SampleID, req.Unit = q.ID, unit
	return req, nil
}

// grade asks judge j about answer pred to q and reads its verdict as the
// judge's source reads it. A LoCoMo reply the source could not read is an
// error (mem0's script stops there).
func (j judge) grade(ctx context.Context, b memqa.Benchmark, q memqa.Question, unit, pred string) (bool, error) {
	req, err := j.gradeRequest(b, q, unit, pred)
	if err != nil {
		return false, err
	}
	resp, err := j.model.Generate(ctx, req)
	if err != nil {
		return false, fmt.Errorf("question %s: judge %s: %w", q.ID, j.label, err)
	}
	if b == memqa.LoCoMo {
		ok, err := memqarel.ReadLoCoMoVerdict(resp.Reply())
		if err != nil {
			return false, fmt.Errorf("question %s: judge %s: %w", q.ID, j.label, err)
		}
		return ok, nil
	}
	return memqarel.ReadLongMemEvalVerdict(resp.Reply()), nil
}

// judgeAll grades pred with every judge into out; the run's judge's label
// ("correct" or "wrong") is returned ("" where the judges do not grade q).
func (s *scorer) judgeAll(ctx context.Context, q memqa.Question, unit, pred string, out map[string]float64) (string, error) {
	if !judged(s.bench, q) {
		return "", nil
	}
	label := ""
	for _, j := range s.judges {
		ok, err := j.grade(ctx, s.bench, q, unit, pred)
		if err != nil {
			return "", err
		}
		v := 0.0
		if ok {
			v = 1
		}
		out[j.scoreKey()] = v
		if j.name == "" {
			label = "wrong"
			if ok {
				label = "correct"
			}
		}
	}
	return label, nil
}
