package family

import (
	"context"
	"path/filepath"

	"github.com/memharness/memharness/bench/config"
)

// Rescorer is a family whose finished runs can be graded again (`bench
// rescore`): the stored answers under another judge, without asking the
// methods again.
type Rescorer interface {
	Rescore(ctx context.Context, env Env, r Rescoring) (Result, error)
}

// Rescoring is one re-grading of a finished run.
type Rescoring struct {
	// RunDir is the finished run; nothing in it but the rescore/ folder
	// is written.
	RunDir string
	// Config is the run's resolved config with the new judge settings.
	Config *config.Config
	// Dir is where the re-graded run goes (RunDir/rescore/NAME): a run
	// directory of its own, resumable, with its own report.
	Dir string
	// Out is the root whose .cache holds the judges' response caches.
	Out string
}

// RescoreFolder is the folder of a run directory that holds its rescores.
const RescoreFolder = "rescore"

// RescoreDir is where the rescore called name of the run in runDir goes.
func RescoreDir(runDir, name string) string { return filepath.Join(runDir, RescoreFolder, name) }

// RescoredRun is the run directory whose answers dir graded again, when
// dir is a rescore's (RUN/rescore/NAME): a rescore's own call record holds
// only its judge's calls, the answering calls stay in the run's.
func RescoredRun(dir string) (string, bool) {
	parent := filepath.Dir(filepath.Clean(dir))
	if filepath.Base(parent) != RescoreFolder {
		return "", false
	}
	return filepath.Dir(parent), true
}
