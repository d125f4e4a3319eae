package bench

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/memharness/memharness/bench/memories"
	"github.com/memharness/memharness/runrecord"
)

func cmdMemory(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "memory", "memory show RUNDIR [--method NAME] [--user U] [--json]",
		"Describes the memory the methods of a run built, from the files the run keeps.\n"+
			"  without --method  every method with memory, one line each\n"+
			"  --method NAME     that method: per user (prediction runs) or its clusters and rules (LifeMem)\n"+
			"  --user U          one user's memory in full: PraMem round by round (experience and bias\n"+
			"                    alerts after each round, then the final sections); Mem0 and MemOS their\n"+
			"                    stored units; ProEx its candidate profiles; every method the memory text\n"+
			"                    exactly as the prompt shows it")
	method := fs.String("method", "", "the method to describe (its name in the run's config)")
	user := fs.String("user", "", "prediction runs: the user whose memory to show in full")
	asJSON := fs.Bool("json", false, "print one JSON document instead of text")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 || pos[0] != "show" {
		fs.Usage()
		return errUsage
	}
	run := pos[1]
	if !isRunDir(run) {
		if below := runDirsBelow(run, 4); len(below) > 0 {
			return fmt.Errorf("%s is not a run directory; pass one of: %s", run, strings.Join(below, ", "))
		}
		return fmt.Errorf("%s is not a run directory (no %s)", run, runrecord.ManifestFile)
	}
	if *user != "" && *method == "" {
		return fmt.Errorf("--user needs --method (the methods with memory: 'bench memory show %s')", run)
	}
	methods, err := memories.Methods(run, stdio.Kinds.PredictKinds(), stdio.Kinds.AgentKinds())
	if err != nil {
		return err
	}
	if *method == "" {
		return memories.List(stdio.Out, run, methods, *asJSON)
	}
	i := slices.IndexFunc(methods, func(m memories.Method) bool { return m.Name == *method })
	if i < 0 {
		var names []string
		for _, m := range methods {
			names = append(names, m.Name)
		}
		if len(names) == 0 {
			return fmt.Errorf("%s: no method of this run built memory", run)
		}
		return fmt.Errorf("%s: method %q has no memory here (methods with memory: %s)", run, *method, strings.Join(names, ", "))
	}
	m := methods[i]
	if m.Agent {
		if *user != "" {
			return fmt.Errorf("--user: %s is an agent method; its memory is shared by every task", m.Name)
		}
		return memories.ShowAgent(ctx, stdio.Out, run, m, *asJSON)
	}
	if *user == "" {
		return memories.ShowUsers(stdio.Out, m, *asJSON)
	}
	return memories.ShowUser(stdio.Out, run, m, *user, *asJSON)
}
