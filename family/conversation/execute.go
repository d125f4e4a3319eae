package conversation

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/memharness/memharness/accounting"
	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/internal/buildstamp"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/tokens"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/reports/runinfo"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// Execute runs (or resumes) a conversational-memory run: every method
// answers every question, each answer is scored (and, on LongMemEval,
// judged) and appended to the run's sample log with its calls, so a killed
// run resumes at the first unanswered question; then the report is
// written.
func (f *Family) Execute(ctx context.Context, env family.Env, run family.Run) (family.Result, error) {
	var res family.Result
	cfg := run.Config
	start := time.Now()
	if man, ok := family.UpToDate(f, run, cfg); ok {
		return family.Unchanged(env, run, man)
	}
	d, err := load(cfg)
	if err != nil {
		return res, err
	}
	d.ds.Conversations = family.Mine(d.ds.Conversations, run.Shard)
	back, err := family.OpenBackbone(ctx, env, cfg, run)
	if err != nil {
		return res, err
	}
	defer back.Close()
	methods := make([]method, len(cfg.Methods))
	names := make([]string, len(cfg.Methods))
	dp := deps{count: back.Tokens, env: predict.Env{Model: back.Model, BuildModel: back.BuildModel, Embedder: back.Embedder,
		Tokens: back.Tokens, MaxAttempts: cfg.Eval.MaxAttempts}}
	defer closeMethods(methods)
	for i, spec := range cfg.Methods {
		m, err := newMethod(spec, dp)
		if err != nil {
			return res, fmt.Errorf("methods[%d]: %w", i, err)
		}
		methods[i], names[i] = m, methodName(spec.Name, spec.Kind)
	}
	externals, err := startExternal(ctx, methods, run.Dir, cfg, back)
	if err != nil {
		return res, err
	}
	judges, err := openJudges(ctx, env, cfg, back, run.CacheRoot(), f.packs)
	if err != nil {
		return res, err
	}
	tok, tokens, err := bleuTokenizer(cfg, env.Getenv, f.packs, d.ds.Benchmark)
	if err != nil {
		return res, err
	}
	scorer, err := newScorer(d.ds.Benchmark, judges, tok)
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
		Name: cfg.Name, Config: cfg, ConfigPath: run.ConfigPath, Variant: run.Variant,
		HarnessVersion: family.HarnessVersion, GitCommit: buildstamp.Commit(), Backbone: back.Kind, Model: back.ModelName,
		Endpoints: back.Endpoints, DataSource: d.source, DatasetSHA256: d.sums, Seed: cfg.Seed, Started: start.UTC(),
		Judges:   JudgeLabels(cfg),
		External: externals, BLEU1Tokens: tokens,
	}
	if run.Shard != nil {
		man.Shard = run.Shard.String()
	}
	release, err := openReleaseAnswers(cfg, env, f.packs, names, &man)
	if err != nil {
		return res, err
	}
	open := runstore.Opening{
		ConfigHash: hash, Manifest: man, Methods: names, ResolvedConfig: resolved,
		Refuse:   func(prev runrecord.Manifest) error { return family.DifferentConfig(run.Dir, prev, cfg) },
		Repaired: func(r string) { fmt.Fprintf(env.Err, "run %s: repaired: %s\n", cfg.Name, r) },
	}
	open.Plan, open.PlanFailed = family.StoredPlan(ctx, env, f, cfg, run)
	st, man, err := runstore.Begin(run.Dir, open)
	if err != nil {
		return res, err
	}
	defer st.Close()
	// Every call is numbered in send order, after the calls of earlier
	// processes, so the order can be replayed from the call record.
	ctx = llm.WithSendOrder(ctx, llm.NewSendOrder(st.Usage()))

	convs := make([]*conv, len(d.ds.Conversations))
	for i, c := range d.ds.Conversations {
		convs[i] = newConv(c)
	}
	order := planOrder(cfg, memqa.Dataset{Conversations: d.ds.Conversations})
	res.Planned = len(order)
	already, _ := st.Counts()
	draws := cfg.Eval.Draws()
	drawsText := ""
	if draws > 1 {
		drawsText = fmt.Sprintf(" × %d draws", draws)
	}
	fmt.Fprintf(env.Err, "run %s: %d questions × %d methods%s on %s, data: %s; %d already answered\n",
		cfg.Name, len(order)/max(1, len(methods)*draws), len(methods), drawsText, back.Describe(), d.source, already)
	stopped, err := answerAll(ctx, st, answering{cfg: cfg, back: back, convs: convs, methods: methods, names: names,
		release: release, scorer: scorer, bench: string(d.ds.Benchmark), count: dp.count})
	if err != nil {
		return res, err
	}
	done, errored := st.Counts()
	res.Done, res.Errored = done, errored // Counts already leaves the errored out of done
	if stopped != nil {
		if err := family.StoppedAtCeiling(back.Budget, res.Done, res.Planned, "questions", ""); err != nil {
			return res, err
		}
		if errors.Is(stopped, context.Canceled) {
			return res, &family.Interrupted{Done: res.Done, Planned: res.Planned, Unit: "questions"}
		}
		return res, fmt.Errorf("stopped after %d of %d questions: %w; re-run the same command to resume", res.Done, res.Planned, stopped)
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
	closing := runstore.Closing{Errored: errored}
	if run.Shard != nil {
		closing.Seal = func(man *runrecord.Manifest) error { return family.SealShard(run, man) }
	}
	if run.Report {
		ro := f.ReportOptions(cfg, env.Kinds)
		closing.Report = func() error {
			arts, err := writeReport(run.Dir, cfg, d.ds.Benchmark, names, st.Samples(), runinfo.BackboneText(back.Kind, back.ModelName), tokens)
			res.Artefacts = arts
			return err
		}
		closing.Fingerprint = func() (string, error) { return family.Fingerprint(run.Dir, hash, ro) }
	}
	if err := st.Finish(&man, runrecord.Warnings{}, closing); err != nil {
		return res, err
	}
	res.LiveCalls = int(back.Meter.Snapshot().Total.Live)
	fmt.Fprintf(env.Out, "run %s: %d/%d questions answered, %d errored, %d live model calls, %s, %s\n",
		cfg.Name, res.Done, res.Planned, res.Errored, res.LiveCalls, accounting.CostText(usage), time.Since(start).Round(time.Millisecond))
	if pv := family.PlannedVsSpent(run.Dir, usage); pv != "" {
		fmt.Fprintf(env.Out, "run %s: %s\n", cfg.Name, pv)
	}
	if hl := back.HoldLine(); hl != "" {
		fmt.Fprintf(env.Out, "run %s: %s\n", cfg.Name, hl)
	}
	if run.Report {
		fmt.Fprintf(env.Out, "report: %s\n", filepath.Join(run.Dir, "report", "index.md"))
	}
	if res.Errored > 0 {
		return res, fmt.Errorf("%d questions failed (see the error field in %s); re-run the same command to retry them",
			res.Errored, filepath.Join(run.Dir, runrecord.SamplesFile))
	}
	return res, nil
}

