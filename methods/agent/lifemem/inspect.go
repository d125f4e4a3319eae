package lifemem

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
)

// Stats summarise the memory and what building it cost.
type Stats struct {
	Trajectories int `json:"trajectories"`
	Clusters     int `json:"clusters"`
	// Sizes are the cluster sizes, largest first.
	Sizes []int `json:"sizes"`
	// ClustersPerEnv counts, per environment, the clusters holding at least
	// one of its trajectories (a cluster shared by two environments counts
	// for both).
	ClustersPerEnv map[string]int `json:"clusters_per_env"`
	// TrajectoriesPerEnv counts stored trajectories per environment.
	TrajectoriesPerEnv map[string]int `json:"trajectories_per_env"`
	// MeanSizePerEnv is, per environment, the mean size of the clusters
	// holding at least one of its trajectories (the paper's mean cluster
	// size, App. I); it is not TrajectoriesPerEnv ÷ ClustersPerEnv, which
	// ignores the other environments' members of a shared cluster.
	MeanSizePerEnv map[string]float64 `json:"mean_size_per_env"`
	// Mixed counts the trajectories stored in a cluster that holds other
	// environments' trajectories too: their environment's tasks read rules
	// distilled partly from another environment (0 on a similarity stream
	// with a coherent assigner).
	Mixed int `json:"mixed_trajectories"`
	// Rules is the number of rules over all clusters.
	Rules   int `json:"rules"`
	Pending int `json:"pending"`
	Batches int `json:"batches"`
	Stages  int `json:"stages"`
	// Ops is the model usage per construction operation (assign, summary,
	// split, rules).
	Ops map[string]OpStats `json:"ops"`
	// Total sums Ops; PerThousand is Total per 1,000 ingested trajectories
	// (the paper quotes about $1 per 1,000 trajectories).
	Total       OpStats  `json:"total"`
	PerThousand OpStats  `json:"per_thousand"`
	Counters    Counters `json:"counters"`
}

// Stats returns the current statistics.
func (m *LifeMem) Stats() Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := Stats{
		Trajectories:       len(m.rows),
		Clusters:           len(m.clusters),
		ClustersPerEnv:     map[string]int{},
		TrajectoriesPerEnv: map[string]int{},
		MeanSizePerEnv:     map[string]float64{},
		Pending:            len(m.st.Pending),
		Batches:            m.st.Batches,
		Stages:             m.st.Stages,
		Ops:                maps.Clone(m.st.Ops),
		Counters:           m.st.Count,
	}
	sizeSum := map[string]int{} // per env, the sizes of the clusters holding it
	for _, c := range m.clusters {
		s.Sizes = append(s.Sizes, len(c.members))
		s.Rules += len(c.rules)
		envs := m.envCounts(c)
		for env := range envs {
			s.ClustersPerEnv[env]++
			sizeSum[env] += len(c.members)
		}
		if len(envs) > 1 {
			s.Mixed += len(c.members)
		}
	}
	slices.SortFunc(s.Sizes, func(a, b int) int { return b - a })
	for env, n := range s.ClustersPerEnv {
		s.MeanSizePerEnv[env] = float64(sizeSum[env]) / float64(n)
	}
	for _, r := range m.rows {
		s.TrajectoriesPerEnv[r.env]++
	}
	for _, op := range s.Ops {
		s.Total.Calls += op.Calls
		s.Total.PromptTokens += op.PromptTokens
		s.Total.CompletionTokens += op.CompletionTokens
		s.Total.Cost += op.Cost
	}
	if n := m.st.Count.Ingested; n > 0 {
		f := 1000 / float64(n)
		s.PerThousand = OpStats{
			Calls:            int(float64(s.Total.Calls)*f + 0.5),
			PromptTokens:     int(float64(s.Total.PromptTokens)*f + 0.5),
			CompletionTokens: int(float64(s.Total.CompletionTokens)*f + 0.5),
			Cost:             s.Total.Cost * f,
		}
	}
	return s
}

