// Package mind2web is the Mind2Web cross-task environment (LifeMem's web
// browsing stream, following Synapse's offline evaluation).
//
// Mind2Web is scored offline and step by step: an episode walks the human
// (gold) action sequence of one task; at each step the agent sees the page
// pruned around the top-k ranked candidate elements and answers one action,
// `CLICK [id]`, `TYPE [id] [value]` or `SELECT [id] [value]`, where id is a
// backend_node_id. The action is scored against the gold action of that step
// (element accuracy, operation F1, step success = exact action string) and
// the environment then moves to the next gold step whatever the agent did
// (teacher forcing); the agent is told the gold action it should have taken.
// The episode score is task success: every step successful. Observations
// follow LifeMem's stored trajectories: "Task: …\nTrajectory:\nObservation:
// `<html> …`".
//
// As in Synapse, a step whose gold element is not among the top-k candidates
// is not shown to the agent and counts as a failure, so such tasks can never
// succeed; Suite.Stats and Suite.UnreachableSteps report them.
//
// Two deliberate leniencies over Synapse's string comparison: operation
// names are case-insensitive and answers are compared in canonical form
// (so `CLICK [ 7 ]` equals `CLICK [7]`); a value runs to the action's last
// "]", so values may contain brackets.
//
// Data: Open reads the official JSON release (test_task/*.json, extracted
// from the encrypted test.zip with ExtractTestZip; FetchSpec pins the
// download) plus, optionally, the candidate ranks of scores_all_data.pkl
// converted to JSON (ScoresFile). Without ranks a lexical ranker stands in
// and Stats says so. Embedded returns a small suite written for this
// project in the same format.
package mind2web
