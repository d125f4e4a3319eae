package reports

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"

	"github.com/memharness/memharness/runlog"
)

// SampleRow is runlog.Sample flattened for Parquet, so pandas, polars and
// DuckDB users can load a run without parsing JSON lines.
type SampleRow struct {
	ID               string  `parquet:"id"`
	Method           string  `parquet:"method"`
	Dataset          string  `parquet:"dataset"`
	User             string  `parquet:"user"`
	Index            int64   `parquet:"index"`
	Scene            string  `parquet:"scene"`
	Field            string  `parquet:"field"`
	Kind             string  `parquet:"kind"`
	Label            string  `parquet:"label"`
	Pred             string  `parquet:"pred"`
	Valid            bool    `parquet:"valid"`
	Attempts         int64   `parquet:"attempts"`
	Raw              string  `parquet:"raw"`
	Error            string  `parquet:"error"`
	Calls            int64   `parquet:"calls"`
	CachedCalls      int64   `parquet:"cached_calls"`
	PromptTokens     int64   `parquet:"prompt_tokens"`
	CompletionTokens int64   `parquet:"completion_tokens"`
	Cost             float64 `parquet:"cost"`
	LatencyMS        float64 `parquet:"latency_ms"`
	HistoryRecords   int64   `parquet:"history_records"`
	HistoryTokens    int64   `parquet:"history_tokens"`
	MemoryTokens     int64   `parquet:"memory_tokens"`
}

func sampleRow(s runlog.Sample) SampleRow {
	return SampleRow{
		ID: s.ID, Method: s.Method, Dataset: s.Dataset, User: s.User, Index: int64(s.Index),
		Scene: s.Scene, Field: s.Field, Kind: s.Kind, Label: s.Label, Pred: s.Pred, Valid: s.Valid,
		Attempts: int64(s.Attempts), Raw: s.Raw, Error: s.Error,
		Calls: int64(s.Calls), CachedCalls: int64(s.CachedCalls),
		PromptTokens: int64(s.PromptTokens), CompletionTokens: int64(s.CompletionTokens),
		Cost: s.Cost, LatencyMS: s.LatencyMS,
		HistoryRecords: int64(s.HistoryRecords), HistoryTokens: int64(s.HistoryTokens), MemoryTokens: int64(s.MemoryTokens),
	}
}

// WriteSamplesParquet writes samples in log order to a Snappy-compressed
// Parquet file. The created-by string is fixed so the bytes do not depend
// on the binary that wrote them.
func WriteSamplesParquet(path string, samples []runlog.Sample) error {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[SampleRow](&buf,
		parquet.Compression(&parquet.Snappy),
		parquet.CreatedBy("memharness", "", ""),
	)
	rows := make([]SampleRow, len(samples))
	for i, s := range samples {
		rows[i] = sampleRow(s)
	}
	if _, err := w.Write(rows); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func (s *summary) writeParquet(dir string) ([]Artefact, error) {
	if err := WriteSamplesParquet(filepath.Join(dir, "samples.parquet"), s.run.samples); err != nil {
		return nil, err
	}
	return []Artefact{{"samples.parquet", "every sample record (one row per sample, columns as in samples.jsonl) for pandas, polars or DuckDB"}}, nil
}
