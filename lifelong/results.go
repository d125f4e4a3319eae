package lifelong

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/runrecord"
)

// Dir is the folder of lifelong results inside a run directory.
const Dir = runrecord.LifelongDir

// InfoVersion is the version of run.json's format.
const InfoVersion = runrecord.LifelongInfoVersion

// Info is lifelong/run.json with the whole lifelong config as run.
type Info = runrecord.LifelongInfo[Config]

// TestSetRecord is one environment's test set as run.
type TestSetRecord = runrecord.LifelongTestSet

// LeftOut is a configured environment that did not run, with the reason and
// the command that installs what it lacks.
type LeftOut = runrecord.LifelongLeftOut

// MethodDir is where Run writes one method's results.
func MethodDir(runDir, method string) string {
	return filepath.Join(runDir, Dir, method)
}

// WriteInfo writes lifelong/run.json.
func WriteInfo(runDir string, info Info) error {
	if info.Version == 0 {
		info.Version = InfoVersion
	}
	return writeJSON(filepath.Join(runDir, Dir, runrecord.LifelongInfoFile), info)
}

// ReadInfo reads lifelong/run.json.
func ReadInfo(runDir string) (Info, error) {
	var info Info
	path := filepath.Join(runDir, Dir, runrecord.LifelongInfoFile)
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
