package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// cmdSuite runs several configs one after the other (make bench), going on
// past a failing one, and ends with a summary of what failed and what was
// left out. It exits non-zero only when a config failed.
func cmdSuite(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "suite", "suite [--out DIR] [--set key=value ...] [--profile NAME] [--json] CONFIG...",
		"Runs every CONFIG (a config with a sweep block runs as 'bench sweep', any other as\n"+
			"'bench run'), continuing past failures, then prints what failed and what was left out\n"+
			"(environments whose prerequisites are missing, users whose data could not be read).\n"+
			"Exits 1 when any config failed; left-out parts alone do not fail the suite. The summary\n"+
			"goes to stdout (with --json as one JSON object); each config's progress to stderr.")
	out := fs.String("out", "runs", "directory that holds run directories")
	var sets multiFlag
	fs.Var(&sets, "set", "override a config key in every config (repeatable)")
	profile := fs.String("profile", "", "apply this profile (e.g. paper) to every config that has a profiles block")
	asJSON := fs.Bool("json", false, "print the summary as one JSON object on stdout")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		fmt.Fprintln(stdio.Err, "bench suite: name at least one CONFIG")
		fs.Usage()
		return errUsage
	}
	start := time.Now()
	type result struct {
		config  string
		err     error
		outcome sweepOutcome
	}
	var results []result
	for i, c := range pos {
		fmt.Fprintf(stdio.Err, "== [%d/%d] %s\n", i+1, len(pos), c)
		prof := *profile
		if prof != "" && !hasProfiles(c) {
			fmt.Fprintf(stdio.Err, "bench suite: %s has no profiles block; it runs at its own sizes\n", c)
			prof = ""
		}
		// Each config's own final lines are progress of the suite: stderr.
		inner := stdio
		inner.Out = stdio.Err
		o, err := executeSweep(ctx, inner, c, sets, *out, prof)
		results = append(results, result{config: c, err: err, outcome: o})
		if err != nil && ctx.Err() == nil {
			fmt.Fprintf(stdio.Err, "bench suite: %s failed: %v\n", c, err)
		}
		if ctx.Err() != nil {
			break
		}
	}

	// Summary: failures, then left-out parts grouped by what and why.
	var failed []string
	type group struct {
		what, reason, install string
		configs               []string
	}
	var groups []*group
	var warnings []string
	var js suiteSummary
	interrupted := 0
	for _, r := range results {
		name := strings.TrimSuffix(filepath.Base(r.config), filepath.Ext(r.config))
		sc := suiteConfig{Config: r.config, Status: status(r.err)}
		if r.err != nil && ctx.Err() != nil {
			sc.Status = "interrupted" // stopped by the signal, not failed
			interrupted++
		}
		if r.err != nil {
			sc.Error = r.err.Error()
		}
		js.Configs = append(js.Configs, sc)
		if r.err != nil && sc.Status != "interrupted" { // a ceiling stop is work not done too
			failed = append(failed, fmt.Sprintf("%s: %v", r.config, r.err))
		}
		for _, lo := range r.outcome.leftOut {
			i := slices.IndexFunc(groups, func(g *group) bool { return g.what == lo.What && g.install == lo.Install })
			if i < 0 {
				groups = append(groups, &group{what: lo.What, reason: lo.Reason, install: lo.Install})
				i = len(groups) - 1
			}
			if !slices.Contains(groups[i].configs, name) {
				groups[i].configs = append(groups[i].configs, name)
			}
		}
		for _, w := range r.outcome.dataWarnings {
			if w = name + ": " + w; !slices.Contains(warnings, w) {
				warnings = append(warnings, w)
			}
		}
	}
	ok := len(results) - len(failed) - interrupted
	if *asJSON {
		js.OK, js.Failed, js.NotRun = ok, len(failed), len(pos)-len(results)
		js.Warnings, js.ElapsedS, js.Interrupted = warnings, time.Since(start).Seconds(), ctx.Err() != nil
		for _, g := range groups {
			js.LeftOut = append(js.LeftOut, suiteLeftOut{What: g.what, Reason: g.reason, Install: g.install, Configs: g.configs})
		}
		if err := writeJSONLine(stdio.Out, js); err != nil {
			return err
		}
	}
	// The summary is the suite's result: stdout, unless it went out as JSON.
	w := stdio.Out
	if *asJSON {
		w = stdio.Err
	}
	fmt.Fprintf(w, "\n== bench suite: %d configs, %d ok, %d failed, %s\n", len(results), ok, len(failed),
		time.Since(start).Round(time.Second))
	if skipped := len(pos) - len(results) + interrupted; skipped > 0 {
		fmt.Fprintf(w, "not run (interrupted): %d configs\n", skipped)
	}
	for _, g := range groups {
		fmt.Fprintf(w, "left out: %s in %s — %s\n", g.what, strings.Join(g.configs, ", "), g.reason)
		if g.install != "" && !strings.Contains(g.reason, g.install) {
			fmt.Fprintf(w, "  to include it: %s\n", g.install)
		}
	}
	for _, d := range warnings {
		fmt.Fprintf(w, "data warning: %s\n", d)
	}
	for _, f := range failed {
		fmt.Fprintf(w, "FAILED %s\n", f)
	}
	if len(groups) == 0 && len(warnings) == 0 && len(failed) == 0 {
		fmt.Fprintln(w, "nothing left out, no data warnings")
	}
	if ctx.Err() != nil {
		return &interruptedError{Done: ok + len(failed), Planned: len(pos), Unit: "configs"}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d configs failed (listed above)", len(failed), len(results))
	}
	return nil
}

// hasProfiles reports whether a config file has a top-level profiles block.
func hasProfiles(path string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return true // let the config loader report the problem
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "profiles:") {
			return true
		}
	}
	return false
}
