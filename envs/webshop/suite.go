package webshop

import (
	"context"
	"fmt"

	"github.com/memharness/memharness/envs"
)

// Name is the environment's registry name.
const Name = "webshop"

// MaxSteps is the paper's step limit.
const MaxSteps = 15

// Suite is WebShop over one catalogue with its goals.
type Suite struct {
	cat          *Catalogue
	tasks        []envs.Task
	missing      map[string]string
	humanGoals   []string
	resultDetail int
}

var (
	_ envs.Suite  = (*Suite)(nil)
	_ envs.Oracle = (*Suite)(nil)
)

// New builds a suite over cat. Goals whose product is not in the catalogue
// cannot be bought and are left out of Tasks (see Missing). Goal IDs must
// be unique.
func New(cat *Catalogue, goals []Goal) (*Suite, error) {
	s := &Suite{cat: cat, missing: map[string]string{}, resultDetail: resultDetail}
	seen := map[string]bool{}
	for i := range goals {
		g := goals[i]
		if g.ID == "" {
			return nil, fmt.Errorf("webshop: goal %d has no ID", i)
		}
		if seen[g.ID] {
			return nil, fmt.Errorf("webshop: duplicate goal %s", g.ID)
		}
		seen[g.ID] = true
		if cat.Product(g.ASIN) == nil {
			s.missing[g.ID] = "product " + g.ASIN + " is not in the catalogue"
			continue
		}
		s.tasks = append(s.tasks, envs.Task{
			ID: g.ID, Env: Name, Split: splitOf(g.ID), Instruction: g.InstructionText, Data: &g,
		})
	}
	if len(s.tasks) == 0 {
		return nil, fmt.Errorf("webshop: none of %d goals has its product in the catalogue (%d products)", len(goals), len(cat.Products))
	}
	return s, nil
}

// splitOf is "test" for ExpeL's evaluation sessions.
func splitOf(id string) string {
	if len(id) > 6 && id[:6] == "fixed_" {
		return "test"
	}
	return ""
}

func (s *Suite) Name() string       { return Name }
func (s *Suite) Tasks() []envs.Task { return s.tasks }
func (s *Suite) MaxSteps() int      { return MaxSteps }

// Catalogue is the suite's product catalogue.
func (s *Suite) Catalogue() *Catalogue { return s.cat }

// Missing lists goals left out because their product is not in the
// catalogue, with the reason.
func (s *Suite) Missing() map[string]string { return s.missing }

// HumanGoals is human_goals.json when Open found it (index = session).
func (s *Suite) HumanGoals() []string { return s.humanGoals }

// NewEpisode starts a task on the search page.
func (s *Suite) NewEpisode(_ context.Context, t envs.Task, _ envs.Options) (envs.Episode, error) {
	g, err := goalOf(t)
	if err != nil {
		return nil, err
	}
	return &episode{suite: s, goal: g}, nil
}

func goalOf(t envs.Task) (*Goal, error) {
	g, ok := t.Data.(*Goal)
	if !ok || g == nil {
		return nil, fmt.Errorf("webshop: task %s carries no webshop goal", t.ID)
	}
	return g, nil
}
