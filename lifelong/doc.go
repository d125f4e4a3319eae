// Package lifelong runs LifeMem's lifelong protocol (spec lifemem_envs.md
// §1.9–1.10) for any agent.Method: the training trajectories arrive as a
// stream of stages; after each stage the method closes it (EndStage) and is
// evaluated on the test set of every environment learned so far, filling the
// lower-triangular score matrix S[j][i]. Optional extras are a self-learn row
// (each environment learned and tested alone) and zero-shot evaluation on
// out-of-distribution environments after the full stream.
//
// The package never calls a model itself: methods do, through the agent.Env
// they are lent. It only decides what is learned when, which episodes run,
// and where results go.
//
// # Resuming
//
// Every evaluation cell (stage, environment) is a unit of work stored as
// soon as it finishes; the method's state is saved after every stage. A
// killed run restarts at the first missing cell: learned stages are not
// replayed (the method is restored instead) and finished cells are loaded.
//
// # On-disk layout
//
// Under a run directory (the same one that holds manifest.json), in the
// record types of package runrecord (Info, CellResult, StageRecord, Costs and
// Usage are aliases of them), which the reports read:
//
//	lifelong/run.json                         Info: stream, envs, OOD envs, methods, backbone, data source
//	lifelong/<method>/state/                  the method's own stores (agent.Env.Dir; Save/Restore)
//	lifelong/<method>/stages/<stage>.json     StageRecord, written after EndStage and Save
//	lifelong/<method>/cells/<stage>/<env>.json        CellResult (scores per task, usage)
//	lifelong/<method>/transcripts/<stage>/<env>.jsonl one envs.Transcript per task
//	lifelong/<method>/self/<env>/state/       the fresh method of a self-learn cell
//	lifelong/<method>/costs.json              Costs: construction vs acting
//	lifelong/<method>/matrix.json             Summary: S, OP, BwT, self-learn, OOD
//
// <stage> is the two-digit stage number ("01".."10") for cells of the
// stream, "self" for self-learn cells and "ood" for zero-shot cells. A
// method may add its own statistics file (LifeMem writes lifemem_stats.json
// into its state directory); reports read it when present. Every file is
// written atomically (temporary file, then rename), and a cell's JSON is
// written after its transcripts, so an existing cell file is always complete.
package lifelong
