package gateway

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/memharness/memharness/llm"
)

// passThrough are request fields that change the answer and that llm.Params
// has no field for: they travel to the endpoint as they came (Params.Extra,
// which the cache key covers).
var passThrough = []string{"response_format", "frequency_penalty", "presence_penalty", "logit_bias"}

// ignored are request fields that do not change the answer (bookkeeping of
// the client's own); they are dropped.
var ignored = []string{"model", "user", "store", "metadata", "service_tier", "parallel_tool_calls"}

// chatRequest is an OpenAI chat completion body read into an llm request.
type chatRequest struct {
	req           llm.Request
	stream, usage bool // stream: true; stream_options.include_usage
}

// decodeChat reads a chat completion body. Fields the harness's model path
// cannot carry are refused by name rather than dropped, so a method never
// runs on a request other than the one it sent.
func decodeChat(fields map[string]json.RawMessage) (chatRequest, *apiError) {
	var out chatRequest
	p := &out.req.Params
	for name, raw := range fields {
		isNull := bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
		var err error
		switch {
		case name == "messages":
			out.req.Messages, err = decodeMessages(raw)
		case isNull:
			// An explicit null is the field left out (the OpenAI client
			// sends some that way).
		case name == "temperature":
			p.Temperature = new(float64)
			err = json.Unmarshal(raw, p.Temperature)
		case name == "top_p":
			p.TopP = new(float64)
			err = json.Unmarshal(raw, p.TopP)
		case name == "max_tokens", name == "max_completion_tokens":
			var n int
			if err = json.Unmarshal(raw, &n); err == nil {
				if n <= 0 {
					return out, badRequest(name, "%s must be a positive integer, got %d", name, n)
				}
				if p.MaxTokens != 0 && p.MaxTokens != n {
					return out, badRequest(name, "max_tokens and max_completion_tokens differ (%d and %d): send one", p.MaxTokens, n)
				}
				p.MaxTokens = n
			}
		case name == "seed":
			p.Seed = new(int)
			err = json.Unmarshal(raw, p.Seed)
		case name == "stop":
			p.Stop, err = decodeStop(raw)
		case name == "reasoning_effort":
			err = json.Unmarshal(raw, &p.ReasoningEffort)
		case name == "n":
			var n int
			if err = json.Unmarshal(raw, &n); err == nil && n != 1 {
				return out, badRequest("n", "n=%d: the gateway answers one choice per request (n=1); send n separate requests, each is metered and cached as its own draw", n)
			}
		case name == "stream":
			err = json.Unmarshal(raw, &out.stream)
		case name == "stream_options":
			var so struct {
				IncludeUsage bool `json:"include_usage"`
			}
			err = json.Unmarshal(raw, &so)
			out.usage = so.IncludeUsage
		case name == "tools", name == "functions":
			var list []json.RawMessage
			if err = json.Unmarshal(raw, &list); err == nil && len(list) > 0 {
				return out, badRequest(name, "%s: the harness's model path carries text only, not tool definitions or tool calls; describe the tools in the prompt and parse the reply", name)
			}
		case name == "tool_choice", name == "function_call":
			var s string
			if json.Unmarshal(raw, &s) != nil || (s != "none" && s != "auto") {
				return out, badRequest(name, "%s %s: tool calling is not supported by the gateway (only \"none\" or \"auto\" without tools)", name, raw)
			}
		case name == "logprobs":
			var on bool
			if err = json.Unmarshal(raw, &on); err == nil && on {
				return out, badRequest(name, "logprobs: the harness's model path does not return log probabilities")
			}
		case name == "top_logprobs":
			return out, badRequest(name, "top_logprobs: the harness's model path does not return log probabilities")
		case slices.Contains(passThrough, name):
			var v any
			if err = json.Unmarshal(raw, &v); err == nil {
				if p.Extra == nil {
					p.Extra = map[string]any{}
				}
				p.Extra[name] = v
			}
		case slices.Contains(ignored, name):
		default:
			return out, badRequest(name, "unknown field %q: the gateway refuses what it cannot pass on (it passes messages, temperature, top_p, max_tokens, max_completion_tokens, stop, seed, reasoning_effort, %s)",
				name, strings.Join(passThrough, ", "))
		}
		if err != nil {
			return out, badRequest(name, "%s: %v", name, err)
		}
	}
	if len(out.req.Messages) == 0 {
		return out, badRequest("messages", "messages: at least one message is required")
	}
	return out, nil
}

func decodeMessages(raw json.RawMessage) ([]llm.Message, error) {
	var in []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		Name       string          `json:"name"`
		ToolCalls  json.RawMessage `json:"tool_calls"`
		ToolCallID string          `json:"tool_call_id"`
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	out := make([]llm.Message, len(in))
	for i, m := range in {
		switch m.Role {
		case "system", "developer", "user", "assistant":
		case "tool", "function":
			return nil, fmt.Errorf("[%d]: role %q: tool results are not supported (the model path carries text turns only)", i, m.Role)
		default:
			return nil, fmt.Errorf("[%d]: role %q: want system, developer, user or assistant", i, m.Role)
		}
		if m.Name != "" {
			return nil, fmt.Errorf("[%d]: name %q: participant names are not carried by the model path; put the name in the content", i, m.Name)
		}
		if tc := bytes.TrimSpace(m.ToolCalls); len(tc) > 0 && !bytes.Equal(tc, []byte("null")) && !bytes.Equal(tc, []byte("[]")) {
			return nil, fmt.Errorf("[%d]: tool_calls are not supported", i)
		}
		text, err := decodeContent(m.Content)
		if err != nil {
			return nil, fmt.Errorf("[%d].content: %w", i, err)
		}
		out[i] = llm.Message{Role: m.Role, Content: text}
	}
	return out, nil
}

