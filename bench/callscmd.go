package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/memharness/memharness/bench/calllist"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

func cmdCalls(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "calls", "calls RUNDIR [--purpose P] [--user U] [--sample ID] [--json]",
		"Prints the model calls a run recorded: every sample's calls and every memory-construction call,\n"+
			"each draw (invalid ones included), in the order they were saved. With --json, one JSON object\n"+
			"per line holding the request as sent (messages and sampling parameters, never credentials)\n"+
			"and the reply, e.g. to replay the run's requests against another endpoint.")
	purpose := fs.String("purpose", "", "only calls of this purpose (e.g. predict, pramem.reflect, mem0.extract)")
	user := fs.String("user", "", "only calls made for this user (routing affinity, or the user's memory files)")
	sample := fs.String("sample", "", "only the calls of this sample ID")
	asJSON := fs.Bool("json", false, "print JSON lines instead of a table")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return errUsage
	}
	run := pos[0]
	if !isRunDir(run) {
		if below := runDirsBelow(run, 4); len(below) > 0 {
			return fmt.Errorf("%s is not a run directory; pass one of: %s", run, strings.Join(below, ", "))
		}
		return fmt.Errorf("%s is not a run directory (no %s)", run, runrecord.ManifestFile)
	}
	cr, err := runstore.OpenCalls(run)
	if err != nil {
		return err
	}
	defer cr.Close()
	var keep func(string) bool
	if *sample != "" {
		unit := runstore.SampleUnit(*sample)
		keep = func(u string) bool { return u == unit }
	}
	n, lost := 0, 0
	purposes := map[string]int{}
	err = cr.Each(keep, func(c runstore.Call) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		purposes[c.Purpose]++
		if *purpose != "" && c.Purpose != *purpose || *user != "" && !calllist.OfUser(c, *user) {
			return nil
		}
		n++
		if c.Lost != "" {
			lost++
		}
		if *asJSON {
			b, err := json.Marshal(calllist.NewLine(c))
			if err != nil {
				return fmt.Errorf("encode call %d of %s: %w", c.Index, c.Unit, err)
			}
			_, err = fmt.Fprintf(stdio.Out, "%s\n", b)
			return err
		}
		return calllist.WriteRow(stdio.Out, c)
	})
	if err != nil {
		return err
	}
	if n == 0 && *purpose != "" && purposes[*purpose] == 0 && len(purposes) > 0 {
		names := make([]string, 0, len(purposes))
		for p, k := range purposes {
			names = append(names, fmt.Sprintf("%s (%d)", p, k))
		}
		sort.Strings(names)
		return fmt.Errorf("no recorded call has purpose %q; the run's purposes: %s", *purpose, strings.Join(names, ", "))
	}
	if n == 0 && !*asJSON {
		fmt.Fprintln(stdio.Err, "no recorded calls match (runs made before the call record keep usage only)")
	}
	if lost > 0 {
		var why []string
		for _, d := range cr.Damage() {
			why = append(why, runrecord.ChunksFile+" damaged at "+d.String())
		}
		if len(why) == 0 {
			why = append(why, runrecord.ChunksFile+" cut short or deleted")
		}
		return fmt.Errorf("%d of the %d calls listed have lost their request and reply texts (%s); every readable call is listed",
			lost, n, strings.Join(why, "; "))
	}
	return nil
}
