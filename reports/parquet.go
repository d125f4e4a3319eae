package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/memharness/memharness/internal/parquetw"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/runrecord"
)

// SampleRow is runrecord.Sample flattened for Parquet, so pandas, polars and
// DuckDB users can load a run without parsing JSON lines. The parquet tags
// name the columns (sampleColumns writes them; readers map them back).
type SampleRow struct {
	ID               string   `parquet:"id"`
	Method           string   `parquet:"method"`
	Dataset          string   `parquet:"dataset"`
	User             string   `parquet:"user"`
	Index            int64    `parquet:"index"`
	Scene            string   `parquet:"scene"`
	Field            string   `parquet:"field"`
	Kind             string   `parquet:"kind"`
	Label            string   `parquet:"label"`
	Pred             string   `parquet:"pred"`
	Valid            bool     `parquet:"valid"`
	Attempts         int64    `parquet:"attempts"`
	Raw              string   `parquet:"raw"`
	Error            string   `parquet:"error"`
	Calls            int64    `parquet:"calls"`
	CachedCalls      int64    `parquet:"cached_calls"`
	PromptTokens     int64    `parquet:"prompt_tokens"`
	CompletionTokens int64    `parquet:"completion_tokens"`
	Cost             *float64 `parquet:"cost,optional"` // null when the run has no prices
	LatencyMS        float64  `parquet:"latency_ms"`
	HistoryRecords   int64    `parquet:"history_records"`
	HistoryTokens    int64    `parquet:"history_tokens"`
	MemoryTokens     int64    `parquet:"memory_tokens"`
	// Scores are a conversational-memory answer's scores as a JSON object
	// ("" when the sample has none); Judge is the judge's label.
	Scores string `parquet:"scores"`
	Judge  string `parquet:"judge"`
	// Repeat is the draw of a sample asked eval.repeats times; the column
	// is written only by runs with more than one draw, so a run of one draw
	// keeps the file it had before repeats existed.
	Repeat int64 `parquet:"repeat"`
}

func sampleRow(s runrecord.Sample, priced bool) SampleRow {
	var cost *float64
	if priced {
		cost = &s.Cost
	}
	return SampleRow{
		ID: s.ID, Repeat: int64(s.Repeat), Method: s.Method, Dataset: s.Dataset, User: s.User, Index: int64(s.Index),
		Scene: s.Scene, Field: s.Field, Kind: s.Kind, Label: s.Label, Pred: s.Pred, Valid: s.Valid,
		Attempts: int64(s.Attempts), Raw: s.Raw, Error: s.Error,
		Calls: int64(s.Calls), CachedCalls: int64(s.CachedCalls),
		PromptTokens: int64(s.PromptTokens), CompletionTokens: int64(s.CompletionTokens),
		Cost: cost, LatencyMS: s.LatencyMS,
		HistoryRecords: int64(s.HistoryRecords), HistoryTokens: int64(s.HistoryTokens), MemoryTokens: int64(s.MemoryTokens),
		Scores: scoresJSON(s.Scores), Judge: s.Judge,
	}
}

// scoresJSON is a sample's scores as a JSON object, keys sorted; "" when
// it has none.
func scoresJSON(scores map[string]float64) string {
	if len(scores) == 0 {
		return ""
	}
	b, err := json.Marshal(scores)
	if err != nil {
		return fmt.Sprint(scores) // NaN or ±Inf: Go's map form, sorted, rather than nothing
	}
	return string(b)
}

