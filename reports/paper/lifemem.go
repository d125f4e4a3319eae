package paper

import "github.com/memharness/memharness/reports/unit"

// LifeMem's published numbers that survive in the paper's text (spec
// lifemem_envs.md §4.1). Table 2 and most figures are images, so only these
// anchors can be set beside a run; none is computed here.

// LifeMemAnchor is one published quantity.
type LifeMemAnchor struct {
	// Key says what to compute from a run to compare (see the constants).
	Key string
	// Method is the method it concerns as the paper names it ("" for the
	// whole run); a kind's entry names its row by it (kinds.PaperRow, table
	// LifeMemTableName).
	Method string
	// Env is the environment it concerns, when one, as the paper names it:
	// an environment's entry carries the name (envs.Entry.DisplayName).
	Env string
	// Backbone is the acting model of the paper's number ("" when the paper
	// does not tie it to one); Model is the ID a run's model name contains
	// when it is that backbone.
	Backbone, Model string
	Value           float64
	// Unit is from the reports' vocabulary (package unit): scores and OP
	// on their 0–100 scale are in percent, as in every other CSV.
	Unit string
	// Label says what the number is, Source where it is printed.
	Label, Source string
}

// LifeMemTableName is LifeMem's Table 2 (every method the paper compares)
// as a kind's entry names it in its paper rows.
const LifeMemTableName = "LifeMem Table 2"

// The methods the report's comparisons are built on, as the paper names
// them: the no-memory baseline and the exemplar-retrieval method that
// LifeMem's gains are stated over.
const (
	LifeMemBaseline = "ReAct"
	LifeMemExemplar = "Synapse"
)

// Anchor keys.
const (
	AnchorAvgOP        = "avg_op"         // mean final score over the stream (Table 2's Avg OP)
	AnchorDiag         = "diag"           // S[i][i] of Env
	AnchorFinal        = "final"          // S[N][i] of Env
	AnchorCell         = "cell"           // S[2][i] of Env after two stages (App. C example)
	AnchorBwTEnv       = "bwt_env"        // relative change of Env, percent
	AnchorSelfLearn    = "self_learn"     // self-learn score of Env
	AnchorMeanCluster  = "mean_cluster"   // mean cluster size of Env's trajectories
	AnchorPromptDelta  = "prompt_delta"   // LifeMem's acting prompt minus Synapse's, tokens per call
	AnchorBuildPer1k   = "build_per_1k"   // memory-construction cost per 1,000 trajectories, USD
	AnchorClusterPure  = "cluster_purity" // human-judged, not computable by the harness
	AnchorRelativeGain = "relative_gain"  // LifeMem over Synapse, relative OP gain, percent
)

// LifeMemAnchors returns the recoverable numbers, in the order the
// comparison table lists them.
func LifeMemAnchors() []LifeMemAnchor {
	const mini, ds = "GPT-4o-mini", "DeepSeek-v3.2-exp"
	return []LifeMemAnchor{
		{Key: AnchorAvgOP, Method: LifeMemBaseline, Backbone: mini, Model: "gpt-4o-mini", Value: 28.84, Unit: unit.Percent, Label: "Avg OP, ReAct", Source: "§5.5"},
		{Key: AnchorAvgOP, Method: "LifeMem", Backbone: mini, Model: "gpt-4o-mini", Value: 44.13, Unit: unit.Percent, Label: "Avg OP, LifeMem", Source: "§5.5"},
		{Key: AnchorAvgOP, Method: LifeMemBaseline, Backbone: ds, Model: "deepseek-v3.2", Value: 41.14, Unit: unit.Percent, Label: "Avg OP, ReAct", Source: "§5.5"},
		{Key: AnchorAvgOP, Method: "LifeMem", Backbone: ds, Model: "deepseek-v3.2", Value: 48.02, Unit: unit.Percent, Label: "Avg OP, LifeMem", Source: "§5.5"},
		{Key: AnchorCell, Method: LifeMemExemplar, Env: "ALFWorld", Backbone: mini, Model: "gpt-4o-mini", Value: 50.75, Unit: unit.Percent, Label: "Synapse, ALFWorld after ALFWorld→ScienceWorld", Source: "App. C, Table 6"},
		{Key: AnchorDiag, Method: LifeMemExemplar, Env: "ScienceWorld", Backbone: mini, Model: "gpt-4o-mini", Value: 35.25, Unit: unit.Percent, Label: "Synapse, ScienceWorld right after learning it", Source: "App. C, Table 6"},
		{Key: AnchorSelfLearn, Method: LifeMemExemplar, Env: "ScienceWorld", Backbone: mini, Model: "gpt-4o-mini", Value: 35.97, Unit: unit.Percent, Label: "Synapse, ScienceWorld self-learn", Source: "App. C, Table 6"},
		{Key: AnchorDiag, Method: LifeMemExemplar, Env: "MiniWoB++", Backbone: mini, Model: "gpt-4o-mini", Value: 77.08, Unit: unit.Percent, Label: "Synapse, MiniWoB++ right after learning it", Source: "App. C"},
		{Key: AnchorFinal, Method: LifeMemExemplar, Env: "MiniWoB++", Backbone: mini, Model: "gpt-4o-mini", Value: 75.00, Unit: unit.Percent, Label: "Synapse, MiniWoB++ after the full stream", Source: "App. C"},
		{Key: AnchorBwTEnv, Method: LifeMemExemplar, Env: "MiniWoB++", Backbone: mini, Model: "gpt-4o-mini", Value: -2.70, Unit: unit.Percent, Label: "Synapse, MiniWoB++ relative change", Source: "App. C"},
		{Key: AnchorRelativeGain, Method: "LifeMem", Backbone: mini, Model: "gpt-4o-mini", Value: 12.63, Unit: unit.Percent, Label: "LifeMem over Synapse, relative performance", Source: "App. G"},
		{Key: AnchorPromptDelta, Method: "LifeMem", Backbone: mini, Model: "gpt-4o-mini", Value: 300, Unit: unit.Tokens, Label: "LifeMem prompt minus Synapse prompt (≈)", Source: "App. G"},
		{Key: AnchorBuildPer1k, Method: "LifeMem", Value: 1, Unit: unit.USD, Label: "memory construction per 1k trajectories (≈)", Source: "App. G"},
		{Key: AnchorMeanCluster, Method: "LifeMem", Env: "WebShop", Value: 29, Unit: unit.Count, Label: "mean cluster size, WebShop", Source: "App. I"},
		{Key: AnchorMeanCluster, Method: "LifeMem", Env: "τ-bench retail", Value: 12, Unit: unit.Count, Label: "mean cluster size, τ-bench retail", Source: "App. I"},
		{Key: AnchorClusterPure, Method: "LifeMem", Value: 91, Unit: unit.Percent, Label: "cluster purity (human judgement)", Source: "App. I"},
	}
}
