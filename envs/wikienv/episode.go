package wikienv

import (
	"context"
	"fmt"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/pyfmt"
)

// pageSentences is how much of a page a search shows (ReAct: the first five
// sentences); Lookup reaches the rest.
const pageSentences = 5

// episode is one ReAct Wikipedia episode. It keeps ReAct's state: the last
// opened page and the current lookup keyword with its cursor.
type episode struct {
	stores  []*Store // searched in order: the task's own pages first
	initial string
	gold    string
	labels  []string // FEVER: the only valid answers; nil for HotpotQA

	page       *Page
	lookupKey  string
	lookupHits []string
	lookupNext int

	done  bool
	score float64

	// name and expel: read actions as ExpeL's environment for this
	// benchmark does (stepExpeL); answered and lastObs are the FEVER
	// environment's recorded answer and last observation.
	name     string
	expel    bool
	answered *string
	lastObs  string
}

func (e *episode) Observation() string { return e.initial }
func (e *episode) Done() bool          { return e.done }
func (e *episode) Score() float64      { return e.score }
func (e *episode) Close() error        { return nil }

// Step applies one action. Agent mistakes come back as invalid steps; the
// environment itself cannot fail.
func (e *episode) Step(_ context.Context, text string) (envs.Step, error) {
	if e.done {
		return envs.Step{Observation: "The episode is over.", Done: true, Invalid: true}, nil
	}
	if e.expel {
		return e.stepExpeL(text), nil
	}
	a, err := ParseAction(text)
	if err != nil {
		return envs.Step{
			Observation: fmt.Sprintf("Invalid action: %s (%v). Valid actions are Search[entity], Lookup[keyword] and Finish[answer].",
				clip(strings.TrimSpace(text), 200), err),
			Invalid: true,
		}, nil
	}
	switch a.Kind {
	case Search:
		return envs.Step{Observation: e.search(a.Arg)}, nil
	case Lookup:
		return envs.Step{Observation: e.lookup(a.Arg)}, nil
	case Think:
		return envs.Step{Observation: "Nice thought."}, nil
	}
	return e.finish(a.Arg), nil
}

// search opens the page whose title matches, or lists similar titles.
func (e *episode) search(entity string) string {
	if p, ok := e.find(entity); ok {
		e.page = &p
		e.lookupKey, e.lookupHits, e.lookupNext = "", nil, 0
		return strings.Join(p.Sentences[:min(pageSentences, len(p.Sentences))], " ")
	}
	return fmt.Sprintf("Could not find %s. Similar: %s.", clip(entity, 200), pyfmt.Repr(e.similar(entity)))
}

// find tries exact titles in every store before normalised ones, so a
// loose match in the task's pages never hides an exact one elsewhere.
func (e *episode) find(entity string) (Page, bool) {
	for _, s := range e.stores {
		if p, ok := s.exact(entity); ok {
			return p, true
		}
	}
	for _, s := range e.stores {
		if p, ok := s.loose(entity); ok {
			return p, true
		}
	}
	return Page{}, false
}

// similar asks the largest store (the global one), since the task's own
// pages are part of it.
func (e *episode) similar(entity string) []string {
	return e.stores[len(e.stores)-1].similar(entity)
}

// lookup returns the next sentence of the last page containing keyword
// (case-insensitive); a new keyword restarts the count, as in ReAct.
func (e *episode) lookup(keyword string) string {
	if keyword != e.lookupKey || e.lookupHits == nil {
		e.lookupKey, e.lookupNext = keyword, 0
		e.lookupHits = []string{}
		if e.page != nil {
			k := strings.ToLower(keyword)
			for _, s := range e.page.Sentences {
				if strings.Contains(strings.ToLower(s), k) {
					e.lookupHits = append(e.lookupHits, s)
				}
			}
		}
	}
	if e.lookupNext >= len(e.lookupHits) {
		return "No more results."
	}
	e.lookupNext++
	return fmt.Sprintf("(Result %d / %d) %s", e.lookupNext, len(e.lookupHits), e.lookupHits[e.lookupNext-1])
}

// finish ends the episode: exact match for HotpotQA (F1 as information),
// label accuracy for FEVER. A FEVER answer that is no label still ends the
// episode with reward 0, as in ReAct, but is counted invalid.
func (e *episode) finish(answer string) envs.Step {
	e.done = true
	info := map[string]any{"answer": answer}
	invalid := false
	if e.labels != nil {
		invalid = !isLabel(answer, e.labels)
		info["valid_label"] = !invalid
	} else {
		info["f1"] = F1(answer, e.gold)
	}
	if ExactMatch(answer, e.gold) {
		e.score = 1
	}
	info["em"] = e.score
	obs := fmt.Sprintf("Episode finished, reward = %g", e.score)
	if invalid {
		obs += fmt.Sprintf(" (the answer must be one of %s)", strings.Join(e.labels, ", "))
	}
	return envs.Step{Observation: obs, Reward: e.score, Done: true, Info: info, Invalid: invalid}
}

func isLabel(answer string, labels []string) bool {
	for _, l := range labels {
		if ExactMatch(answer, l) {
			return true
		}
	}
	return false
}
