package external

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/memharness/memharness/methods/predict"
)

// PrepareRecords sends user's past as records (in chunks of
// chunk_records), asks the method to build its memory and keeps the state
// it saves in env's checkpoints. PrepareUser calls it with a behaviour
// user's records; a family whose history is of another kind (a
// conversation's turns, docs/PROTOCOL.md "Conversations") calls it with
// records of its own.
func (m *Method) PrepareRecords(ctx context.Context, env predict.Env, user, profile string, recs []Record) (predict.Memory, error) {
	s := m.slotFor(user)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := m.ensure(ctx, s); err != nil {
		return predict.Memory{}, err
	}
	for start := 0; start < len(recs) || start == 0; start += m.opts.ChunkRecords {
		end := min(len(recs), start+m.opts.ChunkRecords)
		p := HistoryParams{User: user, Profile: profile, Total: len(recs), Records: recs[start:end], Last: end == len(recs)}
		sc := m.buildScope(env.Builder(), user, fmt.Sprintf("history/%d", start))
		if err := m.scopedCall(ctx, s, sc, MethodHistory, &p, func(id string) { p.GatewayScope = id }, nil); err != nil {
			return predict.Memory{}, err
		}
		if end == len(recs) {
			break
		}
	}
	var res PrepareResult
	pp := UserParams{User: user}
	if err := m.scopedCall(ctx, s, m.buildScope(env.Builder(), user, MethodPrepare), MethodPrepare, &pp,
		func(id string) { pp.GatewayScope = id }, &res); err != nil {
		return predict.Memory{}, err
	}
	var saved SaveResult
	sp := UserParams{User: user}
	if err := m.scopedCall(ctx, s, m.buildScope(env.Builder(), user, MethodSave), MethodSave, &sp,
		func(id string) { sp.GatewayScope = id }, &saved); err != nil {
		return predict.Memory{}, err
	}
	if len(saved.State) == 0 {
		saved.State = json.RawMessage("null")
	}
	if env.Checkpoints != nil {
		if err := env.Checkpoints.Save(user, m.stateName(), saved.State); err != nil {
			return predict.Memory{}, fmt.Errorf("method %s: keeping the state of user %s: %w", m.name, user, err)
		}
	}
	s.loaded[user] = true
	meta := map[string]any{"records": len(recs)}
	for k, v := range res.Meta {
		meta[k] = v
	}
	mem := predict.Memory{Text: res.Memory, Meta: meta}
	if res.Memory != "" {
		mem.Tokens = env.TokenCounter().Count(res.Memory)
	}
	return mem, nil
}

// Ask sends one predict request to the child serving params.User (after
// handing back the user's saved state where the child does not hold it)
// and returns the method's reply as it came: a window and a memory, a
// prompt of its own, or its own answer. Predict answers a behaviour
// question from it; a family that answers another kind of question (free
// text) reads the reply itself.
func (m *Method) Ask(ctx context.Context, env predict.Env, params PredictParams) (PredictResult, error) {
	return m.ask(ctx, env, params)
}

// A conversation's questions in predict requests (family "conversation",
// protocol 1.1): the target's scene, the question's field, and its kind,
// a free-text answer (allowed is empty).
const (
	FamilyConversation = "conversation"
	QuestionScene      = "question"
	FieldAnswer        = "answer"
	KindText           = "text"
)
