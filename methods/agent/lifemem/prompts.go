package lifemem

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/memharness/memharness/llm"
)

// The prompts are written for this harness (the reference prompts are
// paraphrased in the spec, never copied). Each states the exact output
// contract its parser reads.

const assignSystem = `You maintain a library of agent trajectories grouped into clusters by the skill they exercise.
You are adding new trajectories to the library. You may only place them: you cannot delete, merge, rename or split clusters.
Group by the capability a trajectory practises (the kind of procedure it carries out), not by its topic, website or domain.
Prefer widening an existing cluster when the skill fits; open a new cluster only when no shown cluster covers the skill.
The clusters you are shown are only the ones near the new trajectories, not the whole library.`

const assignContract = `Answer in two sections.
<Analysis>
One or two sentences per new trajectory: which skill it exercises and which cluster fits it.
</Analysis>
<Execution>
One line per new trajectory, and nothing else, in one of these two forms:
ADD <trajectory_id> to <cluster_name>
NEW <cluster_name> with <trajectory_id>
</Execution>
Cluster names are snake_case and describe the skill (e.g. open_container_then_retrieve_item). Every new trajectory goes to exactly one cluster.`

// jsonTraj is the JSON a prompt shows of one trajectory.
type jsonTraj struct {
	ID       string        `json:"id"`
	Env      string        `json:"env"`
	Task     string        `json:"task"`
	Messages []llm.Message `json:"messages,omitempty"`
	Actions  []string      `json:"actions,omitempty"`
}

func toJSON(v LifeMemTrajectory) jsonTraj {
	return jsonTraj{ID: v.Label, Env: v.Env, Task: v.Task, Actions: v.Actions}
}

func mustJSON(v any) string {
	// A model reads this: "&", "<" and ">" stay as written instead of
	// Go's HTML-safe \u0026 escapes.
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		// Only plain strings and slices are marshalled here.
		panic(fmt.Sprintf("lifemem: marshal prompt: %v", err))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// assignPrompt shows the new trajectories in full (messages truncated to
// maxChars, from msgs keyed by label) and the candidates' examples as
// actions only, since those are context rather than the subject.
func assignPrompt(h LifeMemAssign, msgs map[string][]llm.Message, maxChars int) []llm.Message {
	var b strings.Builder
	b.WriteString("New trajectories (user turns are observations, assistant turns the agent's actions):\n")
	trajs := make([]jsonTraj, len(h.Trajectories))
	for i, t := range h.Trajectories {
		trajs[i] = jsonTraj{ID: t.Label, Env: t.Env, Task: t.Task}
		for _, msg := range msgs[t.Label] {
			trajs[i].Messages = append(trajs[i].Messages, llm.Message{Role: msg.Role, Content: truncate(msg.Content, maxChars)})
		}
		if len(trajs[i].Messages) == 0 {
			trajs[i].Actions = t.Actions
		}
	}
	b.WriteString(mustJSON(trajs))
	b.WriteString("\n\nNearby clusters (a partial view; at most a few examples each):\n")
	if len(h.Candidates) == 0 {
		b.WriteString("(none: the library is empty, so every trajectory starts a new cluster)\n")
	} else {
		type jc struct {
			Cluster  string     `json:"cluster"`
			Summary  string     `json:"summary"`
			Examples []jsonTraj `json:"examples"`
		}
		cs := make([]jc, len(h.Candidates))
		for i, c := range h.Candidates {
			cs[i] = jc{Cluster: c.Name, Summary: c.Summary}
			for _, e := range c.Examples {
				cs[i].Examples = append(cs[i].Examples, toJSON(e))
			}
		}
		b.WriteString(mustJSON(cs))
		b.WriteString("\n")
	}
	b.WriteString("\n" + assignContract)
	return []llm.Message{{Role: "system", Content: assignSystem}, {Role: "user", Content: b.String()}}
}

func summaryPrompt(h LifeMemSummary) []llm.Message {
	var b strings.Builder
	fmt.Fprintf(&b, "Cluster %s groups the trajectories below.\n", h.Cluster)
	if h.Previous != "" {
		fmt.Fprintf(&b, "Its previous description: %s\n", h.Previous)
	}
	trajs := make([]jsonTraj, len(h.Members))
	for i, t := range h.Members {
		trajs[i] = toJSON(t)
	}
	b.WriteString(mustJSON(trajs))
	b.WriteString("\n\nWrite one sentence naming the core skill these trajectories share and the kind of task they solve. " +
		"Start it with \"This cluster is about\" and write nothing else.")
	return []llm.Message{{Role: "user", Content: b.String()}}
}

func splitPrompt(h LifeMemSplit) []llm.Message {
	var b strings.Builder
	fmt.Fprintf(&b, "Cluster %s has grown too large and mixes several skills.\nIts description: %s\n", h.Cluster, h.Summary)
	b.WriteString("Its members (actions truncated):\n")
	trajs := make([]jsonTraj, len(h.Members))
	for i, t := range h.Members {
		trajs[i] = toJSON(t)
	}
	b.WriteString(mustJSON(trajs))
	fmt.Fprintf(&b, `

Dissolve the cluster: distribute every member among %d to %d new, narrower clusters, each covering one workflow.
Do not reuse the name %s. Answer in two sections.
<Analysis>
The workflows you see and which members follow each.
</Analysis>
<Execution>
First every new cluster, one line each, with its first member:
NEW <cluster_name> with <trajectory_id>
Then every remaining member, one line each:
ADD <trajectory_id> to <cluster_name>
</Execution>
Cluster names are snake_case. Every member appears in exactly one line.`, h.MinClusters, h.MaxClusters, h.Cluster)
	return []llm.Message{{Role: "user", Content: b.String()}}
}

// formatTrial renders a trajectory for the rule editor: the goal, then the
// turns labelled by who spoke.
func formatTrial(v LifeMemTrajectory, msgs []llm.Message, maxChars int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Task Goal: %s\n", v.Task)
	for _, msg := range msgs {
		who := "User (Observation/Input)"
		if msg.Role == "assistant" {
			who = "Assistant (Action/Thought)"
		}
		fmt.Fprintf(&b, "%s: %s\n", who, truncate(msg.Content, maxChars))
	}
	return b.String()
}

func rulesPrompt(h LifeMemRules, trials []string) []llm.Message {
	var b strings.Builder
	fmt.Fprintf(&b, "You keep the list of rules an agent follows for the skill cluster %s (%s).\n\n", h.Cluster, h.Summary)
	for i, t := range trials {
		fmt.Fprintf(&b, "Successful trial %d:\n%s\n", i+1, t)
	}
	b.WriteString("Current rules:\n")
	if len(h.Rules) == 0 {
		b.WriteString("(none yet)\n")
	}
	for i, r := range h.Rules {
		fmt.Fprintf(&b, "%d. %s\n", i+1, r)
	}
	fmt.Fprintf(&b, `
Revise the rules so they capture what made these trials succeed. Answer one operation per line:
AGREE <n>: <rule>        the trials confirm rule n
REMOVE <n>: <rule>       rule n is wrong or redundant
EDIT <n>: <new rule>     rule n needs rewording
ADD <n>: <new rule>      a new rule, numbered after the current ones
Use at most %d operations other than AGREE, and keep the list at %d rules or fewer.
A rule is general (never mentions a particular trial), at most two sentences.`, h.MaxOps, h.MaxRules)
	return []llm.Message{{Role: "user", Content: b.String()}}
}
