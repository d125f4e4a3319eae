package bench

import (
	"context"
	"fmt"
	"log"

	"github.com/memharness/memharness/bench/view"
)

func cmdView(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "view", "view [RUNS_DIR] [--addr HOST:PORT]",
		"Serves a browsable report of every run and sweep under RUNS_DIR (default runs): configs and\n"+
			"manifests, tables and figures, each sample's prompt and response, agent transcripts and the\n"+
			"memory each method built. Everything is served from this binary; nothing is fetched.")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (keep 127.0.0.1 unless you mean to share the runs)")
	var hosts multiFlag
	fs.Var(&hosts, "allow-host", "also answer requests for this host `NAME` (the machine's name on the network, with --addr 0.0.0.0:PORT; repeatable)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		fs.Usage()
		return errUsage
	}
	root := "runs"
	if len(pos) == 1 {
		root = pos[0]
	}
	srv, err := view.NewServer(root, log.New(stdio.Err, "", 0))
	if err != nil {
		return err
	}
	srv.Kinds = stdio.Kinds.PredictKinds()
	for _, h := range hosts {
		srv.AllowHost(h)
	}
	return view.Serve(ctx, *addr, srv, func(url string) {
		fmt.Fprintf(stdio.Out, "bench view: serving %s at %s (Ctrl-C stops)\n", root, url)
	})
}
