package memstyle

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/memharness/memharness/methods/predict"
)

// Turn is one turn of a dialogue as a Dialogue memory reads it.
type Turn struct {
	// Date is the date of the turn's session as the data gives it;
	// Session names the session (chunks never cross one).
	Date, Session, Speaker, Text string
}

// Entry is one recalled memory and the timestamp kept with it: the date
// of the session whose chunk last wrote it.
type Entry struct{ Date, Text string }

// DialogueExtract is the hint of a construction call over dialogue turns:
// Mem0's extraction (Type empty) or MemOS's typed extraction (Type one of
// profile, preference, habit, event). The model answers one fact per line,
// each starting with "- ", or NONE.
type DialogueExtract struct {
	Type string
	// Self is the speaker whose memory is built: the prompt marks their
	// turns (user), the other speaker's (assistant) being context only.
	Self string
	// Turns are the turns the prompt shows, oldest first.
	Turns []Turn
	// Existing are the units of Type stored so far (MemOS).
	Existing []string
	// MaxFacts bounds the facts asked for.
	MaxFacts int
}

// Dialogue is a Mem0- or MemOS-style memory of one speaker of a
// conversation: the same construction as the behaviour kinds' (chunks
// extracted, each fact added or updated against its nearest stored
// memories; or typed units extracted and consolidated over a cap), over
// the conversation's turns seen from that speaker's side (their turns
// marked user, the other's assistant, as mem0's and MemOS's LoCoMo
// evaluations add each session to one store per speaker), with the
// dialogue wording of the prompts, and the same retrieval by question.
type Dialogue struct {
	m0 *mem0
	mo *memos
}

// The knobs a dialogue memory takes where its spec sets none: those of
// the LoCoMo evaluations the constructions follow, not the behaviour
// kinds' defaults. mem0's (evaluation/ at b3ede5b) adds batches of 2
// messages (MemoryADD's batch_size) and searches each store for the top 30
// (run_experiments.py's --top_k default, and its Makefile's); MemOS's
// (evaluation/scripts/locomo) adds with batch_size=2 and searches each
// store for the top 20 (run_locomo_eval.sh's TOPK).
const (
	DialogueChunk     = 2
	DialogueMem0TopK  = 30
	DialogueMemOSTopK = 20
)

// NewDialogue builds the dialogue memory of a mem0 or memos spec; a knob
// the spec leaves unset takes the dialogue defaults above.
func NewDialogue(spec predict.Spec) (*Dialogue, error) {
	m, err := New(spec)
	if err != nil {
		return nil, err
	}
	var set predict.MemorySpec
	if spec.Memory != nil {
		set = *spec.Memory
	}
	dialogueDefaults := func(k *knobs, topK int) {
		if set.Chunk <= 0 {
			k.Chunk = DialogueChunk
		}
		if set.TopK <= 0 {
			k.TopK = topK
		}
	}
	switch x := m.(type) {
	case *mem0:
		dialogueDefaults(&x.k, DialogueMem0TopK)
		return &Dialogue{m0: x}, nil
	case *memos:
		dialogueDefaults(&x.k, DialogueMemOSTopK)
		return &Dialogue{mo: x}, nil
	}
	return nil, fmt.Errorf("memstyle: kind %q keeps no dialogue memory (mem0 and memos do)", spec.Kind)
}

func (d *Dialogue) common() *common {
	if d.m0 != nil {
		return &d.m0.common
	}
	return &d.mo.common
}

// Build builds the memory of speaker self from the turns of the
// conversation id, through env's construction model; id names the store
// in the calls (their sample IDs and affinity).
func (d *Dialogue) Build(ctx context.Context, env predict.Env, id, self string, turns []Turn) (predict.Memory, error) {
	c := d.common()
	if env.Builder() == nil {
		return predict.Memory{}, fmt.Errorf("method %s: no model", c.name)
	}
	if env.Embedder == nil {
		return predict.Memory{}, fmt.Errorf("method %s: %s retrieval needs an embedder", c.name, c.k.Kind)
	}
	name, err := c.dialogueCheckpoint(self, turns)
	if err != nil {
		return predict.Memory{}, err
	}
	b := &build{c: c, env: env, user: id, name: name, started: time.Now()}
	if env.Checkpoints != nil {
		if _, err := env.Checkpoints.Load(id, name, &b.st); err != nil {
			return predict.Memory{}, fmt.Errorf("method %s: conversation %s: load checkpoint %s: %w", c.name, id, name, err)
		}
	}
	b.st.Version = progressVersion
	if b.st.Counters == nil {
		b.st.Counters = map[string]int{}
	}
	b.before = b.st.Seconds
	chunks := c.turnChunks(self, turns)
	if d.m0 != nil {
		return d.m0.construct(ctx, b, chunks)
	}
	return d.mo.construct(ctx, b, chunks, "memos_consolidate_dialogue")
}

