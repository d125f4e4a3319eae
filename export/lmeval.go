package export

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// lmevalTime is lm-evaluation-harness's file timestamp (an ISO time with
// the colons replaced), taken from the run's finish so re-export is
// byte-identical.
func (r *run) lmevalTime() string { return r.finished().Format("2006-01-02T15-04-05.000000") }

// lmevalTask names a group's task: the config and the question field (or
// environment).
func (r *run) lmevalTask(group string) string { return fileSafe(r.task() + "_" + group) }

// lmevalCell maps a report metric to its lm-eval task and metric name: a
// score-matrix cell becomes the environment's task with one metric per
// stage ("score_stage_03"); every other metric keeps its group as task.
func (r *run) lmevalCell(m metric) (task, name string) {
	if stage, ok := strings.CutPrefix(m.Group, "stage "); ok && r.lifelong {
		return r.lmevalTask(m.Name), "score_stage_" + stage
	}
	return r.lmevalTask(m.Group), m.Name
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// writeLMEval writes, per method (a "model" to lm-eval: the backbone with
// that memory), results_<time>.json and samples_<task>_<time>.jsonl in
// the method's folder.
func (r *run) writeLMEval(cs *calls, out string) ([]string, error) {
	var files []string
	ts := r.lmevalTime()
	for _, method := range r.methods {
		dir := filepath.Join(out, fileSafe(r.model())+"__"+fileSafe(method))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return files, err
		}
		type sink struct {
			f *os.File
			w *bufio.Writer
			n int
		}
		sinks := map[string]*sink{}
		closeAll := func() {
			for _, s := range sinks {
				s.f.Close()
			}
		}
		err := r.eachItem(cs, method, func(it item) error {
			task := r.lmevalTask(it.Group)
			s := sinks[task]
			if s == nil {
				f, err := os.Create(filepath.Join(dir, "samples_"+task+"_"+ts+".jsonl.tmp"))
				if err != nil {
					return err
				}
				s = &sink{f: f, w: bufio.NewWriterSize(f, 1<<16)}
				sinks[task] = s
			}
			doc := map[string]any{"id": it.ID}
			for k, v := range it.Metadata {
				if k != "calls" {
					doc[k] = v
				}
			}
			docJSON, _ := json.Marshal(doc)
			prompt := promptText(it.Input)
			metric := "acc"
			if it.Agent {
				metric = "score"
			}
			line := map[string]any{
				"doc_id": s.n, "doc": doc, "target": it.Target,
				"arguments": map[string]any{"gen_args_0": map[string]any{"arg_0": prompt, "arg_1": r.lmevalGenKwargs()}},
				"resps":     [][]string{{it.Output}}, "filtered_resps": []string{it.Answer}, "filter": "none",
				"metrics": []string{metric}, "doc_hash": sha(string(docJSON)), "prompt_hash": sha(prompt), "target_hash": sha(it.Target),
				metric: it.Score,
			}
			if it.Error != "" {
				line["error"] = it.Error
			}
			b, err := json.Marshal(line)
			if err != nil {
				return err
			}
			s.w.Write(b)
			s.w.WriteByte('\n')
			s.n++
			return nil
		})
		if err != nil {
			closeAll()
			return files, err
		}
		nSamples := map[string]any{}
		for _, task := range slices.Sorted(maps.Keys(sinks)) {
			s := sinks[task]
			if err := s.w.Flush(); err != nil {
				closeAll()
				return files, err
			}
			if err := s.f.Close(); err != nil {
				return files, err
			}
			final := strings.TrimSuffix(s.f.Name(), ".tmp")
			if err := os.Rename(s.f.Name(), final); err != nil {
				return files, err
			}
			files = append(files, final)
			nSamples[task] = map[string]int{"original": s.n, "effective": s.n}
		}
		path := filepath.Join(dir, "results_"+ts+".json")
		if err := writeJSONFile(path, r.lmevalResults(method, nSamples)); err != nil {
			return files, err
		}
		files = append(files, path)
	}
	return files, nil
}

func (r *run) lmevalGenKwargs() map[string]any {
	g := r.generateConfig()
	kw := map[string]any{}
	if g.Temperature != nil {
		kw["temperature"] = *g.Temperature
	}
	if g.TopP != nil {
		kw["top_p"] = *g.TopP
	}
	if g.MaxTokens != nil {
		kw["max_gen_toks"] = *g.MaxTokens
	}
	if len(g.StopSeqs) > 0 {
		kw["until"] = g.StopSeqs
	}
	return kw
}

func (r *run) lmevalResults(method string, nSamples map[string]any) map[string]any {
	results := map[string]map[string]any{}
	higher := map[string]map[string]bool{}
	for _, m := range r.metrics[method] {
		task, name := r.lmevalCell(m)
		if results[task] == nil {
			results[task] = map[string]any{"alias": task}
			higher[task] = map[string]bool{}
		}
		results[task][name+",none"] = m.Value
		if se, ok := r.stderrOf(m); ok {
			results[task][name+"_stderr,none"] = se
		} else {
			results[task][name+"_stderr,none"] = "N/A"
		}
		higher[task][name] = !lowerIsBetter(name)
	}
	tasks := slices.Sorted(maps.Keys(results))
	configs, versions, nshot := map[string]any{}, map[string]any{}, map[string]any{}
	for _, task := range tasks {
		var list []map[string]any
		for _, name := range slices.Sorted(maps.Keys(higher[task])) {
			list = append(list, map[string]any{"metric": name, "higher_is_better": higher[task][name]})
		}
		configs[task] = map[string]any{"task": task, "dataset_path": r.man.DataSource, "output_type": "generate_until",
			"generation_kwargs": r.lmevalGenKwargs(), "metric_list": list, "repeats": 1,
			"metadata": map[string]any{"version": 1.0, "memory_method": method, "config_hash": r.man.ConfigHash}}
		versions[task] = 1.0
		nshot[task] = 0
	}
	cfg := map[string]any{"model": r.man.Backbone, "model_args": "model=" + r.model() + ",memory_method=" + method,
		"bootstrap_iters": r.iters, "gen_kwargs": r.lmevalGenKwargs(), "random_seed": r.man.Seed}
	out := map[string]any{
		"results": results, "group_subtasks": map[string][]string{r.lmevalTask("all"): tasks},
		"configs": configs, "versions": versions, "n-shot": nshot, "higher_is_better": higher,
		"n-samples": nSamples, "config": cfg,
		"git_hash": r.man.GitCommit, "date": float64(r.started().UnixNano()) / 1e9,
		"model_name": r.model(), "model_name_sanitized": fileSafe(r.model()) + "__" + fileSafe(method),
		"start_time": float64(r.started().UnixNano()) / 1e9, "end_time": float64(r.finished().UnixNano()) / 1e9,
		"total_evaluation_time_seconds": strconv.FormatFloat(r.finished().Sub(r.started()).Seconds(), 'f', -1, 64),
		"memharness":                    r.provenance(),
	}
	return out
}
