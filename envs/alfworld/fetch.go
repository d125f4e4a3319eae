package alfworld

import (
	"context"
	"fmt"
	"io"
	"path"
	"path/filepath"

	"github.com/memharness/memharness/datasets/fetch"
)

// Upstream commits the files are pinned to (LeapLabTHU/ExpeL keeps the
// ReAct/ExpeL evaluation set of ALFWorld's json_2.1.1 release in its
// history).
const (
	expelDataCommit = "8aef3ce0ad6fbcbdb0fe046ccb3c3d078eb6be85" // parent of the commit deleting data/alfworld/json_2.1.1
	expelListCommit = "e41ec9a24823e7b560c561ab191441b56d9bcefc"
)

type upstreamFile struct {
	path   string
	sha256 string
	size   int64
}

// FullReleaseURL is ALFWorld's own archive of every game file (train,
// valid_seen, valid_unseen; about 3,500 games), which alfworld-download
// fetches. No SHA-256 for it was found, so it is not in FetchSpec; unzip it
// into the data directory by hand (Open reads its json_2.1.1/ layout).
const FullReleaseURL = "https://aka.ms/alfworld/json_2.1.1_tw-pddl.zip"

// FetchSpec lists the official evaluation data as Open reads it: the 134
// valid_unseen games ReAct and ExpeL evaluate on, saved as
// json_2.1.1_eval134/valid_unseen/<task>/<trial>/game.tw-pddl, and
// alfworld_tasks_suffix.json (their order and initial observations). The
// files come from raw.githubusercontent at pinned ExpeL commits; the pins
// are the SHA-256 of the fixture copies of those files.
func FetchSpec() []fetch.Spec {
	gh := func(commit, p string) string {
		return "https://raw.githubusercontent.com/LeapLabTHU/ExpeL/" + commit + "/" + p
	}
	out := []fetch.Spec{{
		Name:     Name,
		URL:      gh(expelListCommit, "data/alfworld/"+TaskListFile),
		SHA256:   "16da9ca98102e29df16d3940a8f5fbc6c0e577ce6469b48ac5d17d8240c75e1a",
		Size:     81424,
		FileName: TaskListFile,
	}}
	for _, f := range evalGameFiles {
		out = append(out, fetch.Spec{
			Name:     Name,
			URL:      gh(expelDataCommit, "data/alfworld/json_2.1.1/valid_unseen/"+f.path),
			SHA256:   f.sha256,
			Size:     f.size,
			FileName: path.Join(EvalDir, "valid_unseen", f.path),
		})
	}
	return out
}

// FetchAll downloads every FetchSpec file below dataDir, creating the
// subdirectories (fetch.Fetch writes into one flat directory per call).
func FetchAll(ctx context.Context, dataDir string, progress io.Writer) error {
	for _, s := range FetchSpec() {
		dir := filepath.Join(dataDir, filepath.FromSlash(path.Dir(s.FileName)))
		s.FileName = path.Base(s.FileName)
		if _, err := fetch.Fetch(ctx, s, dir, progress); err != nil {
			return fmt.Errorf("alfworld: %w", err)
		}
	}
	return nil
}
