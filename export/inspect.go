package export

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memharness/memharness/llm"
)

// scorerName is the scorer every exported sample score is filed under.
const scorerName = "memharness"

// writeInspect writes one .json log and one .eval zip per method into out,
// and listing.json, the headers of the .json logs by file name: the
// manifest Inspect's log viewer reads from a folder served over HTTP (as
// `inspect view bundle` deploys one), so out opens in the viewer as is.
func (r *run) writeInspect(cs *calls, out string) ([]string, error) {
	var files []string
	listing := map[string]inspectLog{}
	for _, m := range r.methods {
		name := fileSafe(r.task()) + "_" + fileSafe(m)
		head, fs, err := r.writeInspectMethod(cs, m, filepath.Join(out, name))
		if err != nil {
			return files, fmt.Errorf("inspect log of %s: %w", m, err)
		}
		files = append(files, fs...)
		listing[name+".json"] = head
	}
	path := filepath.Join(out, "listing.json")
	if err := writeJSONFile(path, listing); err != nil {
		return files, err
	}
	return append(files, path), nil
}

// methodTotals is what a log's header says of its samples, counted in a
// first pass so the samples can then be streamed after it.
type methodTotals struct {
	samples, completed int
	usage              llm.Usage
}

func (r *run) totals(cs *calls, method string) (methodTotals, error) {
	var t methodTotals
	if !r.lifelong {
		cs = nil // a prediction's usage is on its sample line
	}
	err := r.eachItem(cs, method, func(it item) error {
		t.samples++
		if it.Error == "" {
			t.completed++
		}
		t.usage = t.usage.Add(it.Usage)
		return nil
	})
	return t, err
}

func (r *run) inspectModel() string { return r.man.Backbone + "/" + r.model() }

// writeInspectMethod writes method's log as base.json and base.eval and
// returns its header.
func (r *run) writeInspectMethod(cs *calls, method, base string) (inspectLog, []string, error) {
	tot, err := r.totals(cs, method)
	if err != nil {
		return inspectLog{}, nil, err
	}
	head := r.inspectHeader(method, tot)
	files, err := r.writeInspectFiles(cs, method, base, head)
	return head, files, err
}

