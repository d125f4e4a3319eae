package memstyle

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"time"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
)

// progressVersion changes whenever the meaning of a stored progress does;
// it is part of the checkpoint name, so old states are never misread.
const progressVersion = 1

// unit is one stored memory (Mem0) or memory unit (MemOS).
type unit struct {
	ID   string `json:"id"`
	Type string `json:"type,omitempty"`
	Text string `json:"text"` // without a list marker
	// Date is the timestamp of the chunk that last wrote the unit (a
	// dialogue session's date, as mem0 keeps an add call's metadata on the
	// memories it adds or updates); empty for behaviour records.
	Date string `json:"date,omitempty"`
	// Touched is the chunk that last wrote the unit (eviction order).
	Touched int `json:"touched"`
}

// progress is one user's construction state, checkpointed after every
// step so a resumed run continues where it stopped and a finished one
// makes no call at all.
type progress struct {
	Version  int       `json:"version"`
	Done     bool      `json:"done"`
	Step     int       `json:"step"` // next chunk (Mem0, MemOS) or step (ProEx)
	Units    []unit    `json:"units,omitempty"`
	NextID   int       `json:"next_id"`
	Profiles []profile `json:"profiles,omitempty"`
	// Efficiency (Table 3), summed over every session that built this
	// memory: construction calls, their usage, the wall-clock seconds spent
	// in PrepareUser and the model's own latency.
	Calls        int            `json:"calls"`
	Usage        llm.Usage      `json:"usage"`
	Seconds      float64        `json:"seconds"`
	ModelSeconds float64        `json:"model_seconds"`
	Counters     map[string]int `json:"counters,omitempty"`
}

// build is one PrepareUser session.
type build struct {
	c       *common
	env     predict.Env
	user    string
	name    string // checkpoint name
	st      progress
	started time.Time
	before  float64 // st.Seconds of earlier sessions
}

// begin resumes the user's checkpointed construction, or starts one.
func (c *common) begin(env predict.Env, u behavior.UserSet) (*build, error) {
	if env.Builder() == nil {
		return nil, fmt.Errorf("method %s: no model", c.name)
	}
	name, err := c.checkpointName(env, u)
	if err != nil {
		return nil, err
	}
	b := &build{c: c, env: env, user: u.User, name: name, started: time.Now()}
	if env.Checkpoints != nil {
		ok, err := env.Checkpoints.Load(u.User, name, &b.st)
		if err != nil {
			return nil, fmt.Errorf("method %s: user %s: load checkpoint %s: %w", c.name, u.User, name, err)
		}
		if ok && b.st.Version != progressVersion {
			return nil, fmt.Errorf("method %s: user %s: checkpoint %s has version %d, want %d", c.name, u.User, name, b.st.Version, progressVersion)
		}
	}
	b.st.Version = progressVersion
	if b.st.Counters == nil {
		b.st.Counters = map[string]int{}
	}
	b.before = b.st.Seconds
	return b, nil
}

// save checkpoints the state (a no-op without Env.Checkpoints).
func (b *build) save() error {
	b.st.Seconds = b.before + time.Since(b.started).Seconds()
	if b.env.Checkpoints == nil {
		return nil
	}
	if err := b.env.Checkpoints.Save(b.user, b.name, b.st); err != nil {
		return fmt.Errorf("method %s: user %s: save checkpoint %s: %w", b.c.name, b.user, b.name, err)
	}
	return nil
}

// finish marks the construction done and checkpoints it.
func (b *build) finish() error {
	b.st.Done = true
	return b.save()
}

// checkpointName is the kind and a hash of everything that determines the
// memory: the resolved knobs, construction sampling parameters, the
// construction prompts (language and override files), the fields asked and
// the practice records themselves. ProEx also validates with the
// prediction prompt, so its history budget and memory cap count too;
// settings used only at evaluation (Mem0's and MemOS's top-k, budgets) do
// not, so methods that differ only there share one construction.
func (c *common) checkpointName(env predict.Env, u behavior.UserSet) (string, error) {
	k := c.k
	key := struct {
		Version int        `json:"v"`
		Knobs   knobs      `json:"knobs"`
		Params  llm.Params `json:"params"`
		// Sampling refines Params per purpose (absent when it does not).
		Sampling  map[string]llm.Params `json:"sampling,omitempty"`
		Lang      string                `json:"lang"`
		Templates []string              `json:"templates,omitempty"`
		Fields    []string              `json:"fields"`
		Practice  string                `json:"practice"`
		Budget    int                   `json:"budget,omitempty"`
		MemTokens int                   `json:"mem_tokens,omitempty"`
		Profile   bool                  `json:"profile,omitempty"`
		// Probe is a record (proex: a question) rendered by the prediction
		// prompts, which construction prompts embed: it catches template
		// overrides given through Env.Prompts rather than the spec.
		Probe string `json:"probe"`
	}{Version: progressVersion, Params: c.spec.Params, Sampling: c.spec.Sampling, Lang: c.text(env).lang, Fields: userFields(u), Practice: fingerprint(practice(u))}
	probe := behavior.Event{Time: "t", Scene: "s", Context: "c", Result: "r"}
	var err error
	if key.Probe, err = c.prompts(env).Records([]behavior.Event{probe}); err != nil {
		return "", fmt.Errorf("method %s: %w", c.name, err)
	}
	if k.Kind != "proex" {
		k.TopK = 0
	} else {
		key.Budget, key.MemTokens = c.budget, c.memTokens
		key.Lang = c.prompts(env).Lang
		// Validation prompts show the profile.
		key.Profile = len(u.Instances) > 0 && u.Instances[0].Profile != ""
		q, err := c.prompts(env).Question(behavior.Instance{Target: probe, Question: behavior.Question{Kind: behavior.Binary, Text: "q"}}, "h")
		if err != nil {
			return "", fmt.Errorf("method %s: %w", c.name, err)
		}
		key.Probe += q
	}
	key.Knobs = k
	for _, path := range c.spec.Templates {
		b, err := os.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("method %s: template %s: %w", c.name, path, err)
		}
		sum := sha256.Sum256(b)
		key.Templates = append(key.Templates, hex.EncodeToString(sum[:]))
	}
	js, err := json.Marshal(key)
	if err != nil {
		return "", fmt.Errorf("method %s: checkpoint key: %w", c.name, err)
	}
	sum := sha256.Sum256(js)
	return k.Kind + "-" + hex.EncodeToString(sum[:8]), nil
}

