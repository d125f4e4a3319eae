package conversation

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/memharness/memharness/accounting"
	"github.com/memharness/memharness/backbone"
	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/releasepacks/memqarel"
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
	scorer, err := newScorer(d.ds.Benchmark, judges)
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
		HarnessVersion: family.HarnessVersion, GitCommit: backbone.GitCommit(), Backbone: back.Kind, Model: back.ModelName,
		Endpoints: back.Endpoints, DataSource: d.source, DatasetSHA256: d.sums, Seed: cfg.Seed, Started: start.UTC(),
		Judges:   JudgeLabels(cfg),
		External: externals,
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
	var stopped error
answer:
	for mi, m := range methods {
		for _, c := range convs {
			for i := range len(c.Questions) * draws {
				qi, rep := i/draws, i%draws
				id := llm.RepeatName(sampleID(names[mi], c.Questions[qi]), rep)
				if st.Done(id) {
					continue
				}
				if err := ctx.Err(); err != nil {
					stopped = err
					break answer
				}
				var log llm.CallLog
				qctx := llm.WithRetryBudget(llm.WithCallLog(ctx, &log), cfg.Backbone.RetryBudget.Duration)
				// A later draw asks the answer and its judge again, keyed and
				// seeded apart (llm.WithRepeat).
				sc := scorer.withRepeat(rep, cfg.RepeatSeed())
				rec, err := answerOne(qctx, llm.WithRepeat(back.Model, rep, cfg.RepeatSeed()), sc, c, qi, m, names[mi], cfg.Methods[mi].Params, release[mi], string(d.ds.Benchmark))
				rec.ID, rec.Repeat = id, rep
				if errors.Is(err, llm.ErrStopRun) || ctx.Err() != nil {
					stopped = err
					break answer
				}
				if err != nil {
					rec.Error = err.Error()
				}
				calls := log.Take()
				for _, c := range calls {
					if c.Tool != nil {
						continue // a tool call (an MCP server's), journalled, not a model call
					}
					rec.Calls++
					if c.Cached {
						rec.CachedCalls++
					}
					rec.PromptTokens += c.Usage.PromptTokens
					rec.CompletionTokens += c.Usage.CompletionTokens
					rec.Cost += c.Usage.Cost
					rec.LatencyMS += float64(c.LatencyNS) / 1e6
				}
				if err := st.AppendWith(rec, calls); err != nil {
					return res, fmt.Errorf("stopped: %w; re-run the same command to resume", err)
				}
			}
		}
	}
	done, errored := st.Counts()
	res.Done, res.Errored = done-errored, errored
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
			arts, err := writeReport(run.Dir, cfg, d.ds.Benchmark, names, st.Samples(), runinfo.BackboneText(back.Kind, back.ModelName))
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
func answerOne(ctx context.Context, model llm.Model, sc *scorer, c *conv, qi int, m method, name string, params llm.Params, rel *releaseAnswer, dataset string) (runrecord.Sample, error) {
	q := c.Questions[qi]
	rec := runrecord.Sample{ID: sampleID(name, q), Method: name, Dataset: dataset, User: c.SampleID, Index: qi,
		Field: questionClass(q), Kind: "memqa", Label: gold(q)}
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
		req := answerRequest(c, q, v, params)
		if v.Prompt == nil && rel != nil {
			rr, err := rel.request(c, q, v)
			if err != nil {
				return rec, err
			}
			// The sim still reads what the prompt shows from the hint.
			rr.Hint = req.Hint
			req = rr
		}
		if v.Prompt != nil {
			// The method's own prompt, as it wrote it: no hint, so the
			// sim reads it with its generic prompt reader.
			req.Messages, req.Hint = []llm.Message{{Role: "user", Content: *v.Prompt}}, nil
		}
		req.SampleID, req.Unit, req.Affinity = q.ID, rec.ID, c.SampleID
		resp, err := model.Generate(ctx, req)
		if err != nil {
			return rec, err
		}
		rec.Raw = resp.Reply()
		if v.Prompt == nil && rel != nil {
			rec.Pred = memqarel.ReadAnswer(rel.template, rec.Raw)
		} else {
			rec.Pred = cleanAnswer(rec.Raw)
		}
	}
	rec.Valid = true
	scores, verdict, err := sc.score(ctx, q, rec.ID, rec.Pred, v.Recall)
	rec.Scores, rec.Judge = scores, verdict
	return rec, err
}
