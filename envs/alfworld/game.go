package alfworld

import (
	"encoding/json"
	"fmt"
	"strings"
)

// GameFile is the JSON content of an ALFWorld game.tw-pddl file.
type GameFile struct {
	PDDLDomain  string `json:"pddl_domain"`
	Grammar     string `json:"grammar"`
	PDDLProblem string `json:"pddl_problem"`
	Solvable    bool   `json:"solvable"`
}

// Game is one loaded game: the compiled PDDL world and its grammar. It is
// immutable and safe for concurrent episodes.
type Game struct {
	w     *world
	g     *grammar
	qs    map[string]*query
	intro []symbol
	// Goal is the task as the game words it ("put a clean bowl in cabinet.").
	Goal string
	// Task is what the oracle reads from the PDDL goal.
	Task TaskSpec
}

// ParseGameFile decodes a game.tw-pddl file's JSON.
func ParseGameFile(data []byte) (GameFile, error) {
	var gf GameFile
	if err := json.Unmarshal(data, &gf); err != nil {
		return gf, fmt.Errorf("game.tw-pddl: %w", err)
	}
	for field, v := range map[string]string{"pddl_domain": gf.PDDLDomain, "pddl_problem": gf.PDDLProblem, "grammar": gf.Grammar} {
		if strings.TrimSpace(v) == "" {
			return gf, fmt.Errorf("game.tw-pddl: field %s is empty", field)
		}
	}
	return gf, nil
}

// LoadGame compiles a game file.
func LoadGame(gf GameFile) (*Game, error) {
	d, err := parseDomain(gf.PDDLDomain)
	if err != nil {
		return nil, fmt.Errorf("pddl_domain: %w", err)
	}
	p, err := parseProblem(gf.PDDLProblem)
	if err != nil {
		return nil, fmt.Errorf("pddl_problem: %w", err)
	}
	if p.domain != "" && p.domain != d.name {
		return nil, fmt.Errorf("pddl_problem: domain %q, but pddl_domain defines %q", p.domain, d.name)
	}
	w, err := newWorld(d, p)
	if err != nil {
		return nil, fmt.Errorf("pddl_problem: %w", err)
	}
	assignNames(w)
	g, err := parseGrammar(gf.Grammar)
	if err != nil {
		return nil, fmt.Errorf("grammar: %w", err)
	}
	if _, ok := g.rules["intro"]; !ok {
		return nil, fmt.Errorf("grammar: no #intro# rule")
	}
	for _, a := range d.actions {
		if _, ok := g.actions[a.name]; !ok {
			return nil, fmt.Errorf("grammar: no template for action %s", a.name)
		}
	}
	game := &Game{w: w, g: g, qs: map[string]*query{}}
	if err := game.precompile(); err != nil {
		return nil, fmt.Errorf("grammar: %w", err)
	}
	if game.intro, err = parseSymbols("#intro#"); err != nil {
		return nil, err
	}
	game.Task, err = analyseGoal(w)
	if err != nil {
		return nil, fmt.Errorf("goal: %w", err)
	}
	game.Goal = game.goalText()
	if alts := g.rules["task"]; len(alts) > 0 && hasPlaceholder(alts[0].rhs) {
		// The release's game files leave the task to ALFWorld's loader,
		// which words it from traj_data.json; we word it from the goal.
		alts[0].rhs = []symbol{{kind: sTerm, text: "Your task is to: " + game.Goal}}
	}
	return game, nil
}

// precompile compiles every query of the grammar up front, so episodes
// only read the cache.
func (gm *Game) precompile() error {
	sp := &speaker{g: gm.g, w: gm.w, qs: gm.qs}
	var walk func(syms []symbol) error
	walk = func(syms []symbol) error {
		for i := range syms {
			s := &syms[i]
			for s != nil {
				if s.given != "" {
					if _, err := sp.compileQuery(s.given); err != nil {
						return err
					}
				}
				s = s.inner
			}
		}
		return nil
	}
	for name, alts := range gm.g.rules {
		for _, r := range alts {
			if r.condition != "" {
				if _, err := sp.compileQuery(r.condition); err != nil {
					return fmt.Errorf("rule %q: %w", name, err)
				}
			}
			if err := walk(r.rhs); err != nil {
				return fmt.Errorf("rule %q: %w", name, err)
			}
		}
	}
	for name, t := range gm.g.template {
		if err := walk(t); err != nil {
			return fmt.Errorf("template of %s: %w", name, err)
		}
	}
	return nil
}

func hasPlaceholder(syms []symbol) bool {
	for _, s := range syms {
		if s.kind == sTerm && strings.Contains(s.text, "UNKNOWN GOAL") {
			return true
		}
	}
	return false
}

// goalText is the grammar's task line without "Your task is to: ", or a
// description built from the goal when the file still holds ALFWorld's
// "UNKNOWN GOAL" placeholder.
func (gm *Game) goalText() string {
	if alts := gm.g.rules["task"]; len(alts) > 0 {
		var b strings.Builder
		for _, s := range alts[0].rhs {
			if s.kind == sTerm {
				b.WriteString(s.text)
			}
		}
		t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(b.String()), "Your task is to:"))
		if t != "" && !strings.Contains(t, "UNKNOWN GOAL") {
			return t
		}
	}
	return gm.Task.Describe()
}