// decodeContent reads a message's content: a string, null (an assistant
// turn without text), or a list of text parts, joined with newlines as
// OpenAI-compatible servers do.
func decodeContent(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("want a string or a list of text parts: %w", err)
	}
	texts := make([]string, len(parts))
	for i, part := range parts {
		if part.Type != "text" {
			return "", fmt.Errorf("part %d has type %q: only text parts are supported", i, part.Type)
		}
		texts[i] = part.Text
	}
	return strings.Join(texts, "\n"), nil
}

func decodeStop(raw json.RawMessage) ([]string, error) {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("want a string or a list of strings")
	}
	return list, nil
}

// purpose is the purpose of a call: the one the child named, under the
// method's name, else the scope's.
func (g *Gateway) purpose(r *http.Request, b *bound) (string, *apiError) {
	if name := r.Header.Get(PurposeHeader); name != "" {
		if !validName(name) {
			return "", badRequest("", "%s %q: want 1-64 characters of letters, digits, '.', '_' or '-'", PurposeHeader, name)
		}
		return g.opts.Method + "." + name, nil
	}
	if b.Purpose != "" {
		return b.Purpose, nil
	}
	return g.opts.Method, nil
}

// draw numbers identical requests within a scope (see bound.draws).
func (b *bound) draw(req llm.Request) int {
	h := sha256.New()
	json.NewEncoder(h).Encode(struct {
		P string
		M []llm.Message
		S llm.Params
	}{req.Purpose, req.Messages, req.Params})
	key := hex.EncodeToString(h.Sum(nil))
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.draws[key]
	b.draws[key] = n + 1
	return n
}

func (g *Gateway) chat(w http.ResponseWriter, r *http.Request) {
	fields, aerr := readBody(r)
	if aerr != nil {
		aerr.write(w)
		return
	}
	cr, aerr := decodeChat(fields)
	if aerr != nil {
		aerr.write(w)
		return
	}
	b, done, aerr := g.scopeFor(r)
	if aerr != nil {
		aerr.write(w)
		return
	}
	defer done()
	req := cr.req
	if req.Purpose, aerr = g.purpose(r, b); aerr != nil {
		aerr.write(w)
		return
	}
	req.SampleID, req.Unit, req.Affinity = b.SampleID, b.Unit, b.Affinity
	req.Attempt = b.draw(req)
	model := g.opts.Model
	if b.Model != nil {
		model = b.Model
	}
	ctx, cancel := g.callContext(r, b)
	defer cancel()
	resp, err := model.Generate(ctx, req)
	if err != nil {
		b.fail(err)
		modelError(err).write(w)
		return
	}
	id := "chatcmpl-" + mustHex(12)
	name := resp.Model
	if name == "" {
		name = g.opts.ModelName
	}
	created := time.Now().Unix()
	usage := map[string]any{
		"prompt_tokens":     resp.Usage.PromptTokens,
		"completion_tokens": resp.Usage.CompletionTokens,
		"total_tokens":      resp.Usage.PromptTokens + resp.Usage.CompletionTokens,
	}
	// The content as the endpoint sent it (a reasoning block included),
	// which is what the child's own code would have read from it.
	message := map[string]any{"role": "assistant", "content": resp.Reply()}
	if resp.Reasoning != "" && !strings.Contains(resp.Reply(), resp.Reasoning) {
		message["reasoning_content"] = resp.Reasoning
	}
	if cr.stream {
		g.stream(w, id, name, created, message, usage, cr.usage)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": id, "object": "chat.completion", "created": created, "model": name,
		"choices": []any{map[string]any{"index": 0, "message": message, "finish_reason": "stop", "logprobs": nil}},
		"usage":   usage,
	})
}

// stream writes a finished answer as a server-sent event stream: the whole
// content in one delta, the finish reason, the usage when asked for, and
// the end marker. The model path answers whole, so nothing arrives sooner
// than without streaming, but a client that only streams works unchanged.
func (g *Gateway) stream(w http.ResponseWriter, id, model string, created int64, message, usage map[string]any, withUsage bool) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	chunk := func(choices []any, u any) {
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model, "choices": choices}
		if withUsage {
			c["usage"] = u
		}
		b, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	chunk([]any{map[string]any{"index": 0, "delta": message, "finish_reason": nil}}, nil)
	chunk([]any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": "stop"}}, nil)
	if withUsage {
		chunk([]any{}, usage)
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func mustHex(n int) string {
	s, err := randomHex(n)
	if err != nil {
		panic(fmt.Sprintf("gateway: random id: %v", err))
	}
	return s
}
