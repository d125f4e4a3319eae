package family

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runrecord"
)

// A finished run whose inputs are unchanged is not redone: re-running
// `make bench` would otherwise reload data, rebuild every plan, recompute
// every bootstrap and rewrite byte-identical reports. The fingerprint,
// stored in the manifest once the report is written, covers what decides the
// outputs: the config hash, this build of the harness, the report options,
// the dataset files (re-hashed when they come from dataset.path) and every
// file of the run directory (name, size, modification time) except the
// report itself and the manifest, and the samples log's SHA-256 besides
// (runrecord.SamplesSum): a log rewritten at the same size and time is a change.

// Fingerprint computes the fingerprint of a run directory as it is now.
func Fingerprint(dir, configHash string, opts reports.Options) (string, error) {
	h := sha256.New()
	opts.Envs, opts.PaperRows = nil, nil // the build below names them
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
		if rel == runrecord.ManifestFile || strings.HasPrefix(d.Name(), ".") || strings.HasSuffix(d.Name(), ".lock") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s\x00%d\x00%d", rel, info.Size(), info.ModTime().UnixNano())
		if rel == runrecord.SamplesFile {
			// Size and time survive a copy that kept them; the log's
			// bytes decide the report, so they are hashed (one read,
			// far less than the report's decoding of them).
			sum, err := runrecord.SamplesSum(dir)
			if err != nil {
				return err
			}
			line += fmt.Sprintf("\x00%x", sum)
		}
		files = append(files, line)
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
	id := HarnessVersion
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			id += fmt.Sprintf(" %s %d %d", exe, st.Size(), st.ModTime().UnixNano())
		}
	}
	return id
}

// UpToDate returns the manifest of the run's directory when it holds a
// finished, reported run of its config that nothing has changed since; ok
// is false otherwise (and always for a shard, or without a report).
func UpToDate(f Family, run Run, cfg *config.Config) (runrecord.Manifest, bool) {
	if !run.Report || run.Shard != nil {
		return runrecord.Manifest{}, false
	}
	dir, configHash := run.Dir, MustHash(cfg)
	man, err := runrecord.ReadManifest(filepath.Join(dir, runrecord.ManifestFile))
	if err != nil || man.Finished == nil || man.Fingerprint == "" || man.ConfigHash != configHash || man.Errored > 0 {
		return man, false
	}
	if _, err := os.Stat(filepath.Join(dir, reports.ReportDir, "index.md")); err != nil {
		return man, false
	}
	if cfg.Dataset.Path != "" && !f.DataUnchanged(cfg, man.DatasetSHA256) {
		return man, false
	}
	fp, err := Fingerprint(dir, configHash, f.ReportOptions(cfg, nil)) // the fingerprint leaves the environments out
	if err != nil || fp != man.Fingerprint {
		return man, false
	}
	return man, true
}
