package taubench

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/memharness/memharness/internal/testfixture"
)

var update = flag.Bool("update", false, "rewrite the inputs of testdata/tau_golden_*.json (the official outputs must then be captured again, see testdata/README.md)")

// goldenFile is one domain's captured sequences: our generated inputs and
// what the official Python tools returned for them (see
// testdata/README.md).
type goldenFile struct {
	Seqs    []mutSeq    `json:"seqs"`
	Results []seqResult `json:"results"`
}

// The differential harness can run on larger captures kept outside the
// repository: -tau.dir names their folder, -tau.n and -tau.seed size and
// seed the sequences that -update writes there.
var (
	goldenDir  = flag.String("tau.dir", "testdata", "folder of tau_golden_<domain>.json files")
	goldenN    = flag.Int("tau.n", 200, "sequences per domain written by -update")
	goldenSeed = flag.Uint64("tau.seed", 200, "seed of the sequences written by -update")
)

func goldenPath(d Domain) string {
	return filepath.Join(*goldenDir, "tau_golden_"+string(d)+".json")
}

// TestGoldenSequences replays 200 mutated sequences per domain and
// compares every observation, the final data hash and the reward with
// the official code's.
func TestGoldenSequences(t *testing.T) {
	for _, d := range []Domain{Retail, Airline} {
		t.Run(string(d), func(t *testing.T) {
			s := openFixture(t, d)
			if *update {
				seqs := newMutator(s, *goldenSeed).sequences(*goldenN)
				b, err := json.MarshalIndent(map[string]any{"seqs": seqs}, "", " ")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(goldenPath(d), b, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Skip("inputs rewritten; capture the official outputs before comparing")
			}
			raw, err := os.ReadFile(goldenPath(d))
			if err != nil {
				t.Fatalf("%s: %v", goldenPath(d), err)
			}
			var g goldenFile
			if err := json.Unmarshal(raw, &g); err != nil {
				t.Fatalf("%s: %v", goldenPath(d), err)
			}
			if len(g.Seqs) != len(g.Results) || len(g.Seqs) < min(200, *goldenN) {
				t.Fatalf("%s: %d sequences, %d results", goldenPath(d), len(g.Seqs), len(g.Results))
			}
			m := diffGolden(t, s, g)
			t.Logf("%s: %d sequences, %d calls: outputs differing %d, final data differing %d, reward differing %d",
				d, m.seqs, m.calls, m.outputs, m.data, m.reward)
			for _, e := range m.examples {
				t.Error(e)
			}
		})
	}
}

type mismatch struct {
	seqs, calls, outputs, data, reward int
	examples                           []string
}

func diffGolden(t *testing.T, s *Suite, g goldenFile) mismatch {
	var m mismatch
	goldHash := map[int]string{}
	for i, q := range g.Seqs {
		want := g.Results[i]
		got, _, err := runSeq(s, q, goldHash)
		if err != nil {
			t.Fatalf("sequence %d: %v", i, err)
		}
		m.seqs++
		for j := range q.Calls {
			m.calls++
			if j >= len(want.Outputs) || j >= len(got.Outputs) || compactOutput(got.Outputs[j]) != want.Outputs[j] {
				m.outputs++
				if len(m.examples) < 15 {
					w := ""
					if j < len(want.Outputs) {
						w = want.Outputs[j]
					}
					m.examples = append(m.examples, fmt.Sprintf("seq %d call %d %s(%s):\n got  %q\n want %q", i, j, q.Calls[j].Name, q.Calls[j].Args, compactOutput(got.Outputs[j]), w))
				}
			}
		}
		if got.Hash != want.Hash || got.GoldHash != want.GoldHash {
			m.data++
			if len(m.examples) < 15 {
				m.examples = append(m.examples, fmt.Sprintf("seq %d: data hash %s (gold %s), official %s (gold %s)", i, got.Hash[:12], got.GoldHash[:12], want.Hash[:12], want.GoldHash[:12]))
			}
		}
		if got.Reward != want.Reward {
			m.reward++
			if len(m.examples) < 15 {
				m.examples = append(m.examples, fmt.Sprintf("seq %d: reward %v, official %v", i, got.Reward, want.Reward))
			}
		}
	}
	return m
}

// TestRandomSequences checks, on 2,000 mutated sequences per domain,
// invariants that need no Python: a tool never fails internally, every
// argument set that is not a JSON object (or that carries "data") yields
// the Python call-site error, and the reward's state check agrees with
// the official hash rule on the final data (checked in full on every
// tenth sequence, where the whole database is hashed). It runs on the
// official data when present, else on the embedded suites, so CI always
// runs it.
func TestRandomSequences(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	for _, d := range []Domain{Retail, Airline} {
		t.Run(string(d), func(t *testing.T) {
			var s *Suite
			if _, err := os.Stat(testfixture.Path("envs/taubench/" + string(d))); err == nil {
				s = openFixture(t, d)
			} else {
				s = embeddedSuite(t, d)
			}
			seqs := newMutator(s, 7).sequences(n)
			goldHash := map[int]string{}
			calls, nonObj, hashed := 0, 0, 0
			for i, q := range seqs {
				res, db, err := runSeq(s, q, nil)
				if err != nil {
					t.Fatalf("sequence %d: %v", i, err)
				}
				for j, c := range q.Calls {
					calls++
					tl := s.d.tools[c.Name]
					if tl == nil {
						continue
					}
					args, _ := Decode([]byte(c.Args))
					o, isObj := args.(*Object)
					var want string
					switch {
					case !isObj:
						want = "Error: " + tl.fullName() + " argument after ** must be a mapping, not " + typeName(args)
						nonObj++
					case o.Has("data"):
						want = "Error: " + tl.fullName() + " got multiple values for keyword argument 'data'"
					default:
						continue
					}
					if res.Outputs[j] != want {
						t.Errorf("sequence %d call %d: %q, want %q", i, j, res.Outputs[j], want)
					}
				}
				if i%10 == 0 {
					hashed++
					g, ok := goldHash[q.Task]
					if !ok {
						gold, _ := s.GoldState(s.d.tasks[q.Task])
						g = DataHash(gold)
						goldHash[q.Task] = g
					}
					if same := DataHash(db) == g; same != (res.Reward == 1) {
						t.Errorf("sequence %d: hash rule says %v, reward %v", i, same, res.Reward)
					}
				}
			}
			if nonObj == 0 || calls < n {
				t.Errorf("generator too tame: %d calls, %d non-object argument sets", calls, nonObj)
			}
			t.Logf("%s: %d sequences, %d calls, %d non-object argument sets, %d full hashes", d, n, calls, nonObj, hashed)
		})
	}
}
