package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// ErrEndpointDown marks a call refused because its endpoint has failed at
// the connection level too many times in a row (see WithBreaker). A run that
// sees it stops: every further call would fail the same way.
var ErrEndpointDown error = runStop("endpoint down")

// DefaultBreakAfter is how many consecutive connection-level failures of one
// endpoint trip its breaker.
const DefaultBreakAfter = 8

// EndpointDownError says which endpoint is down and why.
type EndpointDownError struct {
	Endpoint string
	Failures int
	Cause    error
}

func (e *EndpointDownError) Error() string {
	return fmt.Sprintf("llm: %s: endpoint down after %d consecutive connection failures: %v", e.Endpoint, e.Failures, e.Cause)
}

// Is makes errors.Is(err, ErrEndpointDown) and errors.Is(err, ErrStopRun)
// hold.
func (e *EndpointDownError) Is(target error) bool {
	return target == ErrEndpointDown || target == ErrStopRun
}

func (e *EndpointDownError) Unwrap() error { return e.Cause }

// IsRetryable is false: the cause was retryable, the endpoint is not.
func (e *EndpointDownError) IsRetryable() bool { return false }

// WithBreaker wraps one endpoint's model. After `after` consecutive
// connection-level failures (refused, reset, timed out; not HTTP errors,
// which prove the server is there) it fails every later call at once with a
// non-retryable *EndpointDownError, so retries do not spend minutes on a
// server that is gone. A success resets the count.
func WithBreaker(m Model, endpoint string, after int) Model {
	if after <= 0 {
		after = DefaultBreakAfter
	}
	return &breaker{next: m, endpoint: endpoint, after: after}
}

type breaker struct {
	next     Model
	endpoint string
	after    int

	mu       sync.Mutex
	failures int
	tripped  *EndpointDownError
}

func (b *breaker) Generate(ctx context.Context, req Request) (Response, error) {
	b.mu.Lock()
	tripped := b.tripped
	b.mu.Unlock()
	if tripped != nil {
		return Response{Endpoint: b.endpoint}, tripped
	}
	resp, err := b.next.Generate(ctx, req)
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case err == nil:
		b.failures = 0
	case connectionFailure(err) && ctx.Err() == nil:
		b.failures++
		if b.failures >= b.after && b.tripped == nil {
			b.tripped = &EndpointDownError{Endpoint: b.endpoint, Failures: b.failures, Cause: err}
		}
		if b.tripped != nil {
			return resp, b.tripped
		}
	}
	return resp, err
}

// connectionFailure reports whether err means the server was not reached.
func connectionFailure(err error) bool {
	var e *Error
	return errors.As(err, &e) && (e.Kind == KindTransport || e.Kind == KindTimeout)
}

// ProbeResult is what a pre-flight check learnt about one endpoint.
type ProbeResult struct {
	Endpoint string
	// Models lists what the server says it serves (nil when it does not say).
	Models []string
	// Warning is set when the check passed with a doubt (e.g. the model is
	// not among the listed ones, or the server has no model list).
	Warning string
}

// Probe checks one endpoint before a run spends anything on it: a GET of
// base/models, which every OpenAI-compatible server answers cheaply. A server
// that cannot be reached, or that rejects the key, is an error naming the
// endpoint and the cause; a server without a model list passes with a
// warning. Transient failures (HTTP 5xx, a refused or reset connection, an
// attempt that timed out) are retried, like any call, for a few seconds
// (probeRetryWindow) within timeout; the error then gives the last cause
// and how many attempts failed. The key is sent but never appears in the result or error.
func Probe(ctx context.Context, hc *http.Client, baseURL, apiKey, model string, timeout time.Duration) (ProbeResult, error) {
	return probe(ctx, hc, baseURL, apiKey, model, timeout, defaultProbeBackoff, probeRetryWindow)
}

// defaultProbeBackoff is the first wait between pre-flight attempts; it
// doubles after each (0.25, 0.5, 1, 2 s).
const defaultProbeBackoff = 250 * time.Millisecond

