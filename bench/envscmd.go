package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/internal/nearest"
)

// envsAbout is the help text of `bench envs`; the data root layout is listed
// from the registry so that it cannot drift from what OpenData reads.
func envsAbout(reg *all.Registry) string {
	var layout []string
	for _, e := range reg.Entries() {
		layout = append(layout, fmt.Sprintf("    %-18s %s/", e.Name, e.DataSubdir))
	}
	return "  list    every agent environment with its embedded task count, step limit, data folder,\n" +
		"          the name reports show and its LifeMem transfer category\n" +
		"  check   replay each task's gold solution and count full scores (all environments, or NAME);\n" +
		"          --json prints one JSON line per environment. An environment that cannot run on this\n" +
		"          machine (MiniWoB++ without Chromium or its npm libraries) is reported as skipped with\n" +
		"          the command that installs what is missing, not as failed\n" +
		"  replay  play the gold solution of task TASK and print its transcript as JSON; without TASK,\n" +
		"          list the environment's task IDs, one per line\n" +
		"\n" +
		"Without --data the embedded suites (written for memharness, compiled in) are used. With\n" +
		"--data DIR the official data is read from DIR, a data root that holds one folder per\n" +
		"environment:\n" + strings.Join(layout, "\n") + "\n" +
		"'bench data fetch NAME' downloads an environment's pinned files into exactly this layout below\n" +
		"its cache ($MEMHARNESS_DATA or the user cache dir) and prints the root to pass as --data.\n" +
		"An environment whose folder is missing from DIR is skipped with the command that fetches it."
}

// envAbout is what `bench envs list` says of an entry besides its tasks:
// the name reports show and its LifeMem transfer category.
func envAbout(e all.Entry) string {
	category := "no category (outside the LifeMem stream)"
	if e.Category != "" {
		category = "category: " + e.Category
	}
	return e.Label() + ", " + category
}

func cmdEnvs(ctx context.Context, stdio IO, args []string) error {
	reg := stdio.Kinds.EnvKinds()
	fs := newFlags(stdio.Err, "envs", "envs list | check [NAME] [--data DIR] [--json] | replay NAME [TASK] [--data DIR]", envsAbout(reg))
	data := fs.String("data", "", "data root of the official data, one folder per environment (see above)")
	asJSON := fs.Bool("json", false, "list, check: one JSON line per environment")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		fs.Usage()
		return errUsage
	}
	if *data != "" {
		// A data root that does not exist is a typo, not twelve missing
		// environments.
		st, err := os.Stat(*data)
		if err != nil {
			return fmt.Errorf("--data %s: no such data root (%w); 'bench data fetch NAME' prints the root it fills", *data, err)
		}
		if !st.IsDir() {
			return fmt.Errorf("--data %s: not a directory (want a data root with one folder per environment)", *data)
		}
	}
	// The database task runs on a real MySQL/MariaDB server when one is given
	// (CI starts one with scripts/ci-mariadb.sh).
	eo := all.Options{MySQLDSN: stdio.Getenv("MEMHARNESS_MYSQL_DSN")}
	open := func(e all.Entry) (envs.Suite, error) {
		if *data != "" {
			return e.OpenData(*data, eo)
		}
		return e.OpenEmbedded(eo)
	}
	switch pos[0] {
	case "list":
		for _, e := range reg.Entries() {
			// One JSON line per environment with --json: tasks and
			// max_steps are absent for one with official data only.
			line := struct {
				Env      string `json:"env"`
				Display  string `json:"display_name"`
				Category string `json:"category,omitempty"`
				Tasks    *int   `json:"embedded_tasks,omitempty"`
				MaxSteps *int   `json:"max_steps,omitempty"`
				Data     string `json:"data"`
			}{Env: e.Name, Display: e.Label(), Category: e.Category, Data: e.DataSubdir}
			if e.Embedded != nil {
				s, err := e.Embedded()
				if err != nil {
					return fmt.Errorf("%s: %w", e.Name, err)
				}
				n, steps := len(s.Tasks()), s.MaxSteps()
				closeSuite(s)
				line.Tasks, line.MaxSteps = &n, &steps
			}
			switch {
			case *asJSON:
				b, _ := json.Marshal(line)
				fmt.Fprintf(stdio.Out, "%s\n", b)
			case line.Tasks == nil: // a registered environment with official data only
				fmt.Fprintf(stdio.Out, "%-20s    - embedded tasks                data: %-19s %s\n", e.Name, e.DataSubdir, envAbout(e))
			default:
				fmt.Fprintf(stdio.Out, "%-20s %4d embedded tasks  max %2d steps  data: %-19s %s\n", e.Name, *line.Tasks, *line.MaxSteps, e.DataSubdir, envAbout(e))
			}
		}
		return nil
	case "check":
		entries := reg.Entries()
		if len(pos) > 2 {
			fs.Usage()
			return errUsage
		}
		if len(pos) == 2 {
			e, err := reg.Find(pos[1])
			if err != nil {
				return err
			}
			entries = []all.Entry{e}
		}
		return envsCheck(ctx, stdio, entries, open, *data, *asJSON)
	case "replay":
		if len(pos) != 2 && len(pos) != 3 {
			fs.Usage()
			return errUsage
		}
		e, err := reg.Find(pos[1])
		if err != nil {
			return err
		}
		s, err := open(e)
		if err != nil {
			return err
		}
		defer closeSuite(s)
		if len(pos) == 2 {
			for _, t := range s.Tasks() {
				fmt.Fprintln(stdio.Out, t.ID)
			}
			return nil
		}
		return envsReplay(ctx, stdio.Out, s, pos[2])
	default:
		fmt.Fprintf(stdio.Err, "bench envs: unknown action %q\n", pos[0])
		fs.Usage()
		return errUsage
	}
}

