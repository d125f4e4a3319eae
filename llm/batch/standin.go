package batch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/memharness/memharness/llm"
)

// StandIn is an in-process batch provider for the embedded backbone: it
// takes the waves a real provider would, answers each line by asking the
// model the original request (the layer hands it over, with the typed hint
// the sim reads) once Delay has passed, and writes the output in the
// provider's format, so the whole batch path runs without a network. Its
// batches live as long as the process: a re-run finds none of them and
// sends their requests again, as after a provider's expiry.
type StandIn struct {
	// Delay is how long a batch takes.
	Delay time.Duration
	// Model answers the requests.
	Model llm.Model
	// Request returns the request behind a custom id (the layer's).
	Request func(id string) (llm.Request, bool)

	mu      sync.Mutex
	seq     int
	files   map[string][]byte
	batches map[string]*standInBatch
}

type standInBatch struct {
	b     Batch
	ready time.Time
}

var _ Provider = (*StandIn)(nil)

func (s *StandIn) next(prefix string) string {
	s.seq++
	return fmt.Sprintf("%s-standin-%d", prefix, s.seq)
}

// Upload keeps the file.
func (s *StandIn) Upload(_ context.Context, _ string, data []byte) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files, s.batches = map[string][]byte{}, map[string]*standInBatch{}
	}
	id := s.next("file")
	s.files[id] = bytes.Clone(data)
	return id, nil
}

// Submit starts a batch that is ready after Delay.
func (s *StandIn) Submit(_ context.Context, fileID, _ string, _ map[string]string) (Batch, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, ok := s.files[fileID]
	if !ok {
		return Batch{}, fmt.Errorf("batch submit: file %s: %w", fileID, ErrNotFound)
	}
	n := bytes.Count(data, []byte("\n"))
	b := &standInBatch{b: Batch{ID: s.next("batch"), Status: "in_progress", InputFileID: fileID,
		Counts: Counts{Total: n}}, ready: time.Now().Add(s.Delay)}
	b.b.ExpiresAt = time.Now().Add(24 * time.Hour)
	s.batches[b.b.ID] = b
	return b.b, nil
}

// Get answers a batch whose delay has passed.
func (s *StandIn) Get(ctx context.Context, id string) (Batch, error) {
	s.mu.Lock()
	b, ok := s.batches[id]
	s.mu.Unlock()
	if !ok {
		return Batch{}, fmt.Errorf("batch poll: %s: %w", id, ErrNotFound)
	}
	if b.b.Status != "in_progress" || time.Now().Before(b.ready) {
		return b.b, nil
	}
	s.mu.Lock()
	input := s.files[b.b.InputFileID]
	s.mu.Unlock()
	var out, errs bytes.Buffer
	done, failed := 0, 0
	for _, raw := range bytes.Split(input, []byte("\n")) {
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		var in InputLine
		if err := json.Unmarshal(raw, &in); err != nil {
			return Batch{}, fmt.Errorf("batch stand-in: input line: %w", err)
		}
		line, ok := s.answer(ctx, in.CustomID)
		if ok {
			done++
			out.Write(line)
			out.WriteByte('\n')
		} else {
			failed++
			errs.Write(line)
			errs.WriteByte('\n')
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b.b.Status = StatusCompleted
	b.b.Counts.Completed, b.b.Counts.Failed = done, failed
	if out.Len() > 0 {
		b.b.OutputFileID = s.next("file")
		s.files[b.b.OutputFileID] = out.Bytes()
	}
	if errs.Len() > 0 {
		b.b.ErrorFileID = s.next("file")
		s.files[b.b.ErrorFileID] = errs.Bytes()
	}
	return b.b, nil
}

// answer is one output line: the model's reply as a chat completion body,
// or the error it gave.
func (s *StandIn) answer(ctx context.Context, id string) ([]byte, bool) {
	req, ok := s.Request(id)
	var resp llm.Response
	err := fmt.Errorf("no request %s in this process", id)
	if ok {
		resp, err = s.Model.Generate(ctx, req)
	}
	if err != nil {
		line, _ := json.Marshal(map[string]any{"custom_id": id, "response": nil,
			"error": map[string]string{"code": "standin_error", "message": err.Error()}})
		return line, false
	}
	line, _ := json.Marshal(map[string]any{"custom_id": id, "error": nil,
		"response": map[string]any{"status_code": 200, "body": CompletionBody(resp)}})
	return line, true
}

// CompletionBody writes a response as a chat completion body that
// llm.DecodeChat reads back to the same text, content, reasoning, model
// and token counts.
func CompletionBody(resp llm.Response) map[string]any {
	content := resp.Reply()
	msg := map[string]any{"role": "assistant", "content": content}
	if _, inline := llm.SplitThink(content); inline == "" && resp.Reasoning != "" {
		msg["reasoning_content"] = resp.Reasoning
	}
	usage := map[string]any{"prompt_tokens": resp.Usage.PromptTokens, "completion_tokens": resp.Usage.CompletionTokens,
		"total_tokens": resp.Usage.PromptTokens + resp.Usage.CompletionTokens}
	if resp.Usage.CachedTokens > 0 {
		usage["prompt_tokens_details"] = map[string]any{"cached_tokens": resp.Usage.CachedTokens}
	}
	return map[string]any{"object": "chat.completion", "model": resp.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop"}}, "usage": usage}
}

// Find finds nothing: the stand-in's batches end with the process.
func (s *StandIn) Find(_ context.Context, fileID string) (Batch, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.batches {
		if b.b.InputFileID == fileID {
			return b.b, true, nil
		}
	}
	return Batch{}, false, nil
}

// Content returns a file.
func (s *StandIn) Content(_ context.Context, fileID string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, ok := s.files[fileID]
	if !ok {
		return nil, fmt.Errorf("batch download: %s: %w", fileID, ErrNotFound)
	}
	return data, nil
}

// Cancel cancels a running batch.
func (s *StandIn) Cancel(_ context.Context, id string) (Batch, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.batches[id]
	if !ok {
		return Batch{}, fmt.Errorf("batch cancel: %s: %w", id, ErrNotFound)
	}
	if !Terminal(b.b.Status) {
		b.b.Status = StatusCancelled
	}
	return b.b, nil
}
