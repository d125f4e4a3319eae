// Package dbbench is LifelongAgentBench's database task (LifeMem's "DB"
// environment, spec §2.7): single-table MySQL questions an agent answers by
// issuing SQL. Each episode gets a fresh, uniquely named throwaway database
// holding the task's table; the agent's statements run there, on the
// MySQL-dialect engine go-mysql-server in a bench-sql process (cmd/bench-sql,
// found next to the bench binary, named by MEMHARNESS_BENCH_SQL, or built on
// demand inside a source checkout) by default, or on a real MySQL/MariaDB
// server when a DSN is configured.
//
// Actions follow the upstream protocol: "Action: Operation" followed by one
// ```sql block (executed; the observation is the rows in Python repr, "[]"
// for writes, the error text on failure), or "Action: Answer" followed by a
// line "Final Answer: [...]" (ends the episode). Anything else ends the
// episode as a failure, as upstream does.
//
// Scoring: SELECT tasks compare the final answer's tuples with the stored
// rows (upstream's lenient comparison: floats within 1e-6, Decimal(...)
// unwrapped, stray quotes tolerated, row order matters); INSERT, UPDATE and
// DELETE tasks compare an MD5 fingerprint of the table, computed by the
// database itself, with the stored one — at the end of the episode however
// it ends, as upstream does.
//
// Agent SQL is untrusted: every statement is parsed and checked before it
// runs (see guard.go) so it cannot read or write files, reach other
// databases, change server state or escape its database; limits.go bounds
// its size, nesting, UNION terms and join inputs before any engine plans it;
// each statement has a timeout and results are capped. The engine process
// is killed when a statement overruns its deadline (planning included) or
// the episode's memory ceiling, and a fresh one replays the episode's
// statements, so the episode goes on.
package dbbench
