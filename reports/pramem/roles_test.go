package pramem

import (
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClassify(t *testing.T) {
	for _, tt := range []struct {
		name         string
		k            pmKnobs
		want         pmVariant
		round, total int
	}{
		{"defaults", pmKnobs{}, pmFull, 80, 80},
		{"configured rounds", pmKnobs{Rounds: 20}, pmFull, 20, 20},
		{"sections both", pmKnobs{Sections: "both"}, pmFull, 80, 80},
		{"eval round at the end", pmKnobs{Rounds: 20, EvalRound: 20}, pmFull, 20, 20},
		{"eval round past the end", pmKnobs{Rounds: 20, EvalRound: 40}, pmFull, 20, 20},
		{"snapshot", pmKnobs{Rounds: 20, EvalRound: 5}, pmEvolution, 5, 20},
		{"snapshot of 80", pmKnobs{EvalRound: 40}, pmEvolution, 40, 80},
		{"no trial", pmKnobs{NoTrial: true}, pmNoTrial, 80, 80},
		{"no reflection", pmKnobs{NoReflection: true}, pmNoReflection, 80, 80},
		{"no consensus", pmKnobs{NoConsensus: true}, pmNoConsensus, 80, 80},
		{"only pattern", pmKnobs{Sections: "pattern"}, pmOnlyPattern, 80, 80},
		{"only bias", pmKnobs{Sections: "bias"}, pmOnlyBias, 80, 80},
		{"no groundedness", pmKnobs{NoGroundedness: true}, pmNoGroundedness, 80, 80},
		{"no generalization", pmKnobs{NoGeneralization: true}, pmNoGeneralization, 80, 80},
		{"two switches", pmKnobs{NoTrial: true, NoConsensus: true}, pmOther, 80, 80},
		{"ablation at a snapshot", pmKnobs{NoTrial: true, EvalRound: 10}, pmOther, 80, 80},
		{"release leak", pmKnobs{ReproduceReleaseLeak: true}, pmOther, 80, 80},
		{"release no-op grounding", pmKnobs{ReleaseNoopGrounding: true}, pmOther, 80, 80},
		{"unknown sections", pmKnobs{Sections: "none"}, pmOther, 80, 80},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, r, tot := classify(tt.k)
			if v != tt.want || r != tt.round || tot != tt.total {
				t.Errorf("classify(%+v) = %s, %d, %d; want %s, %d, %d", tt.k, v, r, tot, tt.want, tt.round, tt.total)
			}
		})
	}
}

func TestInferFromName(t *testing.T) {
	for _, tt := range []struct {
		name    string
		kind    string
		k       pmKnobs
		unknown bool
	}{
		{"pramem", "pramem", pmKnobs{}, false},
		{"PraMem", "pramem", pmKnobs{}, false},
		{"pramem_no_trial", "pramem", pmKnobs{NoTrial: true}, false},
		{"pramem-no-reflection", "pramem", pmKnobs{NoReflection: true}, false},
		{"pramem_no_consensus", "pramem", pmKnobs{NoConsensus: true}, false},
		{"pramem_only_pattern", "pramem", pmKnobs{Sections: "pattern"}, false},
		{"pramem_only_bias", "pramem", pmKnobs{Sections: "bias"}, false},
		{"pramem_no_groundedness", "pramem", pmKnobs{NoGroundedness: true}, false},
		{"pramem_no_generalization", "pramem", pmKnobs{NoGeneralization: true}, false},
		{"pramem_r10", "pramem", pmKnobs{EvalRound: 10, Rounds: 80}, false},
		{"pramem_round40", "pramem", pmKnobs{EvalRound: 40, Rounds: 80}, false},
		{"pramem_r120", "pramem", pmKnobs{EvalRound: 120, Rounds: 120}, false},
		{"pramem_qwen", "pramem", pmKnobs{}, true},
		{"mem0", "mem0", pmKnobs{}, false},
		{"MemOS", "memos", pmKnobs{}, false},
		{"proex", "proex", pmKnobs{}, false},
		{"truncation", "", pmKnobs{}, false},
		{"mem0_large", "", pmKnobs{}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			kind, k, unknown := rolesOf(builtinPaperRows()).inferFromName(tt.name)
			if kind != tt.kind || k != tt.k || unknown != tt.unknown {
				t.Errorf("inferFromName(%q) = %q, %+v, %v; want %q, %+v, %v", tt.name, kind, k, unknown, tt.kind, tt.k, tt.unknown)
			}
		})
	}
}