func (m *LifeMem) envCounts(c *cluster) map[string]int {
	out := map[string]int{}
	for _, n := range c.members {
		out[m.rows[n].env]++
	}
	return out
}

// Describe writes a readable listing of the memory: totals, then every
// cluster (largest first, then by name) with its size, per-environment
// membership, summary and rules, then the construction cost.
func (m *LifeMem) Describe(w io.Writer) error {
	st := m.Stats()
	m.mu.Lock()
	defer m.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d trajectories in %d clusters, %d rules (%d batches, %d stages, %d pending)\n",
		m.Name(), st.Trajectories, st.Clusters, st.Rules, st.Batches, st.Stages, st.Pending)
	names := slices.Collect(maps.Keys(m.clusters))
	slices.SortFunc(names, func(a, b string) int {
		if d := len(m.clusters[b].members) - len(m.clusters[a].members); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	for _, name := range names {
		c := m.clusters[name]
		counts := m.envCounts(c)
		envNames := slices.Sorted(maps.Keys(counts))
		parts := make([]string, len(envNames))
		for i, e := range envNames {
			parts[i] = fmt.Sprintf("%s %d", e, counts[e])
		}
		fmt.Fprintf(&b, "\n## %s (%d: %s)\n", name, len(c.members), strings.Join(parts, ", "))
		if c.summary != "" {
			fmt.Fprintf(&b, "%s\n", c.summary)
		}
		for i, r := range c.rules {
			fmt.Fprintf(&b, "  %d. %s\n", i+1, r)
		}
	}
	b.WriteString("\nconstruction cost:\n")
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "op\tcalls\tprompt tokens\tcompletion tokens\tcost")
	for _, op := range slices.Sorted(maps.Keys(st.Ops)) {
		o := st.Ops[op]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.4f\n", op, o.Calls, o.PromptTokens, o.CompletionTokens, o.Cost)
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t%d\t%.4f\n", st.Total.Calls, st.Total.PromptTokens, st.Total.CompletionTokens, st.Total.Cost)
	fmt.Fprintf(tw, "per 1,000 trajectories\t%d\t%d\t%d\t%.4f\n", st.PerThousand.Calls, st.PerThousand.PromptTokens,
		st.PerThousand.CompletionTokens, st.PerThousand.Cost)
	tw.Flush()
	c := st.Counters
	fmt.Fprintf(&b, "\ningested %d, duplicates %d, bad lines %d, retried %d, fallback %d, coerced %d, "+
		"split checks %d, splits %d, split failures %d, split leftovers %d, bad summaries %d, rule ops %d (ignored %d)\n",
		c.Ingested, c.Duplicates, c.BadLines, c.Retried, c.Fallback, c.Coerced,
		c.SplitChecks, c.Splits, c.SplitFailures, c.SplitLeftover, c.BadSummaries, c.RuleOps, c.RuleOpsIgnored)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("lifemem: describe: %w", err)
	}
	return nil
}

// Inspect loads the memory last saved under dir, read-only, for Describe,
// Stats and Retrieve (`bench memory show RUNDIR`); no file is changed.
// Learn and EndStage fail on an inspected memory.
func Inspect(ctx context.Context, dir string, opts Options) (*LifeMem, error) {
	m, err := New(opts)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil {
		return nil, fmt.Errorf("lifemem: inspect %s: %w", dir, err)
	}
	if err := json.Unmarshal(b, &m.st); err != nil {
		return nil, fmt.Errorf("lifemem: inspect %s: %w", filepath.Join(dir, stateFile), err)
	}
	if m.st.Ops == nil {
		m.st.Ops = map[string]OpStats{}
	}
	path := filepath.Join(dir, savedFile)
	db, err := openDBMode(path, "ro")
	if err != nil {
		return nil, err
	}
	rows, clusters, err := loadAll(ctx, db)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("lifemem: inspect %s: %w", path, err)
	}
	m.db, m.dir = db, dir
	m.setIndex(rows, clusters)
	return m, nil
}
