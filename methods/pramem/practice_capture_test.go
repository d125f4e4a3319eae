package pramem_test

// Whole-request comparison of PraMem's practice stage with the release's
// own code (z_1 draw, z_2 inputs, z_5 rounds) run on the same user with the
// model stubbed. It needs three local files and is skipped without them:
//
//	MEMHARNESS_PRAMEM_RELEASE           the release pack (bench data fetch
//	                                    pramem-release, or a checkout of the
//	                                    pinned commit)
//	MEMHARNESS_PRAMEM_EXPERIMENT        an experiment_data.json whose first
//	                                    user is practised
//	MEMHARNESS_PRAMEM_PRACTICE_CAPTURE  what the release sent for that user
//
// How to capture: testdata/capture/practice_capture.py (our script; run it
// against a checkout of the release, it writes the capture outside this
// repository) runs, single-process and with the model stubbed, the
// release's z_1 draw (random.seed(42)), z_2's inputs (random.seed(1024)
// shuffle; an item whose input cannot be built is skipped, as z_2's main
// does) and z_5's SelfPractice with its argparse defaults, replying by
// stage (two 【提议】 lines per reflection, seven scenes, the first
// proposal passing the generalisation check). It writes one JSON object:
//
//	"targets": [{timestamp, type, test_time_index}]   the first R targets
//	"calls":   [{round, stage, body, reply}]          every request body in
//	    order (model, messages, max_completion_tokens, …) and the reply
//
// and the practised user alone as <capture>.experiment.json. --alter blanks
// some search keywords and customer-service user turns first, so the draw
// meets records the release asks nothing of. Synthetic users with search
// and customer-service records: omnibehavior.WriteExperiment over the
// generated OmniBehavior data.
//
// Then: go test ./methods/pramem -run TestReleasePracticeCapture -v
//
// The harness runs with the release's behaviours on (release_sampling,
// reproduce_release_leak, release_noop_grounding, release_request), as
// --profile paper,as_released sets them, and its answers are the captured
// replies, so every request, not only the first round's, can be compared.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/datasets/omnibehavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/pramem"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/releasepacks/pramemrel"
)

type practiceCapture struct {
	Targets []struct {
		Timestamp string `json:"timestamp"`
		Type      string `json:"type"`
		Index     int    `json:"test_time_index"`
	} `json:"targets"`
	Calls []struct {
		Round int            `json:"round"`
		Stage string         `json:"stage"`
		Body  map[string]any `json:"body"`
		Reply string         `json:"reply"`
	} `json:"calls"`
}

// callKey names a request by round (from 1), stage and occurrence.
func callKey(round int, stage string, seen map[string]int) string {
	k := fmt.Sprintf("round %d %s", round, stage)
	seen[k]++
	return fmt.Sprintf("%s #%d", k, seen[k])
}

// replayModel sends each request through the real OpenAI client to a
// server that answers with the release's reply to the same round and
// stage, and keeps every body the server was sent under that key. The
// practice calls of one user are sequential, so the key of the call in
// flight is the key of the body the server sees.
type replayModel struct {
	llm.Model
	replies map[string]string
	mu      sync.Mutex
	seen    map[string]int
	current string
	order   []string
	bodies  map[string]map[string]any
}

func (r *replayModel) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	parts := strings.Split(req.SampleID, "/")
	round, _ := strconv.Atoi(parts[len(parts)-2])
	r.mu.Lock()
	r.current = callKey(round+1, parts[len(parts)-1], r.seen)
	r.order = append(r.order, r.current)
	r.mu.Unlock()
	return r.Model.Generate(ctx, req)
}

func (r *replayModel) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	raw, _ := io.ReadAll(req.Body)
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	r.bodies[r.current] = body
	reply, ok := r.replies[r.current]
	r.mu.Unlock()
	if !ok {
		reply = "stub"
	}
	out, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion", "model": body["model"],
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": reply}}}})
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