// WriteSamplesParquet writes samples in log order to a Snappy-compressed
// Parquet file, one column per SampleRow field (named by its parquet tag).
// The created-by string is fixed so the bytes do not depend on the binary
// that wrote them. Costs are null unless the run was priced.
func WriteSamplesParquet(path string, samples []runrecord.Sample, priced bool) error {
	rows := make([]SampleRow, len(samples))
	for i, s := range samples {
		rows[i] = sampleRow(s, priced)
	}
	var buf bytes.Buffer
	if err := parquetw.Write(&buf, "memharness", sampleColumns(rows)); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// sampleColumns turns rows into SampleRow's columns, in field order.
func sampleColumns(rows []SampleRow) []parquetw.Column {
	str := func(name string, get func(*SampleRow) string) parquetw.Column {
		v := make([]string, len(rows))
		for i := range rows {
			v[i] = get(&rows[i])
		}
		return parquetw.Strings(name, v)
	}
	i64 := func(name string, get func(*SampleRow) int64) parquetw.Column {
		v := make([]int64, len(rows))
		for i := range rows {
			v[i] = get(&rows[i])
		}
		return parquetw.Int64s(name, v)
	}
	f64 := func(name string, get func(*SampleRow) float64) parquetw.Column {
		v := make([]float64, len(rows))
		for i := range rows {
			v[i] = get(&rows[i])
		}
		return parquetw.Float64s(name, v)
	}
	optF64 := func(name string, get func(*SampleRow) *float64) parquetw.Column {
		v, present := make([]float64, len(rows)), make([]bool, len(rows))
		for i := range rows {
			if p := get(&rows[i]); p != nil {
				v[i], present[i] = *p, true
			}
		}
		return parquetw.OptionalFloat64s(name, v, present)
	}
	valid := make([]bool, len(rows))
	for i := range rows {
		valid[i] = rows[i].Valid
	}
	cols := []parquetw.Column{
		str("id", func(r *SampleRow) string { return r.ID }),
		str("method", func(r *SampleRow) string { return r.Method }),
		str("dataset", func(r *SampleRow) string { return r.Dataset }),
		str("user", func(r *SampleRow) string { return r.User }),
		i64("index", func(r *SampleRow) int64 { return r.Index }),
		str("scene", func(r *SampleRow) string { return r.Scene }),
		str("field", func(r *SampleRow) string { return r.Field }),
		str("kind", func(r *SampleRow) string { return r.Kind }),
		str("label", func(r *SampleRow) string { return r.Label }),
		str("pred", func(r *SampleRow) string { return r.Pred }),
		parquetw.Bools("valid", valid),
		i64("attempts", func(r *SampleRow) int64 { return r.Attempts }),
		str("raw", func(r *SampleRow) string { return r.Raw }),
		str("error", func(r *SampleRow) string { return r.Error }),
		i64("calls", func(r *SampleRow) int64 { return r.Calls }),
		i64("cached_calls", func(r *SampleRow) int64 { return r.CachedCalls }),
		i64("prompt_tokens", func(r *SampleRow) int64 { return r.PromptTokens }),
		i64("completion_tokens", func(r *SampleRow) int64 { return r.CompletionTokens }),
		optF64("cost", func(r *SampleRow) *float64 { return r.Cost }),
		f64("latency_ms", func(r *SampleRow) float64 { return r.LatencyMS }),
		i64("history_records", func(r *SampleRow) int64 { return r.HistoryRecords }),
		i64("history_tokens", func(r *SampleRow) int64 { return r.HistoryTokens }),
		i64("memory_tokens", func(r *SampleRow) int64 { return r.MemoryTokens }),
		str("scores", func(r *SampleRow) string { return r.Scores }),
		str("judge", func(r *SampleRow) string { return r.Judge }),
	}
	for _, r := range rows {
		if r.Repeat > 0 {
			return append(cols, i64("repeat", func(r *SampleRow) int64 { return r.Repeat }))
		}
	}
	return cols
}

func (s *summary) writeParquet(dir string) ([]render.Artefact, error) {
	if err := WriteSamplesParquet(filepath.Join(dir, "samples.parquet"), s.Run.Samples, s.Priced()); err != nil {
		return nil, err
	}
	return []render.Artefact{{Path: "samples.parquet", Desc: "every sample record (one row per sample, columns as in samples.jsonl) for pandas, polars or DuckDB"}}, nil
}
