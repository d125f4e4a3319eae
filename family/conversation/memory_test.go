package conversation_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/datasets/synth"
	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// speakerEndpoint is a model that builds a Mem0-style memory as the
// construction prompts ask: an extraction answers each turn marked (user)
// as a fact "<speaker>: <text>" (none from the assistant's turns), an
// update adds the new fact; it records which speaker's store each
// extraction built, the session date it showed, and every answer body.
type speakerEndpoint struct {
	mu sync.Mutex
	// dates[speaker+"\x00"+fact] are the session dates a fact was
	// extracted under for that speaker's store.
	dates map[string]map[string]bool
	// turns[speaker] counts the turns the speaker's extractions showed.
	turns map[string]int
	// partner[speaker] is the other speaker of the speaker's conversation.
	partner map[string]string
	answers []string
	bad     []string
}

var (
	sessionHeading = lazyre.New(`(?m)^Session of (.+):$`)
	turnLine       = lazyre.New(`(?m)^\((user|assistant)\) ([^:]+): (.*)$`)
)

func (e *speakerEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(b, &body); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	content := bodyContent(body)
	reply := "the blue notebook"
	e.mu.Lock()
	switch {
	case strings.Contains(content, "## Turns\n"):
		turns := content[strings.Index(content, "## Turns\n"):strings.Index(content, "## Task")]
		heads := sessionHeading.FindAllStringSubmatch(turns, -1)
		if len(heads) != 1 {
			e.bad = append(e.bad, fmt.Sprintf("an extraction shows %d session headings, want one", len(heads)))
			break
		}
		var facts []string
		user, other := "", ""
		for _, m := range turnLine.FindAllStringSubmatch(turns, -1) {
			p := &other
			if m[1] == "user" {
				p = &user
				facts = append(facts, m[2]+": "+m[3])
			}
			if *p != "" && *p != m[2] {
				e.bad = append(e.bad, "one extraction marks two speakers "+m[1]+": "+*p+", "+m[2])
			}
			*p = m[2]
			if user != "" && user == other {
				e.bad = append(e.bad, "speaker "+user+" is marked both user and assistant")
			}
		}
		self := user
		if self == "" { // a chunk of the other speaker's turns only
			self = e.partner[other]
		}
		e.turns[self] += len(turnLine.FindAllString(turns, -1))
		for _, f := range facts {
			k := self + "\x00" + f
			if e.dates[k] == nil {
				e.dates[k] = map[string]bool{}
			}
			e.dates[k][heads[0][1]] = true
		}
		reply = "NONE"
		if len(facts) > 0 {
			reply = "- " + strings.Join(facts, "\n- ")
		}
	case strings.Contains(content, "## New fact\n"):
		fact := strings.SplitN(content[strings.Index(content, "## New fact\n")+len("## New fact\n"):], "\n", 2)[0]
		reply = "ADD: " + fact
	case strings.HasPrefix(content, "\nSTANDIN-MEM0"): // the stand-in of mem0's judge
		reply = "```json\n{\"label\": \"CORRECT\"}\n```"
	default:
		e.answers = append(e.answers, content)
	}
	e.mu.Unlock()
	msg, _ := json.Marshal(reply)
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":`+string(msg)+`}}],"usage":{"prompt_tokens":3,"completion_tokens":5,"total_tokens":8}}`)
}

