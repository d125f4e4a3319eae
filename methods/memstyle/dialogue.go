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
	// Date is the date of the turn's session as the data gives it.
	Date, Speaker, Text string
}

// DialogueExtract is the hint of a construction call over dialogue turns:
// Mem0's extraction (Type empty) or MemOS's typed extraction (Type one of
// profile, preference, habit, event). The model answers one fact per line,
// each starting with "- ", or NONE.
type DialogueExtract struct {
	Type string
	// Turns are the turns the prompt shows, oldest first.
	Turns []Turn
	// Existing are the units of Type stored so far (MemOS).
	Existing []string
	// MaxFacts bounds the facts asked for.
	MaxFacts int
}

// Dialogue is a Mem0- or MemOS-style memory of a conversation: the same
// construction as the behaviour kinds' (chunks extracted, each fact added
// or updated against its nearest stored memories; or typed units
// extracted and consolidated over a cap), over the conversation's turns
// with the dialogue wording of the prompts, and the same retrieval by
// question. A conversation is built once, under its ID as the user.
type Dialogue struct {
	m0 *mem0
	mo *memos
}

// NewDialogue builds the dialogue memory of a mem0 or memos spec.
func NewDialogue(spec predict.Spec) (*Dialogue, error) {
	m, err := New(spec)
	if err != nil {
		return nil, err
	}
	switch x := m.(type) {
	case *mem0:
		return &Dialogue{m0: x}, nil
	case *memos:
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

// Build builds the memory of the conversation id from its turns, through
// env's construction model.
func (d *Dialogue) Build(ctx context.Context, env predict.Env, id string, turns []Turn) (predict.Memory, error) {
	c := d.common()
	if env.Builder() == nil {
		return predict.Memory{}, fmt.Errorf("method %s: no model", c.name)
	}
	if env.Embedder == nil {
		return predict.Memory{}, fmt.Errorf("method %s: %s retrieval needs an embedder", c.name, c.k.Kind)
	}
	name, err := c.dialogueCheckpoint(turns)
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
	chunks := c.turnChunks(turns)
	if d.m0 != nil {
		return d.m0.construct(ctx, b, chunks)
	}
	return d.mo.construct(ctx, b, chunks, "memos_consolidate_dialogue")
}

// Recall is the stored memories the answer prompt shows for query (Mem0:
// the top_k most similar; MemOS: each type's share of top_k), without list
// markers, within the memory block's budget.
func (d *Dialogue) Recall(ctx context.Context, env predict.Env, mem predict.Memory, query string) ([]string, error) {
	units, err := unitsOf(mem)
	if err != nil {
		return nil, err
	}
	var lines []string
	if d.m0 != nil {
		lines, err = d.m0.recall(ctx, env, units, query)
	} else {
		var secs []section
		secs, err = d.mo.recall(ctx, env, units, query)
		for _, s := range secs {
			lines = append(lines, strings.Split(s.Items, "\n")...)
		}
	}
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "- ")
	}
	return lines, err
}

// turnChunks cuts the turns into chunks of the configured size, rendered
// one line each ("[date] speaker: text").
func (c *common) turnChunks(turns []Turn) []chunk {
	var out []chunk
	for lo := 0; lo < len(turns); lo += c.k.Chunk {
		part := turns[lo:min(lo+c.k.Chunk, len(turns))]
		var b strings.Builder
		for _, t := range part {
			fmt.Fprintf(&b, "[%s] %s: %s\n", t.Date, t.Speaker, t.Text)
		}
		sp := fmt.Sprintf("turns %d-%d", lo+1, lo+len(part))
		if part[0].Date != "" {
			sp += ", " + part[0].Date + " .. " + part[len(part)-1].Date
		}
		out = append(out, chunk{records: b.String(), span: sp,
			template: "mem0_extract_dialogue", hint: DialogueExtract{Turns: part, MaxFacts: c.k.MaxFacts},
			typedTemplate: "memos_extract_dialogue",
			typed: func(typ string, existing []string) any {
				return DialogueExtract{Type: typ, Turns: part, Existing: existing, MaxFacts: c.k.MaxFacts}
			}})
	}
	return out
}

// dialogueCheckpoint names a conversation's construction by a hash of
// what determines it: the knobs (top_k aside, as for the behaviour
// kinds), the sampling settings, the template files and the turns.
func (c *common) dialogueCheckpoint(turns []Turn) (string, error) {
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
	}{Version: progressVersion, Knobs: k, Params: c.spec.Params, Sampling: c.spec.Sampling, Templates: c.spec.Templates, Turns: turns, Dialogue: true})
	if err != nil {
		return "", fmt.Errorf("method %s: checkpoint key: %w", c.name, err)
	}
	sum := sha256.Sum256(js)
	return k.Kind + "-dialogue-" + hex.EncodeToString(sum[:8]), nil
}
