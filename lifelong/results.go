package lifelong

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/memharness/memharness/metrics"
)

// Dir is the folder of lifelong results inside a run directory.
const Dir = "lifelong"

// InfoVersion is the version of run.json's format.
const InfoVersion = 1

// Info is lifelong/run.json: what the reports need to title and order the
// results without reading the bench manifest.
type Info struct {
	Version int    `json:"version"`
	Name    string `json:"name"`
	Variant string `json:"variant,omitempty"`
	// Backbone is "sim" or "openai"; Model the acting model, BuildModel the
	// memory-construction model when different.
	Backbone   string `json:"backbone"`
	Model      string `json:"model"`
	BuildModel string `json:"build_model,omitempty"`
	// DataSource says where tasks and trajectories came from (e.g.
	// "embedded suites; gold trajectories of the train split").
	DataSource string `json:"data_source"`
	// Config is the lifelong config as run: Config.Envs is the stream that
	// actually ran, without the environments in LeftOut.
	Config Config `json:"config"`
	// LeftOut lists configured environments that could not run here.
	LeftOut []LeftOut `json:"left_out,omitempty"`
	// TestSets says, per environment that ran, how many test tasks it had
	// and where that set comes from (the paper's, an assumption, or the
	// whole split because the paper's is unknown).
	TestSets []TestSetRecord `json:"test_sets,omitempty"`
}

// TestSetRecord is one environment's test set as run.
type TestSetRecord struct {
	Env   string `json:"env"`
	Tasks int    `json:"tasks"`
	// Status is "paper", "assumed", "unknown" (the whole split ran: the
	// paper's split is not recoverable), "whole" (the whole split ran though
	// the paper's size is known), "config" (a test_size the paper does not
	// give) or "embedded".
	Status string `json:"status"`
	Note   string `json:"note,omitempty"`
}

// LeftOut is a configured environment that did not run, with the reason and
// the command that installs what it lacks.
type LeftOut struct {
	Env     string `json:"env"`
	Reason  string `json:"reason"`
	Install string `json:"install,omitempty"`
}

// MethodDir is where Run writes one method's results.
func MethodDir(runDir, method string) string {
	return filepath.Join(runDir, Dir, method)
}

// WriteInfo writes lifelong/run.json.
func WriteInfo(runDir string, info Info) error {
	if info.Version == 0 {
		info.Version = InfoVersion
	}
	return writeJSON(filepath.Join(runDir, Dir, "run.json"), info)
}

// ReadInfo reads lifelong/run.json.
func ReadInfo(runDir string) (Info, error) {
	var info Info
	path := filepath.Join(runDir, Dir, "run.json")
	ok, err := readJSON(path, &info)
	if err != nil {
		return Info{}, err
	}
	if !ok {
		return Info{}, fmt.Errorf("%s: not found", path)
	}
	return info, nil
}

// Summary is lifelong/<method>/matrix.json: the headline numbers of one
// method (the reports recompute them from the cells; this file is for
// people and scripts). Missing values are null.
type Summary struct {
	Method      string             `json:"method"`
	Stream      string             `json:"stream"`
	Envs        []string           `json:"envs"`
	S           [][]*float64       `json:"s"`
	OP          *float64           `json:"op"`
	BwT         *float64           `json:"bwt_percent"`
	BwTWarnings []string           `json:"bwt_warnings,omitempty"`
	SelfLearn   map[string]float64 `json:"self_learn,omitempty"`
	OOD         map[string]float64 `json:"ood,omitempty"`
}

func optional(v float64) *float64 {
	if math.IsNaN(v) {
		return nil
	}
	return &v
}

func newSummary(method, stream string, m metrics.ScoreMatrix, self, ood map[string]float64) Summary {
	s := Summary{Method: method, Stream: stream, Envs: m.Envs, SelfLearn: self, OOD: ood}
	for _, row := range m.S {
		r := make([]*float64, len(row))
		for i, v := range row {
			r[i] = optional(v)
		}
		s.S = append(s.S, r)
	}
	s.OP = optional(metrics.OP(m))
	b := metrics.BwT(m)
	s.BwT = optional(b.Value)
	for _, w := range b.Warnings {
		s.BwTWarnings = append(s.BwTWarnings, w.Error())
	}
	return s
}
