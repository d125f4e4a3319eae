package export

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/llm"
)

// eeeSchemaVersion is the Every Eval Ever schema the records follow.
const eeeSchemaVersion = "0.3.0"

// stderrOf is a metric's standard error read off its bootstrap interval:
// the interval's width over 2z at its level (exact for a normal sampling
// distribution; the report's percentile interval is the source of truth).
func (r *run) stderrOf(m metric) (float64, bool) {
	if !m.CI {
		return 0, false
	}
	z := math.Sqrt2 * math.Erfinv(r.level)
	if z == 0 || math.IsNaN(z) {
		return 0, false
	}
	return (m.Hi - m.Lo) / (2 * z), true
}

// lowerIsBetter says which of the report's metrics are costs.
func lowerIsBetter(name string) bool {
	switch name {
	case "invalid_rate", "invalid", "errored", "mean_attempts", "calls", "prompt_tokens", "completion_tokens", "cost",
		"mean_history_tokens", "mean_memory_tokens":
		return true
	}
	return false
}

func (r *run) developer() string {
	if d, _, ok := strings.Cut(r.model(), "/"); ok {
		return d
	}
	if r.man.Backbone == "sim" {
		return "memharness"
	}
	return "unknown"
}

// writeEEE writes, per method, the aggregate record and its per-instance
// JSONL in Every Eval Ever's datastore layout:
// data/<benchmark>/<developer>/<model>/<uuid>.json and <uuid>_samples.jsonl.
func (r *run) writeEEE(cs *calls, out string) ([]string, error) {
	var files []string
	for _, method := range r.methods {
		uuid := r.uuid4("eee", method)
		rel := filepath.ToSlash(filepath.Join("data", fileSafe(r.task()), fileSafe(r.developer()), fileSafe(r.model())))
		samplesRel := rel + "/" + uuid + "_samples.jsonl"
		evalID := r.task() + "/" + method + "/" + r.model() + "/" + strconv.FormatInt(r.finished().Unix(), 10)
		sum, rows, err := r.writeEEEInstances(cs, method, evalID, filepath.Join(out, filepath.FromSlash(samplesRel)))
		if err != nil {
			return files, err
		}
		files = append(files, filepath.Join(out, filepath.FromSlash(samplesRel)))
		rec := r.eeeRecord(method, evalID)
		rec["detailed_evaluation_results"] = map[string]any{"format": "jsonl", "file_path": samplesRel,
			"hash_algorithm": "sha256", "checksum": sum, "total_rows": rows}
		path := filepath.Join(out, filepath.FromSlash(rel), uuid+".json")
		if err := writeJSONFile(path, rec); err != nil {
			return files, err
		}
		files = append(files, path)
	}
	return files, nil
}

func (r *run) eeeRecord(method, evalID string) map[string]any {
	m := r.man
	lib := map[string]string{"config_name": m.Name, "config_hash": m.ConfigHash, "backbone": m.Backbone, "prompts": m.PromptsLabel(),
		"seed": strconv.FormatInt(m.Seed, 10), "bootstrap_resamples": strconv.Itoa(r.iters)}
	if m.GitCommit != "" {
		lib["git_commit"] = m.GitCommit
	}
	if m.PromptsPack != "" {
		lib["prompts_pack"] = m.PromptsPack
	}
	for k, v := range m.PromptsSHA256 {
		lib["prompts_sha256:"+k] = v
	}
	if m.Variant != "" {
		lib["variant"] = m.Variant
	}
	deploy := "unknown"
	if m.Backbone == "sim" {
		deploy = "self_deployed"
	}
	modelDetails := map[string]string{"deployment_type": deploy, "model_availability": "unknown", "memory_method": method, "backbone": m.Backbone}
	if m.BuildModel != "" {
		modelDetails["build_model"] = m.BuildModel
	}
	if mc := r.methodConfig(method); mc != nil {
		if b, err := json.Marshal(mc); err == nil {
			modelDetails["method_config"] = string(b)
		}
	}
	modelInfo := map[string]any{"name": r.model(), "id": r.model(), "developer": r.developer(), "additional_details": modelDetails}
	if len(m.Endpoints) > 0 {
		modelInfo["inference_platform"] = m.Endpoints[0]
	}
	dataDetails := map[string]string{}
	for k, v := range m.DatasetSHA256 {
		dataDetails["sha256:"+k] = v
	}
	source := map[string]any{"dataset_name": m.DataSource, "source_type": "other"}
	if len(dataDetails) > 0 {
		source["additional_details"] = dataDetails
	}
	gen := map[string]any{}
	g := r.generateConfig()
	if g.Temperature != nil {
		gen["temperature"] = *g.Temperature
	}
	if g.TopP != nil {
		gen["top_p"] = *g.TopP
	}
	if g.MaxTokens != nil {
		gen["max_tokens"] = *g.MaxTokens
	}
	results := []any{}
	for _, mt := range r.metrics[method] {
		cfg := map[string]any{"metric_id": mt.Name, "metric_name": mt.Name, "metric_unit": mt.Unit,
			"lower_is_better": lowerIsBetter(mt.Name), "score_type": "continuous",
			"evaluation_description": mt.Group + ": " + mt.Name + " of method " + method}
		switch mt.Unit {
		case "%":
			cfg["metric_unit"], cfg["min_score"], cfg["max_score"] = "percent", 0, 100
		default:
			cfg["min_score"], cfg["max_score"] = 0, "Infinity"
		}
		if mt.Name == "bwt_percent" {
			cfg["min_score"], cfg["max_score"] = "-Infinity", "Infinity"
		}
		details := map[string]any{"score": mt.Value}
		unc := map[string]any{"num_samples": mt.N}
		if mt.CI {
			unc["confidence_interval"] = map[string]any{"lower": mt.Lo, "upper": mt.Hi, "confidence_level": r.level, "method": "bootstrap percentile"}
			unc["num_bootstrap_samples"] = r.iters
			if se, ok := r.stderrOf(mt); ok {
				unc["standard_error"] = map[string]any{"value": se, "method": "bootstrap interval width / 2z"}
			}
		}
		details["uncertainty"] = unc
		res := map[string]any{
			"evaluation_result_id": method + "/" + mt.Key(), "evaluation_name": r.task() + "/" + mt.Group,
			"source_data": source, "evaluation_timestamp": r.finished().Format("2006-01-02T15:04:05Z07:00"),
			"metric_config": cfg, "score_details": details,
		}
		if len(gen) > 0 {
			res["generation_config"] = map[string]any{"generation_args": gen}
		}
		results = append(results, res)
	}
	return map[string]any{
		"schema_version": eeeSchemaVersion, "evaluation_id": evalID,
		"evaluation_timestamp": r.started().Format("2006-01-02T15:04:05Z07:00"),
		"retrieved_timestamp":  strconv.FormatInt(r.finished().Unix(), 10),
		"source_metadata": map[string]any{"source_name": "memharness run " + r.task(), "source_type": "evaluation_run",
			"source_organization_name": "unknown", "evaluator_relationship": "third_party"},
		"eval_library":       map[string]any{"name": "memharness", "version": m.HarnessVersion, "additional_details": lib},
		"model_info":         modelInfo,
		"evaluation_results": results,
	}
}

