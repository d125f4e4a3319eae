package pramem

// Byte-for-byte comparison of the prompts the harness assembles from the
// authors' release pack with prompts captured by running the release's own
// code. It needs three local files and is skipped without them:
//
//	MEMHARNESS_PRAMEM_RELEASE     the release pack (bench data fetch pramem-release,
//	                              or a checkout of github.com/icip-cas/PraMem at the
//	                              pinned commit)
//	MEMHARNESS_PRAMEM_EXPERIMENT  an experiment_data.json (the release's
//	                              prepare_experiment_data.py output, or one the
//	                              harness writes with omnibehavior.WriteExperiment)
//	MEMHARNESS_PRAMEM_CAPTURE     the prompts captured from the release on that file
//
// How to capture (in a scratch folder, never in this repository): copy the
// release, put stub packages for openai, tqdm, numpy, sklearn.metrics and
// pytz on PYTHONPATH (they are imported but not needed), and run a script
// that writes one JSON object:
//
//	"eval": [{user, index, field, budget, prompt}]   for every test action
//	    (index = its position in test_actions) and binary question:
//	    build_single_binary_prompt(profile, base_history +
//	    test_time_all_actions[:test_time_index], action, question,
//	    max_history_tokens=budget)["prompt"] for budgets 8000 and 32000;
//	"memory": {"full"|"empty": {memory, text, block}}   format_exp_memory of
//	    a memory (with_proposal=0) and prompt_for_evaluate_after_main of it;
//	"practice": [{user, timestamp, type, input, label}]   for a few targets
//	    of each scene (the last one a 商城购物 record) of the first user's
//	    practice pool (base_history +
//	    test_time_all_actions[:first test's index]) at positions >= 10:
//	    z_2's get_simulated_input(profile, pool[:idx], [target], 12000) and
//	    get_simulated_label([target]);
//	"stages": {trial, reflect, scenes, generalize, perturb, perturb_judge,
//	    review: {prompt, max_completion_tokens}}   the prompts a
//	    SelfPractice(max_tokens=16000, num_perturbations=1,
//	    detail_truncate_len=128, num_virtual_scenes=7, choices_per_question=8)
//	    sends through a stub client for the last practice item: step_predict
//	    and step_reflect_and_extract (response "STUB TRIAL") with the "full"
//	    memory, generate_virtual_scenes(extract_current_scene(input)),
//	    check_generalization_batch(["p0", "p1"], that scene, seven virtual
//	    scenes), generate_perturbations(history),
//	    check_perturbation_sensitivity_batch(["p0", "p1"], details, desc,
//	    history) and step_review_memory(memory);
//	"stages_inputs": {memory, trial_response, real_scene, virtual, proposals,
//	    history, desc, details}   the inputs used above.
//
// Then: go test ./methods/pramem -run TestReleaseCapture -v

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/datasets/omnibehavior"
	"github.com/memharness/memharness/llm/tokens"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/releasepacks/pramemrel"
)

type capture struct {
	Eval []struct {
		User   string  `json:"user"`
		Index  int     `json:"index"`
		Field  string  `json:"field"`
		Budget int     `json:"budget"`
		Prompt *string `json:"prompt"`
	} `json:"eval"`
	Memory map[string]struct {
		Memory      ExpMemory `json:"memory"`
		Text, Block string
	} `json:"memory"`
	Practice []struct {
		User, Timestamp, Type, Input, Label string
	} `json:"practice"`
	Stages map[string]struct {
		Prompt              string `json:"prompt"`
		MaxCompletionTokens int    `json:"max_completion_tokens"`
	} `json:"stages"`
	Inputs struct {
		Memory                 ExpMemory `json:"memory"`
		TrialResponse          string    `json:"trial_response"`
		RealScene              string    `json:"real_scene"`
		Virtual, Proposals     []string
		History, Desc, Details string
	} `json:"stages_inputs"`
}