// fingerprint hashes the records (length-prefixed fields, so fields cannot
// run together).
func fingerprint(events []behavior.Event) string {
	h := sha256.New()
	var n [8]byte
	put := func(s string) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		io.WriteString(h, s)
	}
	for _, e := range events {
		for _, f := range [...]string{e.Time, e.Scene, e.RawScene, e.Context, e.Result} {
			put(f)
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// count books one model response.
func (b *build) count(r llm.Response) {
	b.st.Calls++
	b.st.Usage = b.st.Usage.Add(r.Usage)
	b.st.ModelSeconds += r.Latency.Seconds()
}

// call sends one construction prompt to the construction model, redrawing
// answers valid rejects up to the attempt limit. ok is false when every
// draw was invalid (counted in invalid_answers); text is then the last.
func (b *build) call(ctx context.Context, purpose, sampleID, prompt string, h any, valid func(string) bool) (text string, ok bool, err error) {
	req := llm.Request{
		Purpose:  purpose,
		Messages: []llm.Message{{Role: "user", Content: prompt}},
		Params:   b.c.spec.ParamsFor(purpose),
		SampleID: sampleID,
		Affinity: b.user,
		Hint:     h,
		Accept:   func(r llm.Response) bool { return valid(r.Text) },
	}
	for a := 0; a < b.env.Draws(); a++ {
		if err := ctx.Err(); err != nil {
			return "", false, fmt.Errorf("method %s: %s: %w", b.c.name, sampleID, err)
		}
		req.Attempt = a
		resp, err := b.env.Builder().Generate(ctx, req)
		if err != nil {
			return "", false, fmt.Errorf("method %s: %s attempt %d: %w", b.c.name, sampleID, a, err)
		}
		b.count(resp)
		text = resp.Text
		if valid(text) {
			return text, true, nil
		}
		b.st.Counters["redraws"]++
	}
	b.st.Counters["invalid_answers"]++
	return text, false, nil
}

// memory packages the finished construction. Meta carries the efficiency
// figures of Table 3 (construction_seconds, calls, memory_tokens), the
// method's counters and extra (e.g. the stored units).
func (b *build) memory(text string, extra map[string]any) predict.Memory {
	tok := counter(b.env).Count(text)
	meta := map[string]any{
		"kind":                 b.c.k.Kind,
		"checkpoint":           b.name,
		"construction_seconds": b.st.Seconds,
		"model_seconds":        b.st.ModelSeconds,
		"calls":                b.st.Calls,
		"memory_tokens":        tok,
	}
	for _, k := range slices.Sorted(maps.Keys(b.st.Counters)) {
		meta[k] = b.st.Counters[k]
	}
	maps.Copy(meta, extra)
	return predict.Memory{Text: text, Tokens: tok, Calls: b.st.Calls, Usage: b.st.Usage, Meta: meta}
}

// newID allocates a unit id.
func (b *build) newID() string {
	b.st.NextID++
	return fmt.Sprintf("m%d", b.st.NextID)
}

// unitsOf reads the stored units back from a memory's Meta (after a JSON
// round trip they are generic maps).
func unitsOf(mem predict.Memory) ([]unit, error) {
	raw, ok := mem.Meta["units"]
	if !ok || raw == nil {
		return nil, nil
	}
	if us, ok := raw.([]unit); ok {
		return us, nil
	}
	js, err := json.Marshal(raw)
	if err != nil {
		return nil, fmt.Errorf("memory units: %w", err)
	}
	var us []unit
	if err := json.Unmarshal(js, &us); err != nil {
		return nil, fmt.Errorf("memory units: %w", err)
	}
	return us, nil
}