// TestPerSpeakerMemoryThroughTheRunPath runs the Mem0-style memory on
// LoCoMo's embedded default at an endpoint that extracts as the prompts
// ask, under prompts: release and own. Each conversation keeps one store
// per speaker: every extraction shows one session under its date, one
// speaker's turns marked user and the other's assistant, and each store
// reads every turn. Under release each answer body is mem0's memories
// template with speaker 1 speaker_a and speaker 2 speaker_b, each side
// only its own store's facts as "<session date>: <memory>", at most top_k;
// under own our prompt lists the two speakers' memories, speaker_a first.
func TestPerSpeakerMemoryThroughTheRunPath(t *testing.T) {
	ds, err := synth.GenerateLoCoMo(synth.LoCoMoConfig{Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	turns := 0
	var convs []memqa.Conversation
	for _, c := range ds.Conversations {
		convs = append(convs, c)
		for _, s := range c.Sessions {
			turns += len(s.Turns)
		}
	}
	dataDir := t.TempDir()
	mem0, lme := standinPacks(t, dataDir)
	dir := t.TempDir()
	for _, prompts := range []string{"release", "own"} {
		t.Run(prompts, func(t *testing.T) {
			ep := &speakerEndpoint{dates: map[string]map[string]bool{}, turns: map[string]int{}, partner: map[string]string{}}
			for _, c := range convs {
				ep.partner[c.SpeakerA], ep.partner[c.SpeakerB] = c.SpeakerB, c.SpeakerA
			}
			srv := httptest.NewServer(ep)
			defer srv.Close()
			getenv := func(k string) string {
				switch k {
				case "OPENAI_BASE_URL":
					return srv.URL
				case "MEMHARNESS_DATA":
					return dataDir
				}
				return ""
			}
			path := filepath.Join(dir, prompts+".yaml")
			text := "name: " + prompts + "\ntask: locomo\nseed: 42\nprompts: " + prompts + "\nbackbone: {kind: openai, model: m, max_retries: 0}\n" +
				"methods: [{name: mem0, kind: mem0, memory: {top_k: 4}}]\nreport: {bootstrap: 10}\n"
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			if code := bench.Main(context.Background(), []string{"run", "-c", path, "--out", filepath.Join(dir, "out")},
				bench.IO{Out: &stdout, Err: &stderr, Getenv: getenv, Kinds: kindsWith(t, mem0, lme)}); code != 0 {
				t.Fatalf("exit %d:\n%s%s", code, stdout.String(), stderr.String())
			}
			for _, b := range ep.bad {
				t.Error(b)
			}
			// Each store read every turn of its conversation.
			for _, c := range convs {
				n := 0
				for _, s := range c.Sessions {
					n += len(s.Turns)
				}
				for _, sp := range []string{c.SpeakerA, c.SpeakerB} {
					if ep.turns[sp] != n {
						t.Errorf("%s: %s's store read %d turns, want every turn (%d)", c.SampleID, sp, ep.turns[sp], n)
					}
				}
			}
			ss := readSamples(t, filepath.Join(dir, "out", prompts))
			if len(ep.answers) != len(ss) || len(ss) == 0 {
				t.Fatalf("%d answer requests for %d samples", len(ep.answers), len(ss))
			}
			entries := 0
			for _, a := range ep.answers {
				c := conversationAsked(t, convs, a)
				var sides [2][]string
				if prompts == "release" {
					sides = releaseSides(t, a, c)
				} else {
					sides = ownSides(t, a, c)
				}
				for i, sp := range []string{c.SpeakerA, c.SpeakerB} {
					if len(sides[i]) > 4 {
						t.Errorf("%s's side lists %d memories, want at most top_k 4", sp, len(sides[i]))
					}
					for _, e := range sides[i] {
						entries++
						// No LoCoMo date holds ": ", so the first one ends it.
						date, fact, _ := strings.Cut(e, ": ")
						if !ep.dates[sp+"\x00"+fact][date] {
							t.Errorf("%s's side lists %q: not a fact of %s's store stamped with the session it came from", sp, e, sp)
						}
					}
				}
			}
			if entries == 0 {
				t.Error("no answer prompt listed a memory")
			}
		})
	}
}

// conversationAsked is the conversation whose question the answer prompt
// asks (the embedded conversations' speakers differ).
func conversationAsked(t *testing.T, convs []memqa.Conversation, prompt string) memqa.Conversation {
	t.Helper()
	for _, c := range convs {
		if strings.Contains(prompt, c.SpeakerA) && strings.Contains(prompt, c.SpeakerB) {
			return c
		}
	}
	t.Fatalf("no conversation's speakers in %.300q", prompt)
	return memqa.Conversation{}
}

// releaseSides reads the stand-in memories template
// ("STANDIN-ANS-MEM {{speaker_1_user_id}}={{speaker_1_memories}}
// {{speaker_2_user_id}}={{speaker_2_memories}} Q=...").
func releaseSides(t *testing.T, prompt string, c memqa.Conversation) [2][]string {
	t.Helper()
	head := "\n    STANDIN-ANS-MEM " + c.SpeakerA + "="
	if !strings.HasPrefix(prompt, head) {
		t.Fatalf("memories prompt does not name speaker_a %s as speaker 1: %.200q", c.SpeakerA, prompt)
	}
	rest := prompt[len(head):]
	mid := strings.Index(rest, " "+c.SpeakerB+"=[")
	end := strings.LastIndex(rest, " Q=")
	if mid < 0 || end < mid {
		t.Fatalf("memories prompt does not name speaker_b %s as speaker 2: %.300q", c.SpeakerB, prompt)
	}
	var out [2][]string
	for i, js := range []string{rest[:mid], rest[mid+len(" "+c.SpeakerB+"=") : end]} {
		if err := json.Unmarshal([]byte(js), &out[i]); err != nil {
			t.Fatalf("side %d is not a JSON list: %v: %.200q", i+1, err, js)
		}
		if !strings.Contains(js, "[\n    \"") && js != "[]" {
			t.Errorf("side %d is not json.dumps(indent=4): %.100q", i+1, js)
		}
	}
	return out
}

// ownSides reads our own wording's two memory lists, speaker_a's first.
func ownSides(t *testing.T, prompt string, c memqa.Conversation) [2][]string {
	t.Helper()
	a := strings.Index(prompt, "Memories of "+c.SpeakerA+":\n")
	b := strings.Index(prompt, "Memories of "+c.SpeakerB+":\n")
	if a < 0 || b < a {
		t.Fatalf("own prompt does not list %s's memories, then %s's: %.400q", c.SpeakerA, c.SpeakerB, prompt)
	}
	var out [2][]string
	for i, block := range []string{prompt[a:b], prompt[b:]} {
		for _, l := range strings.Split(block, "\n")[1:] {
			if !strings.HasPrefix(l, "- ") {
				break
			}
			out[i] = append(out[i], strings.TrimPrefix(l, "- "))
		}
	}
	return out
}

// TestPerSpeakerMemoryOnTheSim runs both memories on the embedded LoCoMo
// on the sim, twice: each conversation's first question carries the
// construction calls of both speakers' stores (and no other question any),
// and the two runs' sample logs are byte-identical.
func TestPerSpeakerMemoryOnTheSim(t *testing.T) {
	ds, err := synth.GenerateLoCoMo(synth.LoCoMoConfig{Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfg, []byte("name: spk\ntask: locomo\nseed: 42\nbackbone: {kind: sim, model: m}\n"+
		"methods: [{name: mem0, kind: mem0}, {name: memos, kind: memos}]\nreport: {bootstrap: 10}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var logs [2][]byte
	for i := range logs {
		out := filepath.Join(dir, "out"+string(rune('a'+i)))
		if code, log := runBench(t, context.Background(), cfg, out, nil); code != 0 {
			t.Fatalf("exit %d:\n%s", code, log)
		}
		runDir := filepath.Join(out, "spk")
		b, err := os.ReadFile(filepath.Join(runDir, runrecord.SamplesFile))
		if err != nil {
			t.Fatal(err)
		}
		logs[i] = stripTimes(t, b)
		if i > 0 {
			continue
		}
		built := constructionCalls(t, runDir)
		for _, method := range []string{"mem0", "memos"} {
			for _, c := range ds.Conversations {
				first := method + "/" + c.Questions[0].ID
				for _, sp := range []string{c.SpeakerA, c.SpeakerB} {
					store := c.SampleID + "/" + sp
					if built[first][store] == 0 {
						t.Errorf("%s: %s's store: no construction call recorded with the first question %s (%v)", method, store, first, built[first])
					}
				}
				for _, q := range c.Questions[1:] {
					if n := len(built[method+"/"+q.ID]); n != 0 {
						t.Errorf("%s: question %s carries construction calls of %d stores, want none", method, q.ID, n)
					}
				}
			}
		}
		answered := 0
		for _, s := range readSamples(t, runDir) {
			if s.Error != "" {
				t.Fatalf("%s: %s", s.ID, s.Error)
			}
			if s.Scores["f1"] > 0 {
				answered++
			}
		}
		if answered == 0 {
			t.Error("no question answered from the speakers' memories")
		}
	}
	if !bytes.Equal(logs[0], logs[1]) {
		t.Error("two runs of the same config wrote different sample logs")
	}
}

// constructionCalls counts, per sample whose record holds them, the
// memory construction calls by store ("<conversation>/<speaker>", from
// the calls' own ids "<kind>/<conversation>/<speaker>/...").
func constructionCalls(t *testing.T, runDir string) map[string]map[string]int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(runDir, runstore.UsageJournal))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]int{}
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var l struct {
			Unit  string `json:"unit"`
			Calls []struct {
				Purpose  string `json:"purpose"`
				SampleID string `json:"sample_id"`
			} `json:"calls"`
		}
		if err := json.Unmarshal(line, &l); err != nil {
			t.Fatalf("%s: %v", runstore.UsageJournal, err)
		}
		unit := strings.TrimPrefix(l.Unit, "sample:")
		for _, c := range l.Calls {
			if !strings.HasPrefix(c.Purpose, "mem0.") && !strings.HasPrefix(c.Purpose, "memos.") {
				continue
			}
			parts := strings.SplitN(c.SampleID, "/", 4)
			if len(parts) < 4 {
				t.Fatalf("construction call id %q: want <kind>/<conversation>/<speaker>/...", c.SampleID)
			}
			if out[unit] == nil {
				out[unit] = map[string]int{}
			}
			out[unit][parts[1]+"/"+parts[2]]++
		}
	}
	return out
}