func TestReleasePracticeCapture(t *testing.T) {
	dir, expPath, capPath := os.Getenv("MEMHARNESS_PRAMEM_RELEASE"), os.Getenv("MEMHARNESS_PRAMEM_EXPERIMENT"), os.Getenv("MEMHARNESS_PRAMEM_PRACTICE_CAPTURE")
	if dir == "" || expPath == "" || capPath == "" {
		t.Skip("set MEMHARNESS_PRAMEM_RELEASE, MEMHARNESS_PRAMEM_EXPERIMENT and MEMHARNESS_PRAMEM_PRACTICE_CAPTURE (see the comment at the top of this file)")
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
	b, err := os.ReadFile(capPath)
	if err != nil {
		t.Fatal(err)
	}
	var cap practiceCapture
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
	u := sets[0]
	var keep []behavior.Instance
	for _, in := range u.Instances {
		if in.Question.Kind == behavior.Binary {
			in.Question.Text = pack.Question(in.Question.Field)
			keep = append(keep, in)
		}
	}
	u.Instances = keep

	spec := predict.PraMemSpec{Rounds: len(cap.Targets), ReleaseSampling: true, ReproduceReleaseLeak: true,
		ReleaseNoopGrounding: true}
	// The request settings a run under prompts: release gets.
	s := predict.Spec{Kind: pramem.Kind, Language: "zh", Templates: []string{tmpl}, PraMem: &spec, Parser: predict.ParserSource,
		Sampling: config.Known{}.MethodSampling(config.PromptsRelease, pramem.Kind, nil)}
	m, err := pramem.New(s)
	if err != nil {
		t.Fatal(err)
	}

	// The draw: the same targets in the same order.
	first := u.Instances[0]
	pool := first.History[:first.PracticeCut]
	items, err := pramem.PracticeTargets(m, u)
	if err != nil {
		t.Fatal(err)
	}
	// textOnly marks the rounds (from 1) whose target carries only text
	// questions (a search or customer-service record): the release
	// practises those with its text-question input and no scenes call.
	textOnly := map[int]bool{}
	sameTargets := 0
	for i, want := range cap.Targets {
		if i < len(items) && len(pool[items[i]].Outcomes) == 0 {
			textOnly[i+1] = true
		}
		got := "none"
		if i < len(items) {
			e := pool[items[i]]
			got = e.Time + " " + e.RawScene
		}
		if got == want.Timestamp+" "+want.Type {
			sameTargets++
		} else {
			t.Errorf("practice target %d: the harness draws %s, the release %s %s", i, got, want.Timestamp, want.Type)
		}
	}
	if len(items) != len(cap.Targets) {
		t.Errorf("the harness plays %d rounds, the release %d", len(items), len(cap.Targets))
	}
	t.Logf("practice targets: %d of %d as the release draws them", sameTargets, len(cap.Targets))

	// Every request body of the rounds.
	rm := &replayModel{replies: map[string]string{}, seen: map[string]int{}, bodies: map[string]map[string]any{}}
	want := map[string]map[string]any{}
	var order []string
	seen := map[string]int{}
	stageOf := map[string]string{}
	for _, c := range cap.Calls {
		k := callKey(c.Round, c.Stage, seen)
		rm.replies[k], want[k], stageOf[k] = c.Reply, c.Body, c.Stage
		order = append(order, k)
	}
	hs := httptest.NewServer(rm)
	defer hs.Close()
	model, _ := cap.Calls[0].Body["model"].(string)
	client, err := llm.NewOpenAI(llm.EndpointConfig{BaseURL: hs.URL + "/v1", Model: model})
	if err != nil {
		t.Fatal(err)
	}
	rm.Model = client
	env := predict.Env{Model: rm}
	if _, err := m.PrepareUser(context.Background(), env, u); err != nil {
		t.Fatal(err)
	}
	// stages counts identical bodies per stage, and separately for the
	// rounds with a text-question target.
	stages := map[string][2]int{}
	roundOf := func(k string) int {
		var r int
		fmt.Sscanf(k, "round %d", &r)
		return r
	}
	for _, k := range order {
		name := stageOf[k]
		if textOnly[roundOf(k)] {
			name += " (text target)"
		}
		st := stages[name]
		st[1]++
		if reflect.DeepEqual(rm.bodies[k], want[k]) {
			st[0]++
		} else {
			t.Errorf("%s differs from the release's request: %s", k, bodyDiff(rm.bodies[k], want[k]))
		}
		stages[name] = st
	}
	for _, k := range rm.order {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: the harness sends it, the release does not", k)
		}
	}
	t.Logf("%d of %d rounds have a text-question target", len(textOnly), len(cap.Targets))
	for _, k := range slices.Sorted(maps.Keys(stages)) {
		t.Logf("%-26s %d of %d request bodies identical with the release's", k, stages[k][0], stages[k][1])
	}
}

// bodyDiff names the first differing key of two request bodies and, for
// the messages, the first differing byte.
func bodyDiff(got, want map[string]any) string {
	if got == nil {
		return "no such request"
	}
	keys := slices.Sorted(maps.Keys(want))
	for k := range got {
		if _, ok := want[k]; !ok {
			return fmt.Sprintf("the harness sends %s=%v, the release does not", k, got[k])
		}
	}
	for _, k := range keys {
		if reflect.DeepEqual(got[k], want[k]) {
			continue
		}
		if k != "messages" {
			return fmt.Sprintf("%s: got %v, want %v", k, got[k], want[k])
		}
		g, w := messageText(got[k]), messageText(want[k])
		i := 0
		for i < len(g) && i < len(w) && g[i] == w[i] {
			i++
		}
		return fmt.Sprintf("messages differ at byte %d:\n got …%q\nwant …%q", i, around(g, i), around(w, i))
	}
	return "identical"
}

func messageText(v any) string {
	b, _ := json.Marshal(v)
	var ms []struct{ Role, Content string }
	json.Unmarshal(b, &ms)
	s := ""
	for _, m := range ms {
		s += m.Role + ": " + m.Content + "\n"
	}
	return s
}

// around shows the text around byte i.
func around(s string, i int) string { return s[max(0, i-40):min(len(s), i+80)] }
