// Package batchcmd is the `bench batch` verb: what a run's provider batches
// (backbone.batch) are doing, cancelling them, and the offline round trip
// through vLLM's run-batch (export the waiting requests, import the output).
package batchcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/batch"
)

// Synopsis and About are the verb's usage text.
const (
	Synopsis = "batch status RUN | cancel RUN | export RUN [--purpose P[,P...]] [-o FILE] | import RUN RESULTS.jsonl"
	About    = `Shows and handles a run's provider batches (backbone.batch):
  status   the waves of the run's batches: where each stands, its batch and file ids, what came back
  cancel   ask the provider to stop the run's batches still running (key from OPENAI_API_KEY)
  export   write the requests waiting offline (backbone.batch.provider: offline) as a vllm run-batch input file
  import   read a run-batch output file back; the next run takes its answers. A reply that matches no
           waiting request is refused, naming it`
)

// Actions are the verb's actions, in About's order (for shell completion).
func Actions() []string { return []string{"status", "cancel", "export", "import"} }

// FlagSet makes the verb's flag set (the CLI's, which prints its usage).
type FlagSet func(w io.Writer, name, synopsis, about string) *flag.FlagSet

// Run runs `bench batch ARGS`; a call the usage text answers returns
// errUsage (the CLI's, for its exit code), asked-for help flag.ErrHelp.
func Run(ctx context.Context, out, errw io.Writer, getenv func(string) string, args []string, errUsage error, newFlags FlagSet) error {
	fs := newFlags(errw, "batch", Synopsis, About)
	purposes := fs.String("purpose", "", "export: only requests of these call purposes (comma-separated)")
	outFile := fs.String("o", "", "export: write to this file instead of stdout")
	// Flags may come before, between or after the positional arguments.
	var pos []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return errUsage
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		pos, rest = append(pos, rest[0]), rest[1:]
	}
	if len(pos) == 0 {
		fs.Usage()
		return errUsage
	}
	action := pos[0]
	pos = pos[1:]
	if !slices.Contains(Actions(), action) {
		fmt.Fprintf(errw, "bench batch: unknown action %q (want %s)\n", action, strings.Join(Actions(), ", "))
		fs.Usage()
		return errUsage
	}
	want := 1
	if action == "import" {
		want = 2
	}
	if len(pos) != want {
		fs.Usage()
		return errUsage
	}
	root := filepath.Join(pos[0], "batches")
	dirs, err := batch.Dirs(root)
	if err != nil {
		return err
	}
	if len(dirs) == 0 {
		return fmt.Errorf("%s holds no provider batches (no %s; backbone.batch sends calls in batches)", pos[0], filepath.Join(root, "*", batch.JournalName))
	}
	switch action {
	case "status":
		return status(out, dirs)
	case "cancel":
		return cancel(ctx, out, dirs, getenv("OPENAI_API_KEY"))
	case "export":
		var ps []string
		if *purposes != "" {
			ps = strings.Split(*purposes, ",")
		}
		w, closeOut := out, func() error { return nil }
		if *outFile != "" {
			f, err := os.Create(*outFile)
			if err != nil {
				return err
			}
			w, closeOut = f, f.Close
		}
		n, err := batch.Export(root, ps, w)
		if cerr := closeOut(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("no request of %s waits offline%s", pos[0], forPurposes(ps))
		}
		fmt.Fprintf(errw, "wrote %d request(s); run them with: vllm run-batch -i FILE -o results.jsonl --model MODEL, then: bench batch import %s results.jsonl\n", n, pos[0])
		return nil
	case "import":
		data, err := os.ReadFile(pos[1])
		if err != nil {
			return err
		}
		ok, failed, err := batch.Import(root, pos[1], data)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "imported %d answer(s)", ok)
		if failed > 0 {
			fmt.Fprintf(out, "; %d request(s) came back without one and are sent again", failed)
		}
		fmt.Fprintf(out, ". Run the config again to take them.\n")
		return nil
	}
	fs.Usage()
	return errUsage
}

func forPurposes(ps []string) string {
	if len(ps) == 0 {
		return ""
	}
	return " for purpose " + strings.Join(ps, ", ")
}

func status(out io.Writer, dirs []string) error {
	open := 0
	for _, dir := range dirs {
		waves, err := batch.ReadJournal(dir)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s\n", dir)
		for _, w := range waves {
			if w.Open() {
				open++
			}
			fmt.Fprintf(out, "  wave %d: %s, %d request(s) (%s) to %s", w.Wave, stepText(w), len(w.Requests), byPurpose(w.Requests), w.Provider)
			if w.BatchID != "" {
				fmt.Fprintf(out, ", batch %s", w.BatchID)
			}
			if w.FileID != "" {
				fmt.Fprintf(out, ", file %s", w.FileID)
			}
			fmt.Fprintln(out)
		}
	}
	fmt.Fprintf(out, "%d wave(s) in flight or waiting offline\n", open)
	return nil
}

func stepText(w batch.WaveState) string {
	switch w.Step {
	case batch.StepDone, batch.StepImported:
		s := fmt.Sprintf("%s %s, %d answered", w.Step, w.Status, w.OK)
		if w.Failed > 0 {
			s += fmt.Sprintf(", %d without an answer (sent again)", w.Failed)
		}
		if w.Unknown > 0 {
			s += fmt.Sprintf(", %d output line(s) for requests it did not send (ignored)", w.Unknown)
		}
		return s
	case batch.StepOffline:
		return "waiting offline (bench batch export)"
	case batch.StepWritten:
		return "written, not uploaded (sent again by the next run)"
	}
	return w.Step + " (the next run re-attaches to it)"
}

func byPurpose(reqs []batch.Request) string {
	n := map[string]int{}
	for _, r := range reqs {
		n[r.Purpose]++
	}
	keys := make([]string, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, n[k])
	}
	return strings.Join(parts, ", ")
}

func cancel(ctx context.Context, out io.Writer, dirs []string, key string) error {
	n := 0
	for _, dir := range dirs {
		waves, err := batch.ReadJournal(dir)
		if err != nil {
			return err
		}
		for _, w := range waves {
			if w.Step != batch.StepSubmitted || w.BatchID == "" {
				continue
			}
			if !strings.HasPrefix(w.Provider, "http") {
				fmt.Fprintf(out, "wave %d (%s): the embedded stand-in's batches end with their run; nothing to cancel\n", w.Wave, w.Provider)
				continue
			}
			p, err := batch.NewOpenAI(w.Provider, key, llm.NewHTTPClient(1))
			if err != nil {
				return err
			}
			b, err := p.Cancel(ctx, w.BatchID)
			if err != nil {
				return fmt.Errorf("wave %d: %w", w.Wave, err)
			}
			n++
			fmt.Fprintf(out, "wave %d: batch %s is %s (answers it already gave are still taken by the next run)\n", w.Wave, b.ID, b.Status)
		}
	}
	fmt.Fprintf(out, "%d batch(es) asked to stop\n", n)
	return nil
}