// answerOne asks method m's context for question qi of c, scores the
// answer and returns its sample record. rel, when set, asks with mem0's
// answer template (prompts: release) and reads the reply as mem0 does.
// answered is called once the answer is in, before the judges grade it
// (the questions held back for this one may go then).
func answerOne(ctx context.Context, model llm.Model, sc *scorer, c *conv, qi int, m method, name string, params llm.Params, rel *releaseAnswer, dataset string, count tokens.Counter, answered func()) (runrecord.Sample, error) {
	q := c.Questions[qi]
	rec := sampleOf(c, qi, name, dataset)
	v, err := m.Context(ctx, c, q)
	if err != nil {
		return rec, fmt.Errorf("method %s: %s: %w", name, q.ID, err)
	}
	rec.HistoryRecords = len(v.Turns)
	rec.Attempts = 1
	if v.Answer != nil {
		rec.Raw = *v.Answer
		rec.Pred = cleanAnswer(rec.Raw)
	} else {
		if v.Prompt == nil {
			// What the answer prompt shows of the conversation (a method's
			// own prompt is its own: nothing of it is counted apart).
			rec.MemoryTokens, rec.HistoryTokens = shownTokens(count, v)
		}
		req, err := sentRequest(c, q, v, params, rel, rec.ID)
		if err != nil {
			return rec, err
		}
		resp, err := model.Generate(ctx, req)
		if err != nil {
			return rec, err
		}
		rec.Raw = resp.Reply()
		rec.Pred = readReply(v, rel, rec.Raw)
	}
	answered()
	rec.Valid = true
	scores, verdict, err := sc.score(ctx, q, rec.ID, rec.Pred, v.Recall)
	rec.Scores, rec.Judge = scores, verdict
	return rec, err
}

// sampleOf is the sample record of question qi of c by method name, before
// it is answered.
func sampleOf(c *conv, qi int, name, dataset string) runrecord.Sample {
	q := c.Questions[qi]
	return runrecord.Sample{ID: sampleID(name, q), Method: name, Dataset: dataset, User: c.SampleID, Index: qi,
		Field: questionClass(q), Kind: "memqa", Label: gold(q)}
}
