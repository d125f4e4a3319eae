package scienceworld

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// maxBody bounds a reply; ScienceWorld observations are a few KiB.
const maxBody = 8 << 20

// ServerError is an AgentGym failure reported as an HTTP 200 body with an
// "error" key.
type ServerError struct {
	Route   string
	Message string
}

func (e *ServerError) Error() string { return fmt.Sprintf("%s: server error: %s", e.Route, e.Message) }

// HTTPError is a reply with a non-2xx status (after retries for 503).
type HTTPError struct {
	Route  string
	Status int
	Body   string // first bytes, for the log
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("%s: HTTP %d: %s", e.Route, e.Status, e.Body)
}

// ErrMalformed is wrapped when a reply is not the JSON the protocol promises.
var ErrMalformed = errors.New("malformed reply")

// client sends AgentGym requests with timeouts and bounded retries.
type client struct {
	base    *url.URL
	http    *http.Client
	timeout time.Duration
	retries int
	backoff time.Duration
}

func newClient(c Config) (*client, error) {
	u, err := url.Parse(strings.TrimRight(c.BaseURL, "/"))
	if err != nil {
		return nil, fmt.Errorf("agentgym: base URL: %w", err)
	}
	return &client{base: u, http: c.HTTPClient, timeout: c.Timeout, retries: c.Retries, backoff: c.Backoff}, nil
}

// call sends one request and returns the reply body, checked to be JSON
// without an "error" key. safe marks requests that may be repeated after a
// transport failure (the server may have applied a step before the
// connection broke, so steps are retried only when nothing was sent).
func (c *client) call(ctx context.Context, method, route string, query url.Values, body any, safe bool) (json.RawMessage, error) {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return nil, fmt.Errorf("%s: encode request: %w", route, err)
		}
	}
	u := *c.base
	u.Path = strings.TrimRight(u.Path, "/") + route
	u.RawQuery = query.Encode()
	wait := c.backoff
	for attempt := 0; ; attempt++ {
		raw, retry, err := c.once(ctx, method, u.String(), route, payload, safe)
		if err == nil {
			return raw, nil
		}
		if !retry || attempt >= c.retries || ctx.Err() != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("%s: %w", route, ctx.Err())
			}
			if retry {
				return nil, fmt.Errorf("%s: giving up after %d attempts: %w", route, attempt+1, err)
			}
			return nil, err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("%s: %w", route, ctx.Err())
		case <-t.C:
		}
		wait = min(2*wait, maxBackoff)
	}
}

// once makes one attempt; retry says whether another may follow.
func (c *client) once(ctx context.Context, method, u, route string, payload []byte, safe bool) (json.RawMessage, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, false, fmt.Errorf("%s: build request: %w", route, err)
	}
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		timedOut := errors.Is(err, context.DeadlineExceeded)
		retry := notSent(err) || (safe && !timedOut)
		if timedOut {
			return nil, false, fmt.Errorf("%s: no reply within %v: %w", route, c.timeout, err)
		}
		return nil, retry, fmt.Errorf("%s: %w", route, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, safe, fmt.Errorf("%s: read reply: %w", route, err)
	}
	if len(data) > maxBody {
		return nil, false, fmt.Errorf("%s: reply over %d bytes: %w", route, maxBody, ErrMalformed)
	}
	if resp.StatusCode == http.StatusServiceUnavailable {
		return nil, true, &HTTPError{Route: route, Status: resp.StatusCode, Body: snippet(data)}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, false, &HTTPError{Route: route, Status: resp.StatusCode, Body: snippet(data)}
	}
	if !json.Valid(data) {
		return nil, false, fmt.Errorf("%s: %w: not JSON: %s", route, ErrMalformed, snippet(data))
	}
	if msg, ok := errorKey(data); ok {
		return nil, false, &ServerError{Route: route, Message: msg}
	}
	return data, false, nil
}

// notSent reports transport errors raised before the request left: the
// server cannot have acted on it, so any request may be retried.
func notSent(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

// errorKey finds AgentGym's {"error": ...} reply.
func errorKey(data []byte) (string, bool) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return "", false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return "", false
	}
	raw, ok := m["error"]
	if !ok || string(raw) == "null" {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	return string(raw), true
}

func snippet(b []byte) string {
	const n = 200
	s := strings.ToValidUTF8(string(b), "?")
	if len(s) > n {
		s = strings.ToValidUTF8(s[:n], "") + "…"
	}
	return strings.TrimSpace(s)
}