// envsCheck replays the gold solutions of every entry and prints one line
// (or JSON line) per environment. Environments that cannot run here, or
// whose data is not below the data root, are skipped with the command that
// fixes it; a check that checked nothing fails.
func envsCheck(ctx context.Context, stdio IO, entries []all.Entry, open func(all.Entry) (envs.Suite, error), data string, asJSON bool) error {
	start := time.Now()
	failed, checked := 0, 0
	var skipped []string
	skip := func(e all.Entry, err error, install string) {
		skipped = append(skipped, e.Name)
		if asJSON {
			line := map[string]any{"env": e.Name, "tasks": 0, "passed": 0, "failed": 0, "failing": []string{}, "skipped": err.Error()}
			if install != "" {
				line["install"] = install
			}
			b, _ := json.Marshal(line)
			fmt.Fprintln(stdio.Out, string(b))
			return
		}
		msg := err.Error()
		if install != "" && !strings.Contains(msg, install) {
			msg += "; get it with: " + install
		}
		fmt.Fprintf(stdio.Out, "%-20s skipped: %s\n", e.Name, msg)
	}
	for _, e := range entries {
		s, err := open(e)
		if err == nil {
			err = envs.CheckPrerequisites(s)
			if err != nil {
				closeSuite(s)
			}
		}
		var res envs.CheckResult
		if err == nil {
			res, err = envs.Check(ctx, s)
			closeSuite(s)
		}
		if err != nil {
			if p := (*envs.Prerequisite)(nil); errors.As(err, &p) {
				skip(e, p, p.Install)
				continue
			}
			if data != "" && (errors.Is(err, envs.ErrNoData) || !hasData(filepath.Join(data, filepath.FromSlash(e.DataSubdir)))) {
				// Official data that is not there (Mind2Web cannot be
				// shipped): say so and how to get it, don't fail.
				install := ""
				if e.Fetch != nil {
					install = "bench data fetch " + e.Name
				}
				skip(e, err, install)
				continue
			}
			return fmt.Errorf("%s: %w", e.Name, err)
		}
		checked++
		failed += res.Failed
		if asJSON {
			line := struct {
				Env     string   `json:"env"`
				Tasks   int      `json:"tasks"`
				Passed  int      `json:"passed"`
				Failed  int      `json:"failed"`
				Failing []string `json:"failing"`
				// Excluded: tasks whose official data is itself inconsistent, with why.
				Excluded map[string]string `json:"excluded,omitempty"`
				Seconds  float64           `json:"seconds"`
			}{res.Env, res.Tasks, res.Passed, res.Failed, res.Failing, res.Excluded, res.Seconds}
			if line.Failing == nil {
				line.Failing = []string{}
			}
			b, _ := json.Marshal(line)
			fmt.Fprintln(stdio.Out, string(b))
		} else {
			fmt.Fprintf(stdio.Out, "%-20s %4d/%-4d passed  %.2fs\n", res.Env, res.Passed, res.Tasks, res.Seconds)
			for _, id := range res.Failing {
				fmt.Fprintf(stdio.Out, "  FAIL %s: %s\n", id, res.Reasons[id])
			}
			for _, id := range sortedKeys(res.Excluded) {
				fmt.Fprintf(stdio.Out, "  excluded (data issue) %s: %s\n", id, res.Excluded[id])
			}
		}
	}
	summary := fmt.Sprintf("%d environments checked", checked)
	if len(skipped) > 0 {
		summary += fmt.Sprintf(", %d skipped (%s)", len(skipped), strings.Join(skipped, ", "))
	}
	fmt.Fprintf(stdio.Err, "envs check: %s in %s\n", summary, time.Since(start).Round(time.Millisecond))
	switch {
	case checked == 0 && data != "":
		return fmt.Errorf("nothing checked: no environment's data found below %s (see 'bench envs --help' for the layout)", data)
	case checked == 0:
		return fmt.Errorf("nothing checked: every environment asked for was skipped")
	case failed > 0:
		return fmt.Errorf("%d tasks failed their oracle", failed)
	}
	return nil
}

// envsReplay plays the gold solution of task id and prints its transcript.
func envsReplay(ctx context.Context, w io.Writer, s envs.Suite, id string) error {
	var ids []string
	for _, t := range s.Tasks() {
		if t.ID != id {
			ids = append(ids, t.ID)
			continue
		}
		or, ok := s.(envs.Oracle)
		if !ok {
			return fmt.Errorf("%s has no gold solutions", s.Name())
		}
		gold, err := or.Gold(t)
		if err != nil {
			return err
		}
		opts := envs.Options{Seed: 1}
		if oo, ok := s.(envs.OracleOptions); ok {
			opts = oo.GoldOptions(t)
		}
		tr, err := envs.Run(ctx, s, t, envs.Replay(gold), opts, len(gold)+1)
		if err != nil {
			return err
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(tr)
	}
	msg := fmt.Sprintf("%s: no task %q", s.Name(), id)
	if near := nearest.Closest(id, ids, 5); len(near) > 0 {
		msg += "; closest: " + strings.Join(near, ", ")
	}
	return fmt.Errorf("%s ('bench envs replay %s' lists all %d)", msg, s.Name(), len(ids))
}

// hasData reports whether dir holds anything besides provenance notes.
func hasData(dir string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if n := strings.ToUpper(e.Name()); n != "SOURCES.MD" && n != "README.MD" {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// closeSuite releases what a suite holds (MiniWoB's browser).
func closeSuite(s envs.Suite) {
	if c, ok := s.(io.Closer); ok {
		c.Close()
	}
}
