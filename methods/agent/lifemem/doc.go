// Package lifemem implements LifeMem, lifelong experience reuse for agents:
// a memory of recorded trajectories organised into skill clusters by an LLM,
// with per-cluster skill rules, queried at inference for the most similar
// same-environment trajectories and the rules of their clusters.
//
// State lives under agent.Env.Dir: lifemem.db, one SQLite file with the
// reference code's tables clusters(cluster_id, summary, examples,
// representations) and trajectory_map(trajectory_id, cluster_id), plus
// exemplars (id, env, task, messages JSON and the unit task embedding: the
// exact vector index). Save snapshots it to lifemem.saved.db and writes
// lifemem.json (unfinished batch, clusters touched in the stage, counters);
// Restore goes back to that snapshot; Inspect opens it read-only for
// Describe and Stats.
//
// Construction (model env.Builder(), every call with a LifeMem* for the
// sim backbone): trajectories are buffered into batches of five. Each batch
// retrieves the four nearest stored trajectories of every member (all
// environments: clusters may span them), shows their clusters (at most
// three examples each) to an assignment call answering ADD/NEW lines, and
// re-asks (bounded, counted) for any trajectory the answer left out before
// placing it with its nearest neighbour; the first batch of a fresh memory
// sees no cluster, so it can only open new ones. Touched clusters are
// re-summarised ("This cluster is about …"), and every cluster with more
// than L members whose unit embeddings have a mean resultant length below τ
// is dissolved by a split call into 3–6 new clusters. EndStage commits a
// partial batch and re-distils from scratch the rules of every cluster
// touched in the stage with an ExpeL-style editor (AGREE/REMOVE/EDIT/ADD).
//
// Inference (Agent): the TopK stored trajectories of the task's environment
// nearest to the instruction, and at most five rules of their clusters
// (best exemplar's cluster first, rule order kept, duplicates dropped),
// rendered by the shared agent.NewAgent. Where the paper (arXiv
// 2609.12655) and the authors' code (github.com/BITHLP/LifeMem) disagree,
// the choice made is stated at the code that makes it.
package lifemem