// probeRetryWindow bounds how long transient failures are retried: a server
// that is not back within a few seconds fails the check with its cause
// rather than holding the run's start.
const probeRetryWindow = 5 * time.Second

// probeOutcome is one attempt: a final result or error, or a transient
// failure worth another attempt.
type probeOutcome struct {
	res       ProbeResult
	err       error
	transient bool
}

func probe(ctx context.Context, hc *http.Client, baseURL, apiKey, model string, timeout, backoff, window time.Duration) (ProbeResult, error) {
	if hc == nil {
		hc = http.DefaultClient
	}
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	deadline, _ := ctx.Deadline()
	retryUntil := time.Now().Add(min(timeout, window))
	for attempt := 1; ; attempt++ {
		// An attempt gets half the retry window (at least a second), so
		// one that hangs leaves time for another.
		actx, acancel := context.WithTimeout(ctx, max(window/2, time.Second))
		o := probeOnce(actx, hc, baseURL, apiKey, model)
		acancel()
		if !o.transient {
			return o.res, o.err
		}
		wait := backoff << (attempt - 1)
		if ctx.Err() != nil || time.Until(retryUntil) < wait {
			return o.res, fmt.Errorf("%w (%d attempts over %s)", o.err, attempt, time.Since(deadline.Add(-timeout)).Round(time.Millisecond))
		}
		select {
		case <-ctx.Done():
			return o.res, fmt.Errorf("%w (%d attempts over %s)", o.err, attempt, time.Since(deadline.Add(-timeout)).Round(time.Millisecond))
		case <-time.After(wait):
		}
	}
}

// probeOnce is one GET of base/models.
func probeOnce(ctx context.Context, hc *http.Client, baseURL, apiKey, model string) probeOutcome {
	res := ProbeResult{Endpoint: SanitizeURL(baseURL)}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(baseURL, "/")+"/models", nil)
	if err != nil {
		return probeOutcome{res: res, err: fmt.Errorf("endpoint %s: %s", res.Endpoint, redact(err.Error(), apiKey))}
	}
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return probeOutcome{res: res, transient: true,
			err: fmt.Errorf("endpoint %s is unreachable: %s", res.Endpoint, redact(err.Error(), apiKey))}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return probeOutcome{res: res, err: fmt.Errorf("endpoint %s rejected the API key (HTTP %d; set OPENAI_API_KEY)", res.Endpoint, resp.StatusCode)}
	case resp.StatusCode >= 500:
		return probeOutcome{res: res, transient: true,
			err: fmt.Errorf("endpoint %s answers HTTP %d to GET /models: %s", res.Endpoint, resp.StatusCode, Shorten(redact(string(body), apiKey), 200))}
	case resp.StatusCode != http.StatusOK:
		res.Warning = fmt.Sprintf("endpoint %s has no model list (HTTP %d to GET /models); it is reachable, going on", res.Endpoint, resp.StatusCode)
		return probeOutcome{res: res}
	case err != nil:
		return probeOutcome{res: res, transient: true,
			err: fmt.Errorf("endpoint %s: reading its answer to GET /models: %s", res.Endpoint, redact(err.Error(), apiKey))}
	}
	return probeOutcome{res: modelList(res, body, model)}
}

// modelList reads a GET /models answer into res.
func modelList(res ProbeResult, body []byte, model string) ProbeResult {
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if json.Unmarshal(body, &list) != nil {
		res.Warning = fmt.Sprintf("endpoint %s answered GET /models with something other than a model list; it is reachable, going on", res.Endpoint)
		return res
	}
	for _, d := range list.Data {
		res.Models = append(res.Models, d.ID)
	}
	if model != "" && len(res.Models) > 0 && !slices.Contains(res.Models, model) {
		res.Warning = fmt.Sprintf("endpoint %s does not list model %q (it lists %s)", res.Endpoint, model, Shorten(strings.Join(res.Models, ", "), 200))
	}
	return res
}
