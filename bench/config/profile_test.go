package config

import (
	"strings"
	"testing"
)

const profiled = `task: omnibehavior
dataset: {name: omnibehavior, max_users: 12, synthetic: {users: 12}}
methods:
  - {name: truncation, kind: truncation}
  - {name: pramem, kind: pramem, pramem: {rounds: 20}}
profiles:
  paper:
    dataset.max_users: 0
    dataset.synthetic.users: 200
    methods[1].pramem.rounds: 80
  tiny:
    dataset.max_users: 2
`

func TestProfiles(t *testing.T) {
	path := writeConfig(t, profiled)
	for _, tc := range []struct {
		name, profile string
		sets          []string
		users, rounds int
		wantSet       int
		wantErr       string
	}{
		{name: "none", users: 12, rounds: 20},
		{name: "paper", profile: "paper", users: 0, rounds: 80, wantSet: 3},
		{name: "set wins over profile", profile: "paper", sets: []string{"dataset.max_users=5"}, users: 5, rounds: 80, wantSet: 3},
		{name: "unknown", profile: "huge", wantErr: "no such profile (have paper, tiny)"},
		{name: "two in order", profile: "paper,tiny", users: 2, rounds: 80, wantSet: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := Options{Getenv: func(string) string { return "" }, Profile: tc.profile}.Load(path, tc.sets)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Dataset.MaxUsers != tc.users || cfg.Methods[1].PraMem.Rounds != tc.rounds {
				t.Errorf("max_users %d rounds %d, want %d %d", cfg.Dataset.MaxUsers, cfg.Methods[1].PraMem.Rounds, tc.users, tc.rounds)
			}
			if cfg.Profile != tc.profile || len(cfg.ProfileSet) != tc.wantSet && tc.profile != "" {
				t.Errorf("profile %q set %v", cfg.Profile, cfg.ProfileSet)
			}
			if tc.profile == "paper" && cfg.ProfileSet["methods[1].pramem.rounds"] != "80" {
				t.Errorf("profile set %v", cfg.ProfileSet)
			}
			y, _ := cfg.ResolvedYAML()
			if strings.Contains(string(y), "profiles") {
				t.Error("the profiles block leaked into the resolved config")
			}
		})
	}
	bad := writeConfig(t, "task: omnibehavior\nprofiles:\n  paper:\n    dataset.max_userz: 0\n")
	if _, err := (Options{Profile: "paper"}).Load(bad, nil); err == nil || !strings.Contains(err.Error(), "max_userz") {
		t.Errorf("bad profile key: %v", err)
	}
}

func TestPromptsSetting(t *testing.T) {
	for _, tc := range []struct{ body, wantErr string }{
		{"task: omnibehavior\nmethods: [{kind: truncation}]\nprompts: release\n", ""},
		{"task: omnibehavior\nmethods: [{kind: truncation}]\nprompts: own\n", ""},
		{"task: omnibehavior\nmethods: [{kind: truncation}]\nprompts: authors\n", `unknown value "authors"`},
		{"task: omnibehavior\nmethods: [{kind: truncation}]\nprompt: {release_dir: /x}\n", "read only with prompts: release"},
	} {
		_, err := Options{Getenv: func(string) string { return "" }}.Load(writeConfig(t, tc.body), nil)
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%q: err = %v, want %q", tc.body, err, tc.wantErr)
		}
	}
	// The release pack's location does not change the hash; the setting does.
	a, _ := Options{Getenv: func(string) string { return "" }}.Load(writeConfig(t, "task: omnibehavior\nmethods: [{kind: truncation}]\nprompts: release\nprompt: {release_dir: /a}\n"), nil)
	b, _ := Options{Getenv: func(string) string { return "" }}.Load(writeConfig(t, "task: omnibehavior\nmethods: [{kind: truncation}]\nprompts: release\nprompt: {release_dir: /b}\n"), nil)
	c, _ := Options{Getenv: func(string) string { return "" }}.Load(writeConfig(t, "task: omnibehavior\nmethods: [{kind: truncation}]\n"), nil)
	ha, _ := a.Hash()
	hb, _ := b.Hash()
	hc, _ := c.Hash()
	if ha != hb || ha == hc {
		t.Errorf("hashes: /a %s /b %s own %s", ha, hb, hc)
	}
}

// TestPaperConfigProfiles: every PraMem paper config carries a paper
// profile with the paper's sizes, and the PraMem ones an as_released
// profile turning every release behaviour on for every PraMem method.
func TestPaperConfigProfiles(t *testing.T) {
	env := func(string) string { return "" }
	for _, name := range []string{"omnibehavior_table1", "pramem_table1", "pramem_ablations", "pramem_evolution", "pramem_movielens", "movielens_confusion"} {
		t.Run(name, func(t *testing.T) {
			path := "../../configs/paper/" + name + ".yaml"
			cfg, err := Options{Getenv: env, Profile: "paper"}.Load(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Dataset.MaxUsers != 0 || cfg.Profile != "paper" {
				t.Errorf("paper profile: max_users %d, profile %q", cfg.Dataset.MaxUsers, cfg.Profile)
			}
			want := 200
			if cfg.Task == "movielens" {
				want = 80
			}
			if cfg.Dataset.Synthetic.Users != want {
				t.Errorf("synthetic users %d, want %d", cfg.Dataset.Synthetic.Users, want)
			}
			pramem := 0
			for _, m := range cfg.Methods {
				if m.Kind == "pramem" {
					pramem++
					if m.PraMem.Rounds != 80 {
						t.Errorf("%s: rounds %d under --profile paper", m.Name, m.PraMem.Rounds)
					}
				}
			}
			if pramem == 0 {
				return
			}
			rel, err := Options{Getenv: env, Profile: "paper,as_released"}.Load(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range rel.Methods {
				if m.Kind == "pramem" && !(m.PraMem.ReproduceReleaseLeak && m.PraMem.ReleaseNoopGrounding && m.PraMem.ReleaseSampling) {
					t.Errorf("%s: as_released leaves a release behaviour off: %+v", m.Name, *m.PraMem)
				}
			}
			own, err := Options{Getenv: env}.Load(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range own.Methods {
				if m.Kind == "pramem" && (m.PraMem.ReproduceReleaseLeak || m.PraMem.ReleaseNoopGrounding || m.PraMem.ReleaseSampling) {
					t.Errorf("%s: a release behaviour is on by default", m.Name)
				}
			}
		})
	}
	// The evolution snapshots move to rounds 10, 40 and 80.
	cfg, err := Options{Getenv: env, Profile: "paper"}.Load("../../configs/paper/pramem_evolution.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range []int{10, 40, 80} {
		if got := cfg.Methods[i].PraMem.EvalRound; got != r {
			t.Errorf("methods[%d].eval_round = %d, want %d", i, got, r)
		}
	}
}

// TestProfileInSweep: every variant of a sweep gets the profile.
func TestProfileInSweep(t *testing.T) {
	vs, err := Options{Getenv: func(string) string { return "" }, Profile: "paper,as_released"}.Expand("../../configs/paper/pramem_table1.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 {
		t.Fatalf("%d variants", len(vs))
	}
	for _, v := range vs {
		m := v.Config.Methods[4]
		if v.Config.Profile != "paper,as_released" || m.PraMem.Rounds != 80 || !m.PraMem.ReleaseSampling || v.Config.Dataset.Synthetic.Users != 200 {
			t.Errorf("variant %s: profile %q rounds %d sampling %v", v.Name, v.Config.Profile, m.PraMem.Rounds, m.PraMem.ReleaseSampling)
		}
	}
}
