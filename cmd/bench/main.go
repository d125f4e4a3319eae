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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// The first signal asks the run to stop cleanly; restoring the default
	// handlers then lets a second one end the process at once, whatever it
	// is blocked on.
	go func() {
		<-ctx.Done()
		stop()
	}()
	code := bench.Main(ctx, os.Args[1:], bench.IO{Out: os.Stdout, Err: os.Stderr, Getenv: os.Getenv})
	stop()
	os.Exit(code)
}
