package conversation

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"time"

	"github.com/memharness/memharness/accounting"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/reports/runinfo"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// ScoreOriginalJudge is, in a re-graded run, the verdict of the run's own
// judge the answers were graded by first, so the rescore's
// judge-sensitivity table sets the new judge against it.
const ScoreOriginalJudge = ScoreJudgePrefix + "original"

// Rescore grades a finished run's stored answers again under r.Config's
// judges into r.Dir, a run directory of its own (samples, call record,
// usage, report). Every answer, raw reply and lexical score is the run's;
// only judge calls are made, each through the judges' caches, and a
// killed rescore resumes at the first answer not graded again. The run's
// own directory is never written.
func (f *Family) Rescore(ctx context.Context, env family.Env, r family.Rescoring) (family.Result, error) {
	var res family.Result
	start := time.Now()
	cfg := r.Config
	prev, err := runrecord.ReadManifest(filepath.Join(r.RunDir, runrecord.ManifestFile))
	if err != nil {
		return res, err
	}
	if !f.DataUnchanged(cfg, prev.DatasetSHA256) {
		return res, fmt.Errorf("the data %s was answered from has changed since the run (%s); a rescore grades the questions the answers were given to", r.RunDir, prev.DataSource)
	}
	for _, s := range cfg.Judges()[1:] {
		if ScoreJudgePrefix+s.Name == ScoreOriginalJudge {
			return res, fmt.Errorf("judge.compare: %q names the run's own judge in a rescore; name the compared judge another way", s.Name)
		}
	}
	d, err := load(cfg)
	if err != nil {
		return res, err
	}
	old, err := runrecord.ReadSamples(filepath.Join(r.RunDir, runrecord.SamplesFile))
	if err != nil {
		return res, err
	}
	names := make([]string, len(cfg.Methods))
	questions := map[string]memqa.Question{}
	for i, spec := range cfg.Methods {
		names[i] = methodName(spec.Name, spec.Kind)
		for _, c := range d.ds.Conversations {
			for _, q := range c.Questions {
				questions[sampleID(names[i], q)] = q
			}
		}
	}
	// The answering model is not needed: unless a judge is the backbone's
	// own, the stack opens on the sim (its readers, the spending ceiling),
	// so a gone answering endpoint does not stop a rescore.
	open := cfg
	if !backboneJudged(cfg) {
		c := *cfg
		c.Backbone.Kind = "sim"
		open = &c
	}
	run := family.Run{Config: cfg, Dir: r.Dir, Out: r.Out}
	back, err := family.OpenBackbone(ctx, env, open, run)
	if err != nil {
		return res, err
	}
	defer back.Close()
	judges, err := openJudges(ctx, env, open, back, r.Out, f.packs)
	if err != nil {
		return res, err
	}
	// Lexical scores are the run's: no tokenizer.
	scorer, err := newScorer(d.ds.Benchmark, judges, nil)
	if err != nil {
		return res, err
	}
	hash, err := cfg.Hash()
	if err != nil {
		return res, err
	}
	resolved, err := cfg.ResolvedYAML()
	if err != nil {
		return res, err
	}
	man := runrecord.Manifest{
		Name: cfg.Name, Config: cfg, HarnessVersion: family.HarnessVersion, GitCommit: prev.GitCommit,
		Backbone: prev.Backbone, Model: prev.Model, Endpoints: prev.Endpoints,
		DataSource:    prev.DataSource + "; answers of the run in " + r.RunDir + " graded again",
		DatasetSHA256: prev.DatasetSHA256, Seed: cfg.Seed, Started: start.UTC(), Judges: JudgeLabels(cfg),
		BLEU1Tokens: prev.BLEU1Tokens,
	}
	st, man, err := runstore.Begin(r.Dir, runstore.Opening{
		ConfigHash: hash, Manifest: man, Methods: names, ResolvedConfig: resolved,
		Refuse: func(p runrecord.Manifest) error {
			return fmt.Errorf("%w (name this rescore another way with --name)", family.DifferentConfig(r.Dir, p, cfg))
		},
		Repaired: func(what string) { fmt.Fprintf(env.Err, "rescore %s: repaired: %s\n", r.Dir, what) },
	})
	if err != nil {
		return res, err
	}
	defer st.Close()
	var order []string
	unanswered := 0
	for _, s := range old {
		if s.Error != "" {
			unanswered++
			continue
		}
		order = append(order, s.ID)
	}
	res.Planned = len(order)
	already, _ := st.Counts()
	fmt.Fprintf(env.Err, "rescore %s: %d answers graded again by %s into %s; %d already graded, %d unanswered questions left out\n",
		r.RunDir, len(order), judgeTitle(cfg), r.Dir, already, unanswered)
	var stopped error
	for _, s := range old {
		if s.Error != "" || st.Done(s.ID) {
			continue
		}
		if err := ctx.Err(); err != nil {
			stopped = err
			break
		}
		q, ok := questions[s.ID]
		if !ok {
			return res, fmt.Errorf("sample %s of %s: no such question in the run's data and methods", s.ID, r.RunDir)
		}
		rec := regraded(s)
		var log llm.CallLog
		qctx := llm.WithRetryBudget(llm.WithCallLog(ctx, &log), cfg.Backbone.RetryBudget.Duration)
		label, err := scorer.judgeAll(qctx, q, s.ID, s.Pred, rec.Scores)
		if errors.Is(err, llm.ErrStopRun) || ctx.Err() != nil {
			stopped = err
			break
		}
		if err != nil {
			rec.Error = err.Error()
		}
		rec.Judge = label
		if err := st.AppendWith(rec, log.Take()); err != nil {
			return res, fmt.Errorf("stopped: %w; re-run the same command to resume", err)
		}
	}
	done, errored := st.Counts()
	res.Done, res.Errored = done, errored // Counts already leaves the errored out of done
	if stopped != nil {
		if err := family.StoppedAtCeiling(back.Budget, res.Done, res.Planned, "answers", ""); err != nil {
			return res, err
		}
		return res, fmt.Errorf("stopped after %d of %d answers: %w; re-run the same command to resume", res.Done, res.Planned, stopped)
	}
	if err := st.Compact(order); err != nil {
		return res, err
	}
	usage, err := accounting.WriteUsage(st, cfg.Backbone.Prices != nil)
	if err != nil {
		return res, err
	}
	fin := time.Now().UTC()
	man.Samples, man.Finished = len(order), &fin
	ro := f.ReportOptions(cfg, env.Kinds)
	closing := runstore.Closing{Errored: errored, Report: func() error {
		arts, err := writeReport(r.Dir, cfg, d.ds.Benchmark, names, st.Samples(), runinfo.BackboneText(prev.Backbone, prev.Model), prev.BLEU1Tokens)
		res.Artefacts = arts
		return err
	}, Fingerprint: func() (string, error) { return family.Fingerprint(r.Dir, hash, ro) }}
	if err := st.Finish(&man, runrecord.Warnings{}, closing); err != nil {
		return res, err
	}
	res.LiveCalls = int(back.Meter.Snapshot().Total.Live)
	for _, j := range judges {
		if m, ok := j.model.(*llm.Meter); ok && j.model != back.Meter {
			res.LiveCalls += int(m.Snapshot().Total.Live)
		}
	}
	fmt.Fprintf(env.Err, "rescore %s: %d/%d answers graded again, %d errored, %d live judge calls, %s\n",
		r.RunDir, res.Done, res.Planned, res.Errored, res.LiveCalls, accounting.CostText(usage))
	if res.Errored > 0 {
		return res, fmt.Errorf("%d answers could not be graded (see the error field in %s); re-run the same command to retry them",
			res.Errored, filepath.Join(r.Dir, runrecord.SamplesFile))
	}
	return res, nil
}

// backboneJudged says whether a judge of cfg is the backbone's model.
func backboneJudged(cfg *config.Config) bool {
	for _, s := range cfg.Judges() {
		if s.Kind == config.JudgeBackbone {
			return true
		}
	}
	return false
}

// regraded is s with every judge's verdict taken out (the run's judge's
// kept as ScoreOriginalJudge) and its answer, scores and usage kept.
func regraded(s runrecord.Sample) runrecord.Sample {
	rec := s
	rec.Scores = maps.Clone(s.Scores)
	if rec.Scores == nil {
		rec.Scores = map[string]float64{}
	}
	for k := range rec.Scores {
		if k == ScoreJudge || strings.HasPrefix(k, ScoreJudgePrefix) {
			delete(rec.Scores, k)
		}
	}
	if v, ok := s.Scores[ScoreJudge]; ok {
		rec.Scores[ScoreOriginalJudge] = v
	}
	rec.Judge, rec.Error = "", ""
	return rec
}
