package alfworld

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/memharness/memharness/envs"
)

func TestParseSexprErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "empty input"},
		{"(a (b)", "unclosed '(' opened on line 1"},
		{"(a))", "line 1: unexpected text"},
		{")", "unexpected ')'"},
		{"(a\n ; comment )\n (b", "line 3: unclosed"},
		{strings.Repeat("(", maxDepth+2), "nesting deeper"},
	}
	for _, tt := range tests {
		_, err := parseSexpr(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("parseSexpr(%q) = %v, want error containing %q", tt.in, err, tt.want)
		}
	}
	s, err := parseSexpr("(And ?X, (P a) ; note\n)")
	if err != nil || s.String() != "(and ?x (p a))" {
		t.Errorf("got %v, %v", s, err)
	}
}

const tinyDomain = `(define (domain d) (:types thing place - object)
 (:predicates (at ?t - thing ?p - place) (red ?t - thing))
 (:action move :parameters (?t - thing ?from - place ?to - place)
  :precondition (and (at ?t ?from) (not (= ?from ?to)))
  :effect (and (not (at ?t ?from)) (at ?t ?to) (when (red ?t) (not (red ?t))))))`

func TestLoadErrorsNameTheField(t *testing.T) {
	prob := `(define (problem p) (:domain d) (:objects a - thing x y - place) (:init (at a x) (red a)) (:goal (at a y)))`
	gram := `grammar :: """{"intro": [{"rhs": "Hi."}]}""";
action move { template :: "move {t} to {to}"; feedback :: "Moved."; }`
	tests := []struct {
		name string
		gf   GameFile
		want string
	}{
		{"bad predicate", GameFile{tinyDomain, gram, strings.Replace(prob, "(red a)", "(blue a)", 1), true}, `pddl_problem: init: line 1: unknown predicate "blue"`},
		{"arity", GameFile{tinyDomain, gram, strings.Replace(prob, "(red a)", "(red a x)", 1), true}, "red takes 1 arguments"},
		{"unknown object", GameFile{tinyDomain, gram, strings.Replace(prob, "(red a)", "(red b)", 1), true}, `undeclared object "b"`},
		{"no goal", GameFile{tinyDomain, gram, strings.Replace(prob, "(:goal (at a y))", "", 1), true}, "has no goal"},
		{"domain mismatch", GameFile{tinyDomain, gram, strings.Replace(prob, "(:domain d)", "(:domain e)", 1), true}, `domain "e"`},
		{"no template", GameFile{tinyDomain, `grammar :: """{"intro": [{"rhs": "x"}]}""";`, prob, true}, "no template for action move"},
		{"no intro", GameFile{tinyDomain, `grammar :: """{}""";`, prob, true}, "no #intro# rule"},
		{"bad grammar json", GameFile{tinyDomain, `grammar :: """{"a": }""";`, prob, true}, "grammar: grammar block at line 1"},
		{"bad domain", GameFile{"(define (domain d) (:bogus))", gram, prob, true}, "pddl_domain: line 1: unsupported domain section"},
	}
	for _, tt := range tests {
		_, err := LoadGame(tt.gf)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
	gm, err := LoadGame(GameFile{tinyDomain, gram, prob, true})
	if err != nil {
		t.Fatal(err)
	}
	e, _, err := gm.newEngine()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(e.admissible, "|") != "move a to y" {
		t.Errorf("admissible = %q", e.admissible)
	}
	if fb, ok, err := e.step("move a to y"); !ok || err != nil || fb != "Moved." || !e.won {
		t.Errorf("step: %q %v %v won=%v", fb, ok, err, e.won)
	}
	if e.st.has(fact{pred: int32(gm.w.dom.predIdx["red"]), args: [3]int32{int32(gm.w.entIdx["a"])}}) {
		t.Error("conditional effect did not fire")
	}
}

func TestParseGameFile(t *testing.T) {
	if _, err := ParseGameFile([]byte(`{"pddl_domain": "x", "grammar": "", "pddl_problem": "y"}`)); err == nil || !strings.Contains(err.Error(), "field grammar is empty") {
		t.Errorf("err = %v", err)
	}
	if _, err := ParseGameFile([]byte(`{`)); err == nil {
		t.Error("want a JSON error")
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, ErrNoData) {
		t.Errorf("missing dir: %v", err)
	}
	if _, err := Open(t.TempDir()); !errors.Is(err, ErrNoData) || !errors.Is(err, envs.ErrNoData) {
		t.Errorf("empty dir: %v", err)
	}
	bad := fstest.MapFS{"g/game.tw-pddl": {Data: []byte(`{"pddl_domain": "(x", "grammar": "g", "pddl_problem": "p", "solvable": true}`)}}
	if _, err := openFS(bad, "data"); err == nil || !strings.Contains(err.Error(), "data/g/game.tw-pddl: pddl_domain: line 1") {
		t.Errorf("bad game: %v", err)
	}
	list := fstest.MapFS{TaskListFile: {Data: []byte(`[{"goal": "g", "gamefile": "elsewhere/x"}]`)}}
	if _, err := openFS(list, "data"); err == nil || !strings.Contains(err.Error(), "entry 0: field gamefile") {
		t.Errorf("bad list: %v", err)
	}
}

func TestNamesFollowTheDemangler(t *testing.T) {
	s := embedded(t)
	gm := taskByID(t, s, "pick_and_place_simple-Book").Data.(*TaskData).Game
	got := map[string]string{}
	for _, e := range gm.w.ents {
		got[e.id] = e.name
	}
	for id, want := range map[string]string{
		"shelf_bar_01": "shelf 2", "shelf_bar_02": "shelf 1", // first in name order gets the highest number
		"loc_bar_00": "loc 6", "agent1": "agent1", "book_bar_01": "book 1",
	} {
		if got[id] != want {
			t.Errorf("%s named %q, want %q", id, got[id], want)
		}
	}
	gm = taskByID(t, s, "pick_and_place_simple-SoapBar").Data.(*TaskData).Game
	if n := gm.w.ents[gm.w.entIdx["sink_bar_01_bar_sinkbasin"]].name; n != "sinkbasin 1" {
		t.Errorf("sink basin named %q", n)
	}
}

func TestFetchSpecMatchesFixture(t *testing.T) {
	openFixture(t)
	specs := FetchSpec()
	if len(specs) != 135 {
		t.Fatalf("%d specs, want 135", len(specs))
	}
	for _, s := range specs {
		if s.SHA256 == "" || !strings.HasPrefix(s.URL, "https://raw.githubusercontent.com/LeapLabTHU/ExpeL/") {
			t.Errorf("bad spec %+v", s)
		}
		data, err := os.ReadFile(filepath.Join(fixtureDir, filepath.FromSlash(s.FileName)))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != s.SHA256 || int64(len(data)) != s.Size {
			t.Errorf("%s: pin does not match the fixture", s.FileName)
		}
	}
}

func TestUnknownGoalPlaceholder(t *testing.T) {
	s := embedded(t)
	gf := taskByID(t, s, "pick_cool_then_place_in_recep-Tomato").Data.(*TaskData).Path
	data, err := embeddedData.ReadFile("embedded/" + gf)
	if err != nil {
		t.Fatal(err)
	}
	g, err := ParseGameFile(data)
	if err != nil {
		t.Fatal(err)
	}
	g.Grammar = strings.Replace(g.Grammar, "cool some tomato and put it in diningtable.", "UNKNOWN GOAL", 1)
	gm, err := LoadGame(g)
	if err != nil {
		t.Fatal(err)
	}
	ep, err := NewEpisode(gm)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Your task is to: put a cool tomato in diningtable."; gm.Goal != "put a cool tomato in diningtable." || !strings.HasSuffix(ep.Observation(), want) {
		t.Errorf("goal %q, observation %q", gm.Goal, ep.Observation())
	}
}