func TestReleaseCapture(t *testing.T) {
	dir, expPath, capPath := os.Getenv("MEMHARNESS_PRAMEM_RELEASE"), os.Getenv("MEMHARNESS_PRAMEM_EXPERIMENT"), os.Getenv("MEMHARNESS_PRAMEM_CAPTURE")
	if dir == "" || expPath == "" || capPath == "" {
		t.Skip("set MEMHARNESS_PRAMEM_RELEASE, MEMHARNESS_PRAMEM_EXPERIMENT and MEMHARNESS_PRAMEM_CAPTURE to compare with prompts captured from the release (see the comment at the top of this file)")
	}
	pack, err := pramemrel.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	text, err := pack.Templates()
	if err != nil {
		t.Fatal(err)
	}
	tmpl := filepath.Join(t.TempDir(), "release.tmpl")
	if err := os.WriteFile(tmpl, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := predict.LoadPrompts("zh", tmpl)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := loadStagePrompts("zh", []string{tmpl})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(capPath)
	if err != nil {
		t.Fatal(err)
	}
	var cap capture
	if err := json.Unmarshal(b, &cap); err != nil {
		t.Fatal(err)
	}
	d, err := omnibehavior.Load(expPath, "zh")
	if err != nil {
		t.Fatal(err)
	}
	sets, err := omnibehavior.BuildInstances(d, omnibehavior.Options{})
	if err != nil {
		t.Fatal(err)
	}
	users := map[string]behavior.UserSet{}
	inst := map[string]behavior.Instance{}
	for _, u := range sets {
		for i := range u.Instances {
			in := &u.Instances[i]
			if in.Question.Kind == behavior.Binary {
				in.Question.Text = pack.Question(in.Question.Field)
			}
			inst[fmt.Sprintf("%s/%d/%s", in.User, in.Index, in.Question.Field)] = *in
		}
		users[u.User] = u
	}
	counter := tokens.Approx{}
	// kinds counts [same, compared] per prompt kind.
	kinds := map[string][2]int{}
	tally := func(kind, got, want string) {
		c := kinds[kind]
		c[1]++
		if got == want {
			c[0]++
		} else if c[1]-c[0] <= 2 {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s differs at byte %d:\n got …%q\nwant …%q", kind, i, clip(got, i), clip(want, i))
		}
		kinds[kind] = c
	}

	// Evaluation prompts (truncation 8K, long-context 32K).
	for _, e := range cap.Eval {
		key := fmt.Sprintf("%s/%d/%s", e.User, e.Index, e.Field)
		in, ok := inst[key]
		if !ok {
			if e.Prompt != nil {
				t.Errorf("%s: the release asks it, the harness has no such instance", key)
			}
			continue
		}
		w, err := p.SelectWindow(counter, in.History, e.Budget)
		if err != nil {
			t.Fatal(err)
		}
		hist, err := p.HistoryBlock(in.History[w.Start:], w.Tokens)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.Question(in, hist)
		if err != nil {
			t.Fatal(err)
		}
		if e.Prompt == nil {
			t.Errorf("%s: the release filters this test action, the harness asks it", key)
			continue
		}
		tally(fmt.Sprintf("eval %dK", e.Budget/1000), got, *e.Prompt)
	}

	// Memory block after the question.
	for name, m := range cap.Memory {
		mem, err := sp.render(m.Memory, SectionsBoth, false)
		if err != nil {
			t.Fatal(err)
		}
		tally("memory text ("+name+")", mem, m.Text)
		block, err := sp.evalBlock(m.Memory, SectionsBoth)
		if err != nil {
			t.Fatal(err)
		}
		tally("eval memory block ("+name+")", block, m.Block)
	}

	// Practice input and label.
	meth := &method{cfg: config{practiceTokens: DefaultPracticeTokens}}
	env := predict.Env{Tokens: counter}
	for _, c := range cap.Practice {
		u := users[c.User]
		first := u.Instances[0]
		pool := first.History[:first.PracticeCut]
		idx := -1
		for i, e := range pool {
			if e.Time == c.Timestamp && e.RawScene == c.Type {
				idx = i
			}
		}
		if idx < 0 {
			t.Errorf("practice target %s %s not in the harness's pool", c.Timestamp, c.Type)
			continue
		}
		book := newQuestionBook(u)
		if len(book.of(pool[idx])) == 0 {
			// Search and customer-service records carry only text
			// questions: the harness never draws them as practice
			// targets (the release does).
			t.Logf("practice target %s %s: no yes/no question, not a harness practice target", c.Timestamp, c.Type)
			continue
		}
		it, err := meth.buildItem(env, p, sp, u, pool, first.History, idx, 0, book)
		if err != nil {
			t.Fatal(err)
		}
		tally("practice input "+c.Type, it.input, c.Input)
		tally("practice label "+c.Type, it.label, c.Label)
	}

	// PraMem stage prompts, with the data round.go passes.
	if len(cap.Practice) > 0 && len(cap.Stages) > 0 {
		last := cap.Practice[len(cap.Practice)-1]
		in := cap.Inputs
		mem, err := sp.render(in.Memory, SectionsBoth, false)
		if err != nil {
			t.Fatal(err)
		}
		real := realScene(last.Input, sp.marker("marker_scene"), detailLimit)
		tally("real scene text", real, in.RealScene)
		var ob strings.Builder
		for i, o := range append([]string{in.RealScene}, in.Virtual...) {
			fmt.Fprintf(&ob, "%c. %s\n", 'A'+i, o)
		}
		render := map[string]any{
			"trial": struct{ Input, Memory string }{last.Input, mem},
			"reflect": struct {
				Memory, Input, Trial, Label string
				N                           int
			}{mem, last.Input, in.TrialResponse, last.Label, 0},
			"scenes": struct {
				RealText string
				M        int
			}{in.RealScene, DefaultM},
			"generalize": struct{ Options, Proposals string }{ob.String(), numbered(in.Proposals, 0)},
			"perturb": struct {
				History string
				N       int
			}{in.History, perturbations},
			"perturb_judge": struct{ History, Desc, Details, Proposals string }{in.History, in.Desc, in.Details, numbered(in.Proposals, 0)},
			"review": struct {
				Memory, Pool string
				Support      int
			}{mem, numbered(in.Memory.Proposal, 1), DefaultSupport},
		}
		for _, name := range []string{"trial", "reflect", "scenes", "generalize", "perturb", "perturb_judge", "review"} {
			c, ok := cap.Stages[name]
			if !ok {
				t.Errorf("no captured %s prompt", name)
				continue
			}
			got, err := sp.exec(name, render[name])
			if err != nil {
				t.Fatal(err)
			}
			tally(name, got, c.Prompt)
			// The whole request is compared in TestReleasePracticeCapture;
			// here the pack must read the cap the release sent.
			if c.MaxCompletionTokens != pack.PracticeMaxTokens {
				t.Errorf("%s: the release sent max_completion_tokens %d, the pack reads %d", name, c.MaxCompletionTokens, pack.PracticeMaxTokens)
			}
		}
	}
	same := 0
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		c := kinds[k]
		t.Logf("%-28s %d of %d byte-identical", k, c[0], c[1])
		if c[0] == c[1] {
			same++
		}
	}
	t.Logf("%d of %d prompt kinds byte-identical with the release", same, len(kinds))
}

// clip shows the text around byte i.
func clip(s string, i int) string {
	lo, hi := max(0, i-40), min(len(s), i+80)
	return s[lo:hi]
}
