// Command bench-sql is dbbench's SQL engine process: it serves one episode
// database on go-mysql-server over the sqlwire protocol on stdin/stdout.
// bench starts one per episode and kills it when a statement overruns its
// time or memory; it is not meant to be run by hand.
package main

import (
	"fmt"
	"os"

	"github.com/memharness/memharness/envs/dbbench/sqlengine"
)

func main() {
	if err := sqlengine.Serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
