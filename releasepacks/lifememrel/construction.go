package lifememrel

import (
	"fmt"
	"strings"

	"github.com/memharness/memharness/internal/pysrc"
	"github.com/memharness/memharness/methods/agent"
)

// The release's memory-construction prompts (memory/prompts.py) and the
// fields each is formatted with: cluster_trajectory in build_memory.py,
// get_summary and get_split in cluster_sqlite.py (ClusterDB.add_summary,
// split_cluster).
const lifememBuildPrompts = "memory/prompts.py"

// Construction template names, as the release's variables are called.
const (
	TmplAssign  = "cluster_trajectory"
	TmplSummary = "get_summary"
	TmplSplit   = "get_split"
)

var constructionFields = []struct{ name, fields string }{
	{TmplAssign, "trajectories,existing_clusters"},
	{TmplSummary, "trajectories,summary"},
	{TmplSplit, "cluster_id,summary,examples,old_cluster_id"},
}

// ConstructionTemplates reads LifeMem's assignment, cluster-summary and
// split prompts from the release tree and checks each has exactly the
// fields the release formats it with (a changed file fails here, not in a
// run).
func ConstructionTemplates(tr Trees) (agent.Templates, error) {
	t := tr[NameLifeMem]
	if t == nil {
		return agent.Templates{}, fmt.Errorf("lifemem construction prompts: source %s not opened", NameLifeMem)
	}
	out := agent.Templates{
		Label: fmt.Sprintf("%s@%.7s memory/prompts.py", LifeMem.Repository, lifememMemory),
		Text:  map[string]string{},
	}
	for _, c := range constructionFields {
		v, err := lookupStr(t, lifememBuildPrompts, "", c.name)
		if err != nil {
			return agent.Templates{}, err
		}
		fields, err := pysrc.Fields(v.Str)
		if err != nil {
			return agent.Templates{}, fmt.Errorf("%s:%d: %s: %w", lifememBuildPrompts, v.Line, c.name, err)
		}
		if got := strings.Join(fields, ","); got != c.fields {
			return agent.Templates{}, fmt.Errorf("%s:%d: %s's fields are %s, want %s", lifememBuildPrompts, v.Line, c.name, got, c.fields)
		}
		out.Text[c.name] = v.Str
	}
	return out, nil
}
