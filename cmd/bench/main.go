// Command bench is the memharness CLI; see package bench for the verbs.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/memharness/memharness/bench"
)

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	// The first signal asks the work to stop cleanly (the cause names the
	// signal, for the exit status); restoring the default handlers then
	// lets a second one end the process at once, whatever it is blocked on.
	go func() {
		s := <-sigs
		cancel(bench.Interrupted{Signal: s})
		signal.Reset(os.Interrupt, syscall.SIGTERM)
	}()
	code := bench.Main(ctx, os.Args[1:], bench.IO{Out: os.Stdout, Err: os.Stderr, Getenv: os.Getenv})
	cancel(nil)
	os.Exit(code)
}
