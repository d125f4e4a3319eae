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
	code := bench.Main(ctx, os.Args[1:], bench.IO{Out: os.Stdout, Err: os.Stderr, Getenv: os.Getenv})
	stop()
	os.Exit(code)
}
