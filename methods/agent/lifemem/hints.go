package lifemem

// LifeMemTrajectory is one trajectory as a LifeMem prompt shows it.
type LifeMemTrajectory struct {
	// Label is how the prompt names the trajectory; answers must use it.
	Label string
	// Env is the environment the trajectory ran in.
	Env string
	// Task is the task text.
	Task string
	// Actions are the assistant turns, oldest first, as the prompt shows them.
	Actions []string
	// Vector is the trajectory's task embedding, kept for inspection. A
	// prompt shows text, not vectors, so the sim never reads it (it judges
	// how alike two trajectories read from their task text).
	Vector []float32 `json:",omitempty"`
}

// LifeMemCluster is a candidate cluster shown to the assignment call.
type LifeMemCluster struct {
	Name    string
	Summary string
	// Examples are at most a few member trajectories (a partial view).
	Examples []LifeMemTrajectory
}

// LifeMemAssign asks to place new trajectories into skill clusters
// (Purpose "lifemem.assign"). The answer has an <Analysis> section and an
// <Execution> section with one line per trajectory:
// "ADD <label> to <cluster>" or "NEW <cluster> with <label>"; cluster names
// are snake_case. Candidates is empty for the first batch of a fresh memory,
// so only NEW lines can be right then.
type LifeMemAssign struct {
	Trajectories []LifeMemTrajectory
	Candidates   []LifeMemCluster
}

// LifeMemSummary asks for a one-sentence description of a cluster
// (Purpose "lifemem.summary"), starting "This cluster is about".
type LifeMemSummary struct {
	Cluster  string
	Previous string
	// Members are the trajectories shown (a sample of large clusters).
	Members []LifeMemTrajectory
}

// LifeMemSplit asks to dissolve a cluster into finer ones
// (Purpose "lifemem.split"): an <Analysis> section, then an <Execution>
// section listing every "NEW <cluster> with <label>" line first and then
// "ADD <label> to <cluster>" lines, so that every member is placed in one of
// MinClusters..MaxClusters new clusters, none named like the old one.
type LifeMemSplit struct {
	Cluster     string
	Summary     string
	Members     []LifeMemTrajectory
	MinClusters int
	MaxClusters int
}

// LifeMemRules asks the ExpeL-style rule editor to revise a cluster's rules
// after reading a batch of its trajectories (Purpose "lifemem.rules"). The
// answer is one operation per line: "AGREE <n>: <rule>", "REMOVE <n>: <rule>",
// "EDIT <n>: <new rule>" or "ADD <n>: <new rule>", where n numbers Rules
// from 1; at most MaxOps operations other than AGREE, and the list may not
// grow beyond MaxRules.
type LifeMemRules struct {
	Cluster      string
	Summary      string
	Rules        []string
	Trajectories []LifeMemTrajectory
	MaxOps       int
	MaxRules     int
}