func TestConfigMethods(t *testing.T) {
	for _, tt := range []struct {
		name string
		cfg  any
		want map[string]cfgMethod
	}{
		{"nil", nil, map[string]cfgMethod{}},
		{"plain names", map[string]any{"methods": []string{"pramem", "mem0"}}, map[string]cfgMethod{}},
		{"not an object", "pramem", map[string]cfgMethod{}},
		{"specs", map[string]any{"methods": []any{
			map[string]any{"name": "a", "kind": "pramem", "pramem": map[string]any{"rounds": 20, "no_trial": true}},
			map[string]any{"kind": "mem0"}, // the name defaults to the kind
			"legacy",                       // skipped, not fatal
			map[string]any{"name": "a", "kind": "proex"}, // a duplicate name: the first wins
		}}, map[string]cfgMethod{
			"a":    {Name: "a", Kind: "pramem", PraMem: &pmKnobs{Rounds: 20, NoTrial: true}},
			"mem0": {Name: "mem0", Kind: "mem0"},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, configMethods(tt.cfg)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestRoundTokens(t *testing.T) {
	for _, tt := range []struct {
		name   string
		meta   string
		rounds int
		want   map[int]float64
	}{
		{"object", `{"snapshot_tokens": {"5": 100, "10": 220}}`, 10, map[int]float64{5: 100, 10: 220}},
		{"object with text keys", `{"memory_tokens_by_round": {"round_1": 10, "round_2": 30}}`, 2, map[int]float64{1: 10, 2: 30}},
		{"list after each round", `{"round_tokens": [10, 20, 30]}`, 3, map[int]float64{1: 10, 2: 20, 3: 30}},
		{"list with the initial memory", `{"round_tokens": [0, 20, 30]}`, 2, map[int]float64{0: 0, 1: 20, 2: 30}},
		{"list of objects", `{"snapshots_tokens": [{"round": 10, "tokens": 5}, {"round": 20, "memory_tokens": 9}]}`, 0, map[int]float64{10: 5, 20: 9}},
		{"other key naming rounds", `{"tokens_at_round": {"4": 44}, "construction_seconds": 3}`, 4, map[int]float64{4: 44}},
		{"scalar is not a curve", `{"round_tokens_total": 500}`, 4, map[int]float64{}},
		{"strings and junk", `{"snapshot_tokens": {"5": "50", "x": 1, "6": true}}`, 6, map[int]float64{5: 50}},
		{"absent", `{"rounds": 20}`, 20, map[int]float64{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var meta map[string]any
			if err := json.Unmarshal([]byte(tt.meta), &meta); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, roundTokens(meta, tt.rounds)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestMinutes(t *testing.T) {
	for _, tt := range []struct {
		secs float64
		want string
	}{
		{math.NaN(), "—"}, {0, "0.0000"}, {1.5, "0.0250"}, {60, "1.00"}, {3348, "55.80"},
	} {
		if got := minutes(tt.secs); got != tt.want {
			t.Errorf("minutes(%v) = %q, want %q", tt.secs, got, tt.want)
		}
	}
}

// TestRolesFromEntries: the studies' roles come from the built-in kinds'
// paper rows: PraMem owns Table 2, the memory systems are Table 3's other
// rows in the paper's order; without rows there is no role at all.
func TestRolesFromEntries(t *testing.T) {
	r := rolesOf(builtinPaperRows())
	if r.praMem != "pramem" || !slices.Equal(r.systems, []string{"mem0", "memos", "proex"}) {
		t.Errorf("roles = %+v, want pramem and mem0, memos, proex", r)
	}
	none := rolesOf(nil)
	if none.studied("pramem") || none.studied("") {
		t.Errorf("roles without paper rows = %+v, want none", none)
	}
	if kind, _, _ := none.inferFromName("pramem_no_trial"); kind != "" {
		t.Errorf("without paper rows, pramem_no_trial inferred as %q", kind)
	}
}
