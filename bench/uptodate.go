package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/datasets/movielens"
	"github.com/memharness/memharness/prediction"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runlog"
)

// A finished run whose inputs are unchanged is not redone: re-running
// `make bench` would otherwise reload data, rebuild every plan, recompute
// every bootstrap and rewrite byte-identical reports. The fingerprint,
// stored in the manifest once the report is written, covers what decides the
// outputs: the config hash, this build of the harness, the report options,
// the dataset files (re-hashed when they come from dataset.path) and every
// file of the run directory (name, size, modification time) except the
// report itself and the manifest.

// runFingerprint computes the fingerprint of a run directory as it is now.
func runFingerprint(dir, configHash string, opts reports.Options) (string, error) {
	h := sha256.New()
	opts.Envs = nil // the build below names them
	fmt.Fprintf(h, "config %s\nbuild %s\nreport %+v\n", configHash, buildIdentity(), opts)
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == reports.ReportDir || rel == ShardsDir || (rel != "." && strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if rel == runlog.ManifestFile || strings.HasPrefix(d.Name(), ".") || strings.HasSuffix(d.Name(), ".lock") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, fmt.Sprintf("%s\x00%d\x00%d", rel, info.Size(), info.ModTime().UnixNano()))
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	for _, f := range files {
		io.WriteString(h, f+"\n")
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// buildIdentity names this build of the harness: its version and the
// executable's path, size and modification time, so any rebuild counts as
// a change (a dirty checkout keeps its commit, but not its binary).
func buildIdentity() string {
	id := Version
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			id += fmt.Sprintf(" %s %d %d", exe, st.Size(), st.ModTime().UnixNano())
		}
	}
	return id
}

// upToDate returns the manifest of dir when dir holds a finished, reported
// run of cfg that nothing has changed since; ok is false otherwise.
func upToDate(dir string, cfg *config.Config, configHash string, wantReport bool) (runlog.Manifest, bool) {
	if !wantReport {
		return runlog.Manifest{}, false
	}
	man, err := runlog.ReadManifest(filepath.Join(dir, runlog.ManifestFile))
	if err != nil || man.Finished == nil || man.Fingerprint == "" || man.ConfigHash != configHash || man.Errored > 0 {
		return man, false
	}
	if _, err := os.Stat(filepath.Join(dir, reports.ReportDir, "index.md")); err != nil {
		return man, false
	}
	if cfg.Dataset.Path != "" && !dataUnchanged(cfg, man.DatasetSHA256) {
		return man, false
	}
	fp, err := runFingerprint(dir, configHash, reportOptions(cfg))
	if err != nil || fp != man.Fingerprint {
		return man, false
	}
	return man, true
}

// dataUnchanged re-hashes the dataset files a manifest recorded, the way
// the loader recorded them. A run without recorded digests (agent
// environments' official data) is never taken as unchanged.
func dataUnchanged(cfg *config.Config, sums map[string]string) bool {
	if len(sums) == 0 {
		return false
	}
	root := cfg.Dataset.Path
	if cfg.Task == "movielens" {
		now, err := movielens.SHA256s(root)
		return err == nil && maps.Equal(now, sums)
	}
	single := false
	if st, err := os.Stat(root); err == nil && !st.IsDir() {
		single = true // a one-file dataset is recorded under its base name
	}
	for rel, want := range sums {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if single {
			p = root
		}
		got, err := prediction.FileSHA256(p)
		if err != nil || got != want {
			return false
		}
	}
	return true
}
