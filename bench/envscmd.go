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
)

func cmdEnvs(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "envs", "envs list | check [NAME] [--data DIR] [--json] | replay NAME TASK [--data DIR]",
		"  list    every agent environment with its embedded task count and step limit\n"+
			"  check   replay each task's gold solution and count full scores (all environments, or NAME);\n"+
			"          --data DIR reads the official data laid out like shared/fixtures/envs, else the\n"+
			"          embedded suites; --json prints one JSON line per environment\n"+
			"  replay  play the gold solution of one task and print its transcript as JSON")
	data := fs.String("data", "", "root of the official data, one folder per environment (taubench/retail, alfworld, ...)")
	asJSON := fs.Bool("json", false, "check: one JSON line per environment")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		fs.Usage()
		return errUsage
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
		for _, e := range all.Entries() {
			s, err := e.Embedded()
			if err != nil {
				return fmt.Errorf("%s: %w", e.Name, err)
			}
			closeSuite(s)
			fmt.Fprintf(stdio.Out, "%-20s %4d embedded tasks  max %2d steps  data: %s\n", e.Name, len(s.Tasks()), s.MaxSteps(), e.DataSubdir)
		}
		return nil
	case "check":
		entries := all.Entries()
		if len(pos) > 1 {
			e, err := all.Find(pos[1])
			if err != nil {
				return err
			}
			entries = []all.Entry{e}
		}
		start := time.Now()
		failed := 0
		for _, e := range entries {
			s, err := open(e)
			if err != nil {
				if *data != "" && (errors.Is(err, envs.ErrNoData) || !hasData(filepath.Join(*data, filepath.FromSlash(e.DataSubdir)))) {
					// Official data that cannot be shipped (e.g. Mind2Web): say so, don't fail.
					if *asJSON {
						b, _ := json.Marshal(map[string]any{"env": e.Name, "tasks": 0, "passed": 0, "failed": 0, "failing": []string{}, "skipped": err.Error()})
						fmt.Fprintln(stdio.Out, string(b))
					} else {
						fmt.Fprintf(stdio.Out, "%-20s skipped: %v\n", e.Name, err)
					}
					continue
				}
				return fmt.Errorf("%s: %w", e.Name, err)
			}
			res, err := envs.Check(ctx, s)
			closeSuite(s)
			if err != nil {
				return fmt.Errorf("%s: %w", e.Name, err)
			}
			failed += res.Failed
			if *asJSON {
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
		fmt.Fprintf(stdio.Err, "envs check: %d environments in %s\n", len(entries), time.Since(start).Round(time.Millisecond))
		if failed > 0 {
			return fmt.Errorf("%d tasks failed their oracle", failed)
		}
		return nil
	case "replay":
		if len(pos) != 3 {
			fs.Usage()
			return errUsage
		}
		e, err := all.Find(pos[1])
		if err != nil {
			return err
		}
		s, err := open(e)
		if err != nil {
			return err
		}
		defer closeSuite(s)
		for _, t := range s.Tasks() {
			if t.ID != pos[2] {
				continue
			}
			or, ok := s.(envs.Oracle)
			if !ok {
				return fmt.Errorf("%s has no gold solutions", e.Name)
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
			enc := json.NewEncoder(stdio.Out)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			return enc.Encode(tr)
		}
		return fmt.Errorf("%s: no task %q", e.Name, pos[2])
	default:
		fmt.Fprintf(stdio.Err, "bench envs: unknown action %q\n", pos[0])
		fs.Usage()
		return errUsage
	}
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
