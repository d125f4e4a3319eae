package alfworld

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"go to cabinet 1", "put a in b", "put a on b", "toggle x", "think: hi", "", "\x00", "put  in/on "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, kind := ParseAction(in)
		switch kind {
		case ActionInvalid:
			if out != "" {
				t.Errorf("invalid action %q returned %q", in, out)
			}
		case ActionThink, ActionCommand:
			if out == "" || strings.TrimSpace(out) != out || strings.Contains(out, "  ") {
				t.Errorf("ParseAction(%q) = %q", in, out)
			}
			if utf8.ValidString(in) && !utf8.ValidString(out) {
				t.Errorf("ParseAction(%q) broke UTF-8", in)
			}
		}
	})
}

// FuzzStep feeds arbitrary actions to an episode: no panic, and a step
// either matches an admissible command or says "Nothing happens.".
func FuzzStep(f *testing.F) {
	s, err := Embedded()
	if err != nil {
		f.Fatal(err)
	}
	gm := s.Tasks()[0].Data.(*TaskData).Game
	for _, a := range []string{"go to bed 1", "take book 1 from drawer 1", "open drawer 1", "put book 1 on shelf 1", "think: x", "examine", "use"} {
		f.Add(a, "look")
	}
	f.Fuzz(func(t *testing.T, a1, a2 string) {
		ep, err := NewEpisode(gm)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range []string{a1, a2, a1} {
			before := ep.AdmissibleCommands()
			st, err := ep.Step(context.Background(), a)
			if err != nil {
				t.Fatalf("Step(%q): %v", a, err)
			}
			cmd, kind := ParseAction(a)
			valid := kind == ActionThink
			for _, c := range before {
				valid = valid || c == cmd
			}
			if valid == st.Invalid && !ep.Done() {
				t.Errorf("Step(%q): invalid=%v, admissible=%v", a, st.Invalid, valid)
			}
			if st.Invalid && st.Observation != nothingHappens && !st.Done {
				t.Errorf("Step(%q): invalid step says %q", a, st.Observation)
			}
		}
	})
}

// FuzzParseSexpr checks the PDDL reader never panics and round-trips what
// it accepts.
func FuzzParseSexpr(f *testing.F) {
	for _, s := range []string{"(a b)", "(define (domain d))", "((", "(a ; c\n b)", "(?x - t, ?y)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := parseSexpr(in)
		if err != nil {
			return
		}
		again, err := parseSexpr(s.String())
		if err != nil || again.String() != s.String() {
			t.Errorf("round trip of %q: %q, %v", in, s.String(), err)
		}
	})
}

// FuzzGameText throws arbitrary grammar right-hand sides and PDDL
// problems at the loader and the text generator.
func FuzzGameText(f *testing.F) {
	f.Add(`{r.name | receptacleatlocation(r:receptacle, l:location)}`, `(define (problem p) (:domain d) (:objects a - thing x y - place) (:init (at a x)) (:goal (at a y)))`)
	f.Add(`[{o.indefinite + ' ' + o.name | at(o:thing, p:place)}] #x#`, `(define (problem p) (:domain d) (:objects a - thing) (:init) (:goal (exists (?p - place) (at a ?p))))`)
	f.Add(`{#intro#}`, `(define (problem p) (:domain d) (:objects) (:init) (:goal (and)))`)
	f.Fuzz(func(t *testing.T, rhs, prob string) {
		gram := `grammar :: """{"intro": [{"rhs": ` + quoteJSON(rhs) + `}], "x": [{"rhs": "#intro#"}]}""";
action move { template :: "move {t} to {to}"; feedback :: "#intro#"; }`
		gm, err := LoadGame(GameFile{PDDLDomain: tinyDomain, Grammar: gram, PDDLProblem: prob, Solvable: true})
		if err != nil {
			return
		}
		ep, err := NewEpisode(gm)
		if err != nil {
			return
		}
		for _, c := range ep.AdmissibleCommands() {
			ep.Step(context.Background(), c)
		}
		gm.Plan()
	})
}

func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < ' ':
			b.WriteString(" ")
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