func (r *run) writeInspectFiles(cs *calls, method, base string, head inspectLog) (files []string, err error) {
	jsonPath, evalPath := base+".json", base+".eval"
	defer func() {
		if err != nil { // no half-written log is left behind
			os.Remove(jsonPath + ".tmp")
			os.Remove(evalPath + ".tmp")
		}
	}()
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return nil, err
	}
	jf, err := os.Create(jsonPath + ".tmp")
	if err != nil {
		return nil, err
	}
	defer jf.Close()
	zf, err := os.Create(evalPath + ".tmp")
	if err != nil {
		return nil, err
	}
	defer zf.Close()
	// Summaries and reductions follow the samples in both files; they are
	// spooled to temporary files so nothing grows with the run in memory.
	sumF, err := os.CreateTemp(filepath.Dir(base), ".summaries-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(sumF.Name())
	defer sumF.Close()
	redF, err := os.CreateTemp(filepath.Dir(base), ".reductions-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(redF.Name())
	defer redF.Close()

	jw := bufio.NewWriterSize(jf, 1<<16)
	// The header's fields, then the samples array written one by one.
	hb, err := json.Marshal(head)
	if err != nil {
		return nil, err
	}
	jw.Write(hb[:len(hb)-1])
	jw.WriteString(`,"samples":[`)

	zw, err := newZipWriter(zf, filepath.Dir(base), r.finished())
	if err != nil {
		return nil, err
	}
	defer zw.Close()
	add := func(name string, v any) error {
		if err := zw.create(name); err != nil {
			return err
		}
		return json.NewEncoder(zw).Encode(v)
	}
	if err := add("_journal/start.json", inspectStart{Version: head.Version, Eval: head.Eval, Plan: head.Plan}); err != nil {
		return nil, err
	}
	sw, rw := bufio.NewWriter(sumF), bufio.NewWriter(redF)
	sw.WriteByte('[')
	rw.WriteByte('[')
	n := 0
	err = r.eachItem(cs, method, func(it item) error {
		s := r.inspectSample(it)
		b, err := json.Marshal(s)
		if err != nil {
			return err
		}
		if n > 0 {
			jw.WriteByte(',')
			sw.WriteByte(',')
			rw.WriteByte(',')
		}
		jw.Write(b)
		if err := zw.add("samples/"+s.ID+"_epoch_1.json", b); err != nil {
			return err
		}
		sb, err := json.Marshal(r.inspectSummary(s))
		if err != nil {
			return err
		}
		sw.Write(sb)
		red := s.Scores[scorerName]
		red.SampleID = &s.ID
		rb, err := json.Marshal(red)
		if err != nil {
			return err
		}
		rw.Write(rb)
		n++
		return nil
	})
	if err != nil {
		return nil, err
	}
	sw.WriteByte(']')
	rw.WriteByte(']')
	if err := sw.Flush(); err != nil {
		return nil, err
	}
	if err := rw.Flush(); err != nil {
		return nil, err
	}
	jw.WriteString(`],"reductions":[{"scorer":` + quote(scorerName) + `,"reducer":"mean","samples":`)
	if err := copyFile(jw, redF.Name()); err != nil {
		return nil, err
	}
	jw.WriteString("}]}\n")
	if err := jw.Flush(); err != nil {
		return nil, err
	}
	for _, name := range []string{"_journal/summaries/1.json", "summaries.json"} {
		if err := zw.create(name); err != nil {
			return nil, err
		}
		if err := copyFile(zw, sumF.Name()); err != nil {
			return nil, err
		}
	}
	if err := zw.create("reductions.json"); err != nil {
		return nil, err
	}
	io.WriteString(zw, `[{"scorer":`+quote(scorerName)+`,"reducer":"mean","samples":`)
	if err := copyFile(zw, redF.Name()); err != nil {
		return nil, err
	}
	io.WriteString(zw, "}]\n")
	if err := add("header.json", head); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	for _, f := range []*os.File{jf, zf} {
		if err := f.Close(); err != nil {
			return nil, err
		}
	}
	if err := os.Rename(jsonPath+".tmp", jsonPath); err != nil {
		return nil, err
	}
	if err := os.Rename(evalPath+".tmp", evalPath); err != nil {
		return nil, err
	}
	return []string{jsonPath, evalPath}, nil
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func copyFile(w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

func ptr[T any](v T) *T { return &v }

// inspectHeader is the log without its samples: the spec, plan, results
// (the report's metrics with their intervals) and totals.
func (r *run) inspectHeader(method string, tot methodTotals) inspectLog {
	cfg := r.config()
	methodCfg := r.methodConfig(method)
	gen := r.generateConfig()
	spec := inspectSpec{
		EvalID:           r.id("inspect-eval", method)[:22],
		RunID:            r.id("inspect-run")[:22],
		Created:          r.started().Format(time.RFC3339Nano),
		Task:             r.task(),
		TaskID:           r.id("inspect-task", method)[:22],
		TaskDisplayName:  ptr(r.task() + " · " + method),
		TaskAttribs:      map[string]any{},
		TaskArgs:         map[string]any{"method": method},
		TaskArgsPassed:   map[string]any{"method": method},
		Solver:           ptr(method),
		SolverArgs:       methodCfg,
		SolverArgsPassed: methodCfg,
		Dataset:          inspectDataset{Name: ptr(r.man.DataSource), Samples: tot.samples},
		Model:            r.inspectModel(),
		ModelGenerateCfg: gen,
		ModelArgs:        map[string]any{},
		Config:           inspectConfig{Epochs: 1, LogSamples: true},
		Packages:         map[string]string{"memharness": r.man.HarnessVersion},
		Metadata:         r.provenance(),
	}
	if len(r.man.Endpoints) > 0 {
		spec.ModelBaseURL = ptr(r.man.Endpoints[0])
	}
	if r.man.GitCommit != "" {
		spec.Revision = &inspectRev{Type: "git", Origin: "", Commit: r.man.GitCommit}
	}
	if cfg == nil {
		spec.SolverArgs, spec.SolverArgsPassed = nil, nil
	}
	kind := "predict"
	if r.lifelong {
		kind = "act"
	}
	plan := inspectPlan{Name: "plan", Steps: []inspectPlanStep{{Solver: method, Params: orEmpty(methodCfg), ParamsPassed: orEmpty(methodCfg)}},
		Config: gen}
	plan.Steps = append(plan.Steps, inspectPlanStep{Solver: scorerName + "/" + kind, Params: map[string]any{}, ParamsPassed: map[string]any{}})
	res := &inspectResults{TotalSamples: tot.samples, CompletedSamples: tot.completed,
		Metadata: map[string]any{"confidence_level": r.level, "bootstrap_resamples": r.iters, "source": r.metricsSource()}}
	byGroup := map[string]*inspectScore{}
	for _, m := range r.metrics[method] {
		sc := byGroup[m.Group]
		if sc == nil {
			sc = &inspectScore{Name: m.Group, Scorer: scorerName, Params: map[string]any{}, Metrics: map[string]inspectMetric{}}
			byGroup[m.Group] = sc
			res.Scores = append(res.Scores, inspectScore{Name: m.Group}) // placeholder keeps file order
		}
		md := map[string]any{"n": m.N, "unit": m.Unit}
		if m.CI {
			md["ci_low"], md["ci_high"], md["confidence_level"], md["ci_method"] = m.Lo, m.Hi, r.level, "bootstrap percentile"
		}
		sc.Metrics[m.Name] = inspectMetric{Name: m.Name, Value: m.Value, Params: map[string]any{}, Metadata: md}
	}
	for i := range res.Scores {
		res.Scores[i] = *byGroup[res.Scores[i].Name]
	}
	if res.Scores == nil {
		res.Scores = []inspectScore{}
	}
	status := "success"
	if tot.completed < tot.samples {
		status = "error"
	}
	var errv any
	if status == "error" {
		errv = inspectError{Message: fmt.Sprintf("%d of %d samples failed", tot.samples-tot.completed, tot.samples), Traceback: "", TracebackANSI: ""}
	}
	return inspectLog{
		Version: 2, Status: status, Eval: spec, Plan: plan, Results: res,
		Stats: inspectStats{StartedAt: r.started().Format(time.RFC3339Nano), CompletedAt: r.finished().Format(time.RFC3339Nano),
			ModelUsage: map[string]inspectUsage{r.inspectModel(): inspectUsageOf(tot.usage)}, RoleUsage: map[string]inspectUsage{}},
		Error: errv, Tags: []string{}, Metadata: map[string]any{},
	}
}

func (r *run) metricsSource() string {
	if r.lifelong {
		return "report/lifemem_matrix.csv, report/lifemem_table2.csv"
	}
	return "report/metrics.csv"
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// methodConfig is the method's entry of the run's config.
func (r *run) methodConfig(method string) map[string]any {
	cfg := r.config()
	var list []any
	if l, ok := cfg["methods"].([]any); ok {
		list = l
	}
	if ll, ok := cfg["lifelong"].(map[string]any); ok {
		if l, ok := ll["methods"].([]any); ok {
			list = append(list, l...)
		}
	}
	for _, e := range list {
		if m, ok := e.(map[string]any); ok && m["name"] == method {
			return m
		}
	}
	return nil
}

// generateConfig is the backbone's configured sampling settings.
func (r *run) generateConfig() inspectGenerate {
	var g inspectGenerate
	bb, _ := r.config()["backbone"].(map[string]any)
	p, _ := bb["params"].(map[string]any)
	if v, ok := p["temperature"].(float64); ok {
		g.Temperature = &v
	}
	if v, ok := p["top_p"].(float64); ok {
		g.TopP = &v
	}
	if v, ok := p["max_tokens"].(float64); ok && v > 0 {
		g.MaxTokens = ptr(int(v))
	}
	if v, ok := p["seed"].(float64); ok {
		g.Seed = ptr(int(v))
	}
	if v, ok := p["reasoning_effort"].(string); ok && v != "" {
		g.ReasoningEffort = &v
	}
	if v, ok := p["stop"].([]any); ok {
		for _, s := range v {
			if s, ok := s.(string); ok {
				g.StopSeqs = append(g.StopSeqs, s)
			}
		}
	}
	return g
}

// provenance is what the manifest says about where the run's numbers come
// from: config, data digests, prompts and their release pack, commit.
func (r *run) provenance() map[string]any {
	m := r.man
	out := map[string]any{
		"harness": "memharness", "harness_version": m.HarnessVersion, "config_name": m.Name,
		"config_hash": m.ConfigHash, "config": m.Config, "backbone": m.Backbone, "model": r.model(),
		"data_source": m.DataSource, "seed": m.Seed, "prompts": m.PromptsLabel(),
	}
	set := func(k string, v any, ok bool) {
		if ok {
			out[k] = v
		}
	}
	set("variant", m.Variant, m.Variant != "")
	set("git_commit", m.GitCommit, m.GitCommit != "")
	set("build_model", m.BuildModel, m.BuildModel != "")
	set("dataset_sha256", m.DatasetSHA256, len(m.DatasetSHA256) > 0)
	set("prompts_pack", m.PromptsPack, m.PromptsPack != "")
	set("prompts_sha256", m.PromptsSHA256, len(m.PromptsSHA256) > 0)
	set("provenance", m.Provenance, len(m.Provenance) > 0)
	set("profile", m.Profile, m.Profile != "")
	set("embedder", m.Embedder, m.Embedder != "")
	set("tokenizer", m.Tokenizer, m.Tokenizer != "")
	set("data_warnings", m.DataWarnings, len(m.DataWarnings) > 0)
	set("left_out", m.LeftOut, len(m.LeftOut) > 0)
	return out
}

func inspectUsageOf(u llm.Usage) inspectUsage {
	iu := inspectUsage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens, TotalTokens: u.PromptTokens + u.CompletionTokens}
	if u.CachedTokens > 0 {
		iu.InputTokensCacheRead = ptr(u.CachedTokens)
	}
	if u.Cost > 0 {
		iu.TotalCost = ptr(u.Cost)
	}
	return iu
}

func (r *run) inspectMessages(msgs []llm.Message, model string) []any {
	out := make([]any, 0, len(msgs))
	for i, m := range msgs {
		id := ptr(fmt.Sprintf("m%d", i))
		switch m.Role {
		case "system":
			out = append(out, inspectSystemMsg{ID: id, Content: m.Content, Source: "input", Role: "system"})
		case "assistant":
			out = append(out, inspectAssistantMsg{ID: id, Content: m.Content, Source: "generate", Role: "assistant", Model: &model})
		default:
			out = append(out, inspectUserMsg{ID: id, Content: m.Content, Source: "input", Role: "user"})
		}
	}
	return out
}

func (r *run) inspectSample(it item) inspectSample {
	model := r.model()
	var input any = ""
	if len(it.Input) > 0 {
		input = r.inspectMessages(it.Input, model)
	}
	var value any = it.Score
	if !it.Agent {
		value = "I"
		if it.Correct {
			value = "C"
		}
	}
	md := maps.Clone(it.Metadata)
	md["calls"] = it.Calls
	scMeta := map[string]any{"valid": it.Valid, "score": it.Score}
	if len(it.InvalidDraws) > 0 {
		scMeta["invalid_draws"] = it.InvalidDraws
	}
	s := inspectSample{
		ID: it.ID, Epoch: 1, Input: input, Target: it.Target,
		Messages: r.inspectMessages(it.Messages, model),
		Output: inspectOutput{Model: model, Completion: it.Output, Usage: ptr(inspectUsageOf(it.Usage)),
			Choices: []inspectChoice{{Message: inspectAssistantMsg{Content: it.Output, Source: "generate", Role: "assistant", Model: &model}, StopReason: "stop"}}},
		Scores: map[string]inspectSc{scorerName: {Value: value, Answer: ptr(it.Answer), Explanation: ptr(it.Explanation),
			Metadata: scMeta, History: []any{}}},
		Metadata: md, Store: map[string]any{}, Events: []any{},
		ModelUsage: map[string]inspectUsage{r.inspectModel(): inspectUsageOf(it.Usage)}, RoleUsage: map[string]inspectUsage{},
		UUID: r.uuid4("inspect-sample", it.Method, it.ID), Attachments: map[string]string{},
	}
	if it.LatencyMS > 0 {
		t := it.LatencyMS / 1000
		s.TotalTime, s.WorkingTime, s.Output.Time = &t, &t, &t
	}
	if it.Error != "" {
		s.Error = &inspectError{Message: it.Error, Traceback: "", TracebackANSI: ""}
		s.Output.Error = ptr(it.Error)
		s.Scores = nil
	}
	return s
}

// inspectSummary is a sample's line of summaries.json: its input cut short
// (Inspect thins summaries the same way) and its score without metadata.
func (r *run) inspectSummary(s inspectSample) inspectSummary {
	in := s.Input
	if msgs, ok := in.([]any); ok && len(msgs) > 0 {
		last := msgs[len(msgs)-1]
		var text string
		switch m := last.(type) {
		case inspectUserMsg:
			text = m.Content
		case inspectSystemMsg:
			text = m.Content
		case inspectAssistantMsg:
			text = m.Content
		}
		in = shorten(text, 2000)
	}
	sum := inspectSummary{ID: s.ID, Epoch: 1, Input: in, Target: s.Target, Metadata: map[string]any{},
		ModelUsage: s.ModelUsage, TotalTime: s.TotalTime, WorkingTime: s.WorkingTime, UUID: s.UUID,
		Completed: true, MessageCount: len(s.Messages)}
	for _, k := range slices.Sorted(maps.Keys(s.Metadata)) {
		if k != "calls" {
			sum.Metadata[k] = s.Metadata[k]
		}
	}
	if s.Scores != nil {
		sum.Scores = map[string]inspectSc{}
		for k, v := range s.Scores {
			v.Metadata = nil
			sum.Scores[k] = v
		}
	}
	if s.Error != nil {
		sum.Error = ptr(s.Error.Message)
	}
	return sum
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return strings.TrimSpace(s[:cut]) + "..."
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
