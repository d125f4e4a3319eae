package external

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// service is a method running as an HTTP service: each request is POSTed
// to its URL as one JSON-RPC object and the body of the reply is the
// response.
type service struct {
	method       string
	url          string
	timeout      time.Duration
	startTimeout time.Duration
	client       *http.Client
	nextID       int64
	last         string
	broken       error
}

func newService(method, url string, timeout, startTimeout time.Duration) *service {
	return &service{method: method, url: url, timeout: timeout, startTimeout: startTimeout, client: &http.Client{}}
}

func (s *service) call(ctx context.Context, method string, params, out any) error {
	if err := ctx.Err(); err != nil {
		return err // a stopping run: not the method's failure
	}
	if s.broken != nil {
		return s.broken
	}
	s.nextID++
	id := s.nextID
	b, err := json.Marshal(request{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	if err != nil {
		return fmt.Errorf("method %s: encoding %s: %w", s.method, method, err)
	}
	s.last = summarise(b)
	limit := s.timeout
	if method == MethodInit {
		limit = s.startTimeout
	}
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	req, err := http.NewRequestWithContext(cctx, http.MethodPost, s.url, bytes.NewReader(b))
	if err != nil {
		return s.fail(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if cctx.Err() != nil {
			return s.fail(timeoutError(method, limit))
		}
		return s.fail(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxLine))
	if err != nil {
		return s.fail(fmt.Errorf("reading the reply: %w", err))
	}
	if resp.StatusCode != http.StatusOK {
		return s.fail(fmt.Errorf("HTTP %s: %s", resp.Status, quote(body)))
	}
	r, err := decodeResponse(body, id)
	if err != nil {
		return s.fail(err)
	}
	if r.Error != nil {
		return &MethodError{Method: s.method, Request: s.last, Err: r.Error}
	}
	if err := decodeResult(r.Result, out); err != nil {
		return s.fail(err)
	}
	return nil
}

func (s *service) fail(cause error) error {
	s.broken = &ChildError{Method: s.method, URL: s.url, Request: s.last, Err: cause}
	return s.broken
}

// close sends nothing: a service outlives the run (it may serve others),
// so it is never told to shut down.
func (s *service) close() {}
