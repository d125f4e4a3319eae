package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/methods/agent/lifemem"
)

func cmdMemory(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "memory", "memory show RUNDIR [--method NAME]",
		"Describes the memory a LifeMem run built: every cluster with its size, summary, rules and\n"+
			"environments, then the construction cost per operation and per 1,000 trajectories.")
	method := fs.String("method", "lifemem", "the LifeMem method of the run to describe")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 || pos[0] != "show" {
		fs.Usage()
		return errUsage
	}
	dir := filepath.Join(lifelong.MethodDir(pos[1], *method), "state")
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("no LifeMem state for method %q in %s: %w", *method, pos[1], err)
	}
	m, err := lifemem.Inspect(ctx, dir, lifemem.Options{})
	if err != nil {
		return err
	}
	defer m.Close()
	return m.Describe(stdio.Out)
}
