package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/memharness/memharness/family"

	"github.com/memharness/memharness/runrecord"
)

// The final summary of run and suite as JSON (--json): one object on
// stdout, written whether the work succeeded or not, for scripts that
// would otherwise scrape the final line. The progress and warnings stay on
// stderr.

// runSummary is `bench run --json`'s object.
type runSummary struct {
	Config string `json:"config"`
	Dir    string `json:"dir"`
	// Status is "done", "failed", "interrupted" or "stopped at ceiling".
	Status    string `json:"status"`
	Error     string `json:"error,omitempty"`
	Planned   int    `json:"planned"`
	Done      int    `json:"done"`
	Errored   int    `json:"errored"`
	LiveCalls int    `json:"live_calls"`
	// Cost is the sum of the priced usage in USD; absent when not priced.
	Cost         *float64            `json:"cost_usd,omitempty"`
	Report       string              `json:"report,omitempty"`
	LeftOut      []runrecord.LeftOut `json:"left_out,omitempty"`
	DataWarnings []string            `json:"data_warnings,omitempty"`
	Usage        json.RawMessage     `json:"usage,omitempty"` // the run's usage.json
	ElapsedS     float64             `json:"elapsed_s"`
	Interrupted  *interruptedCounts  `json:"interrupted_at,omitempty"`
	// Ceiling says which ceiling stopped the run and what it had spent.
	Ceiling *ceilingCounts `json:"ceiling,omitempty"`
}

// ceilingCounts is a stop at eval.max_cost or eval.max_tokens: spent is
// over the run's live calls, earlier processes' included.
type ceilingCounts struct {
	Key         string  `json:"key"`
	Limit       float64 `json:"limit"`
	SpentUSD    float64 `json:"spent_usd"`
	SpentTokens int     `json:"spent_tokens"`
	Done        int     `json:"done"`
	Planned     int     `json:"planned"`
	Unit        string  `json:"unit"`
}

type interruptedCounts struct {
	Done    int    `json:"done"`
	Planned int    `json:"planned"`
	Unit    string `json:"unit"`
}

// status names how work ended.
func status(err error) string {
	switch {
	case err == nil:
		return "done"
	case errors.Is(err, context.Canceled):
		return "interrupted"
	case isCeilingStop(err):
		return family.StatusCeiling
	}
	return "failed"
}

func newRunSummary(rs family.Run, res family.Result, runErr error, elapsed time.Duration) (runSummary, error) {
	s := runSummary{
		Config: rs.Config.Name, Dir: rs.Dir, Status: status(runErr),
		Planned: res.Planned, Done: res.Done, Errored: res.Errored, LiveCalls: res.LiveCalls,
		LeftOut: res.LeftOut, DataWarnings: res.DataWarnings, ElapsedS: elapsed.Seconds(),
	}
	if runErr != nil {
		s.Error = runErr.Error()
	}
	var ie *interruptedError
	if errors.As(runErr, &ie) {
		s.Interrupted = &interruptedCounts{Done: ie.Done, Planned: ie.Planned, Unit: ie.Unit}
	}
	var cs *family.CeilingStop
	if errors.As(runErr, &cs) {
		s.Ceiling = &ceilingCounts{Key: cs.Cause.Name, Limit: cs.Cause.Limit, SpentUSD: cs.Cause.Spent.Cost,
			SpentTokens: cs.Cause.Spent.PromptTokens + cs.Cause.Spent.CompletionTokens, Done: cs.Done, Planned: cs.Planned, Unit: cs.Unit}
	}
	if b, err := os.ReadFile(filepath.Join(rs.Dir, runrecord.UsageFile)); err == nil {
		var usage map[string]runrecord.MethodUsage
		if err := json.Unmarshal(b, &usage); err != nil {
			return s, fmt.Errorf("%s: %w", filepath.Join(rs.Dir, runrecord.UsageFile), err)
		}
		s.Usage = json.RawMessage(b)
		for _, u := range usage {
			if u.Cost != nil {
				c := *u.Cost
				if s.Cost != nil {
					c += *s.Cost
				}
				s.Cost = &c
			}
		}
	}
	if idx := filepath.Join(rs.Dir, "report", "index.md"); fileExists(idx) {
		s.Report = idx
	}
	return s, nil
}

// writeJSONLine writes v as one indented JSON document.
func writeJSONLine(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// runWithSummary runs rs; with asJSON the human final lines go to stderr
// and the summary object to stdout.
func runWithSummary(ctx context.Context, stdio IO, rs family.Run, asJSON bool) error {
	if !asJSON {
		_, err := executeRun(ctx, stdio, rs)
		return err
	}
	inner := stdio
	inner.Out = stdio.Err
	start := time.Now()
	res, err := executeRun(ctx, inner, rs)
	s, serr := newRunSummary(rs, res, err, time.Since(start))
	if werr := writeJSONLine(stdio.Out, s); werr != nil && serr == nil {
		serr = werr
	}
	if err == nil {
		err = serr
	}
	return err
}

// suiteSummary is `bench suite --json`'s object.
type suiteSummary struct {
	Configs     []suiteConfig  `json:"configs"`
	OK          int            `json:"ok"`
	Failed      int            `json:"failed"`
	NotRun      int            `json:"not_run"`
	LeftOut     []suiteLeftOut `json:"left_out,omitempty"`
	Warnings    []string       `json:"data_warnings,omitempty"`
	ElapsedS    float64        `json:"elapsed_s"`
	Interrupted bool           `json:"interrupted,omitempty"`
}

type suiteConfig struct {
	Config string `json:"config"`
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
}

type suiteLeftOut struct {
	What    string   `json:"what"`
	Reason  string   `json:"reason"`
	Install string   `json:"install,omitempty"`
	Configs []string `json:"configs"`
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