// promptText is a request's messages as one text: one message as is,
// several each headed by its role.
func promptText(msgs []llm.Message) string {
	if len(msgs) == 1 {
		return msgs[0].Content
	}
	var sb strings.Builder
	for i, m := range msgs {
		if i > 0 {
			sb.WriteString("\n\n")
		}
		sb.WriteString("[" + m.Role + "]\n" + m.Content)
	}
	return sb.String()
}

func stringMap(md map[string]any) map[string]string {
	out := make(map[string]string, len(md))
	for _, k := range slices.Sorted(maps.Keys(md)) {
		switch v := md[k].(type) {
		case string:
			out[k] = v
		case []callUsage:
			continue
		default:
			b, _ := json.Marshal(v)
			out[k] = string(b)
		}
	}
	return out
}

// writeEEEInstances streams method's per-instance JSONL and returns its
// SHA-256 and row count.
func (r *run) writeEEEInstances(cs *calls, method, evalID, path string) (string, int, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", 0, err
	}
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	w := bufio.NewWriterSize(io.MultiWriter(f, h), 1<<16)
	rows := 0
	err = r.eachItem(cs, method, func(it item) error {
		raw := promptText(it.Input)
		hash := sha256.Sum256([]byte(raw + "\x00" + it.Target))
		rec := map[string]any{
			"schema_version": eeeSchemaVersion, "evaluation_id": evalID, "model_id": r.model(),
			"evaluation_name": r.task() + "/" + it.Group, "sample_id": it.ID, "sample_hash": hex.EncodeToString(hash[:]),
			"input":      map[string]any{"raw": raw, "reference": []string{it.Target}},
			"evaluation": map[string]any{"score": it.Score, "is_correct": it.Correct, "num_turns": max(it.Turns, 1)},
			"token_usage": map[string]any{"input_tokens": it.Usage.PromptTokens, "output_tokens": it.Usage.CompletionTokens,
				"total_tokens": it.Usage.PromptTokens + it.Usage.CompletionTokens},
			"performance": map[string]any{"latency_ms": it.LatencyMS},
			"metadata":    stringMap(it.Metadata),
		}
		if !it.Agent {
			rec["evaluation_result_id"] = method + "/" + it.Group + "/accuracy_all"
		}
		if len(it.Input) > 0 {
			b, _ := json.Marshal(it.Input)
			rec["input"].(map[string]any)["formatted"] = string(b)
		}
		if it.Error != "" {
			rec["error"] = it.Error
		}
		extract := "harness answer parser (valid=" + strconv.FormatBool(it.Valid) + ")"
		if it.Agent {
			msgs := make([]map[string]any, len(it.Messages))
			last := 0
			for i, m := range it.Messages {
				msgs[i] = map[string]any{"turn_idx": i, "role": m.Role, "content": m.Content}
				if m.Role == "assistant" {
					last = i
				}
			}
			rec["interaction_type"] = "agentic"
			rec["messages"] = msgs
			rec["output"] = nil
			rec["answer_attribution"] = []any{map[string]any{"turn_idx": last, "source": "messages", "extracted_value": it.Answer,
				"extraction_method": "environment score of the episode's last action", "is_terminal": true}}
		} else {
			out := map[string]any{"raw": []string{it.Output}}
			rec["interaction_type"] = "single_turn"
			rec["output"] = out
			rec["answer_attribution"] = []any{map[string]any{"turn_idx": 0, "source": "output.raw", "extracted_value": it.Answer,
				"extraction_method": extract, "is_terminal": true}}
		}
		b, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		w.Write(b)
		w.WriteByte('\n')
		rows++
		return nil
	})
	if err != nil {
		return "", 0, err
	}
	if err := w.Flush(); err != nil {
		return "", 0, err
	}
	if err := f.Close(); err != nil {
		return "", 0, err
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), rows, nil
}
