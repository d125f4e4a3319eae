package wikienv

import (
	"context"
	"fmt"
	"strconv"

	"github.com/memharness/memharness/envs"
)

// Registry names and the paper's step limits (LifeMem: HotpotQA 7, FEVER 4).
const (
	NameHotpotQA     = "hotpotqa"
	NameFEVER        = "fever"
	MaxStepsHotpotQA = 7
	MaxStepsFEVER    = 4
)

// Suite is a HotpotQA or FEVER task list over one document store. It
// implements envs.Suite and envs.Oracle.
type Suite struct {
	name     string
	maxSteps int
	tasks    []envs.Task
	store    *Store
	expel    bool // see UseExpeLActions
}

var (
	_ envs.Suite  = (*Suite)(nil)
	_ envs.Oracle = (*Suite)(nil)
)

// Name is the registry name.
func (s *Suite) Name() string { return s.name }

// MaxSteps is the paper's step limit.
func (s *Suite) MaxSteps() int { return s.maxSteps }

// Tasks lists the tasks in file order.
func (s *Suite) Tasks() []envs.Task { return append([]envs.Task(nil), s.tasks...) }

// Store is the document store searched by the episodes.
func (s *Suite) Store() *Store { return s.store }

// NewEpisode starts a task. The options are unused: the environment has no
// simulated party and no randomness.
func (s *Suite) NewEpisode(_ context.Context, t envs.Task, _ envs.Options) (envs.Episode, error) {
	switch d := t.Data.(type) {
	case *HotpotQA:
		if s.name != NameHotpotQA {
			return nil, fmt.Errorf("%s: task %s is a HotpotQA question", s.name, t.ID)
		}
		return &episode{
			stores:  []*Store{NewStore(d.pages()), s.store},
			initial: "Question: " + d.Question,
			gold:    d.Answer,
			name:    s.name,
			expel:   s.expel,
		}, nil
	case *FEVER:
		if s.name != NameFEVER {
			return nil, fmt.Errorf("%s: task %s is a FEVER claim", s.name, t.ID)
		}
		return &episode{
			stores:  []*Store{s.store},
			initial: "Claim: " + d.Claim,
			gold:    d.Label,
			labels:  Labels(),
			name:    s.name,
			expel:   s.expel,
		}, nil
	}
	return nil, fmt.Errorf("%s: task %q carries no %s record", s.name, t.ID, s.name)
}

// Gold solves a task the way the reference ReAct trajectories do: search
// the gold pages (HotpotQA supporting titles; FEVER evidence pages present
// in the store, as many as the step limit leaves room for), then finish
// with the gold answer or label.
func (s *Suite) Gold(t envs.Task) ([]string, error) {
	var titles []string
	var answer string
	switch d := t.Data.(type) {
	case *HotpotQA:
		titles, answer = d.supportingTitles(), d.Answer
	case *FEVER:
		for _, title := range d.evidenceTitles() {
			if s.store.Has(title) {
				titles = append(titles, title)
			}
		}
		answer = d.Label
	default:
		return nil, fmt.Errorf("%s: task %q carries no %s record", s.name, t.ID, s.name)
	}
	if room := s.maxSteps - 1; len(titles) > room {
		titles = titles[:room]
	}
	var acts []string
	for _, title := range titles {
		acts = append(acts, Action{Kind: Search, Arg: title}.String())
	}
	return append(acts, Action{Kind: Finish, Arg: answer}.String()), nil
}

func hotpotTask(q *HotpotQA, split string) envs.Task {
	return envs.Task{
		ID: q.ID, Env: NameHotpotQA, Split: split, Instruction: q.Question,
		Difficulty: difficulty(q.Level), Data: q,
	}
}

func feverTask(c *FEVER, split string) envs.Task {
	return envs.Task{
		ID: strconv.FormatInt(c.ID, 10), Env: NameFEVER, Split: split, Instruction: c.Claim, Data: c,
	}
}