// Recall is the stored memories the answer prompt shows for query, each
// with its timestamp (Mem0: the top_k most similar, most similar first;
// MemOS: each type's share of top_k, by type), within the memory block's
// budget.
func (d *Dialogue) Recall(ctx context.Context, env predict.Env, mem predict.Memory, query string) ([]Entry, error) {
	units, err := unitsOf(mem)
	if err != nil || len(units) == 0 {
		return nil, err
	}
	entry := func(p int) Entry { return Entry{Date: units[p].Date, Text: units[p].Text} }
	var out []Entry
	if d.m0 != nil {
		top, err := d.m0.pick(ctx, env, units, query)
		for _, p := range top {
			out = append(out, entry(p))
		}
		return out, err
	}
	picks, err := d.mo.pick(ctx, env, units, query)
	if err != nil {
		return nil, err
	}
	// As memos.sections keeps lines: in type order, each type's lines
	// while the running total fits the budget.
	c, used := counter(env), 0
	for _, typ := range memosTypes {
		for _, p := range picks[typ] {
			cost := c.Count("- " + units[p].Text + "\n")
			if used+cost > d.mo.memTokens {
				break
			}
			used += cost
			out = append(out, entry(p))
		}
	}
	return out, nil
}

// turnChunks cuts the turns into chunks of at most the configured size,
// never across a session (each chunk has its session's one date, as each
// of mem0's add calls carries one timestamp), rendered from self's side:
// under the session's date, one line a turn, "(user) speaker: text" for
// self's turns and "(assistant) speaker: text" for the other's.
func (c *common) turnChunks(self string, turns []Turn) []chunk {
	var out []chunk
	for lo := 0; lo < len(turns); {
		hi := lo + 1
		for hi < len(turns) && hi-lo < c.k.Chunk && turns[hi].Session == turns[lo].Session {
			hi++
		}
		part := turns[lo:hi]
		var b strings.Builder
		fmt.Fprintf(&b, "Session of %s:\n", orUnknownDate(part[0].Date))
		for _, t := range part {
			role := "assistant"
			if t.Speaker == self {
				role = "user"
			}
			fmt.Fprintf(&b, "(%s) %s: %s\n", role, t.Speaker, t.Text)
		}
		sp := fmt.Sprintf("turns %d-%d", lo+1, hi)
		if part[0].Date != "" {
			sp += ", " + part[0].Date
		}
		out = append(out, chunk{records: b.String(), span: sp, date: part[0].Date,
			template: "mem0_extract_dialogue", hint: DialogueExtract{Self: self, Turns: part, MaxFacts: c.k.MaxFacts},
			typedTemplate: "memos_extract_dialogue",
			typed: func(typ string, existing []string) any {
				return DialogueExtract{Type: typ, Self: self, Turns: part, Existing: existing, MaxFacts: c.k.MaxFacts}
			}})
		lo = hi
	}
	return out
}

func orUnknownDate(s string) string {
	if s == "" {
		return "unknown date"
	}
	return s
}

// dialogueCheckpoint names a speaker's construction by a hash of what
// determines it: the knobs (top_k aside, as for the behaviour kinds), the
// sampling settings, the template files, the speaker and the turns.
func (c *common) dialogueCheckpoint(self string, turns []Turn) (string, error) {
	k := c.k
	k.TopK = 0
	js, err := json.Marshal(struct {
		Version   int      `json:"v"`
		Knobs     knobs    `json:"knobs"`
		Params    any      `json:"params"`
		Sampling  any      `json:"sampling,omitempty"`
		Templates []string `json:"templates,omitempty"`
		Turns     []Turn   `json:"turns"`
		Dialogue  bool     `json:"dialogue"`
		Self      string   `json:"self"`
	}{Version: progressVersion, Knobs: k, Params: c.spec.Params, Sampling: c.spec.Sampling, Templates: c.spec.Templates, Turns: turns, Dialogue: true, Self: self})
	if err != nil {
		return "", fmt.Errorf("method %s: checkpoint key: %w", c.name, err)
	}
	sum := sha256.Sum256(js)
	return k.Kind + "-dialogue-" + hex.EncodeToString(sum[:8]), nil
}
