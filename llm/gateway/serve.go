package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/memharness/memharness/llm"
)

// apiError is an OpenAI-style error reply.
type apiError struct {
	status     int
	kind       string // the error object's "type"
	code       string
	param      string
	message    string
	retryAfter time.Duration
}

func badRequest(param, format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, kind: "invalid_request_error", param: param, message: fmt.Sprintf(format, args...)}
}

func conflict(msg string) *apiError {
	return &apiError{status: http.StatusConflict, kind: "invalid_request_error", code: "no_harness_call", message: msg}
}

func (e *apiError) write(w http.ResponseWriter) {
	body := map[string]any{"message": e.message, "type": e.kind, "param": nil, "code": nil}
	if e.param != "" {
		body["param"] = e.param
	}
	if e.code != "" {
		body["code"] = e.code
	}
	// The model stack has done the retrying a call deserves; the openai
	// clients (and others built the same way) read this header and do not
	// multiply the calls by retrying on their own.
	w.Header().Set("X-Should-Retry", "false")
	if e.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(e.retryAfter.Round(time.Second)/time.Second))))
	}
	writeJSON(w, e.status, map[string]any{"error": body})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":{"message":"gateway: encoding the reply failed","type":"server_error","param":null,"code":null}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// modelError turns a failure of the model stack into the status an OpenAI
// client reads correctly: 429 for an overloaded endpoint and for a
// spending ceiling (the run stops; the client should not retry at once),
// 504 for a timeout, 503 when the run or the gateway is stopping, 502 for
// the rest. The message is the stack's, which never holds the API key.
func modelError(err error) *apiError {
	e := &apiError{status: http.StatusBadGateway, kind: "api_error", code: "backbone_error", message: err.Error()}
	var le *llm.Error
	switch {
	case errors.Is(err, llm.ErrStopRun):
		e.status, e.kind, e.code = http.StatusTooManyRequests, "insufficient_quota", "run_stopped"
	case llm.IsRateLimit(err):
		e.status, e.kind, e.code = http.StatusTooManyRequests, "rate_limit_error", "rate_limit_exceeded"
		if d, ok := llm.RetryAfterOf(err); ok {
			e.retryAfter = d
		}
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &le) && le.Kind == llm.KindTimeout:
		e.status, e.code = http.StatusGatewayTimeout, "timeout"
	case errors.Is(err, context.Canceled):
		e.status, e.kind, e.code = http.StatusServiceUnavailable, "server_error", "canceled"
	}
	return e
}

func (g *Gateway) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", g.guard(g.chat))
	mux.HandleFunc("POST /v1/embeddings", g.guard(g.embeddings))
	mux.HandleFunc("GET /v1/models", g.guard(g.models))
	mux.HandleFunc("GET /v1/models/{id}", g.guard(g.model))
	mux.HandleFunc("/", g.guard(func(w http.ResponseWriter, r *http.Request) {
		(&apiError{status: http.StatusNotFound, kind: "invalid_request_error", code: "unknown_url",
			message: fmt.Sprintf("%s %s is not served: the gateway serves POST /v1/chat/completions, POST /v1/embeddings and GET /v1/models", r.Method, r.URL.Path)}).write(w)
	}))
	return mux
}

// guard refuses a request without the token before anything else reads
// it, and bounds the body.
func (g *Gateway) guard(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !g.authorized(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="memharness"`)
			(&apiError{status: http.StatusUnauthorized, kind: "authentication_error", code: "invalid_api_key",
				message: "missing or wrong bearer token: use the OPENAI_API_KEY the harness gave this process"}).write(w)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, g.opts.MaxBodyBytes)
		h(w, r)
	}
}

// readBody reads a JSON object's fields, keeping each value raw.
func readBody(r *http.Request) (map[string]json.RawMessage, *apiError) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, &apiError{status: http.StatusRequestEntityTooLarge, kind: "invalid_request_error", code: "body_too_large",
				message: fmt.Sprintf("request body is over the gateway's limit of %d bytes", tooBig.Limit)}
		}
		return nil, badRequest("", "reading the request body: %v", err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, badRequest("", "the request body is not a JSON object: %v", err)
	}
	if fields == nil {
		return nil, badRequest("", "the request body is not a JSON object: null")
	}
	return fields, nil
}

// callContext is the context a request's model call runs under: the
// scope's (its values carry the call log and the retry budget; its end
// cancels the call), also ended by the client going away and by the
// gateway's call timeout.
func (g *Gateway) callContext(r *http.Request, b *bound) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(b.ctx, g.opts.CallTimeout)
	stop := context.AfterFunc(r.Context(), cancel)
	return ctx, func() { stop(); cancel() }
}

func (g *Gateway) models(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{
		modelObject(g.opts.ModelName), modelObject(g.opts.EmbeddingModelName),
	}})
}

func (g *Gateway) model(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if id != g.opts.ModelName && id != g.opts.EmbeddingModelName {
		(&apiError{status: http.StatusNotFound, kind: "invalid_request_error", code: "model_not_found", param: "model",
			message: fmt.Sprintf("model %q is not listed: the gateway serves %q and %q (any model named in a request is answered by the run's backbone)",
				id, g.opts.ModelName, g.opts.EmbeddingModelName)}).write(w)
		return
	}
	writeJSON(w, http.StatusOK, modelObject(id))
}

func modelObject(id string) map[string]any {
	return map[string]any{"id": id, "object": "model", "created": 0, "owned_by": "memharness"}
}
