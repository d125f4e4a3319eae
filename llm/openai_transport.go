package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// attempt carries per-call data between OpenAI.Generate and captureDoer,
// which go-openai calls with the request's context.
type attempt struct {
	patch     []byte // extra top-level JSON fields to splice into the body
	status    int
	header    http.Header
	body      []byte
	transport bool // the failure happened below HTTP
	maxBody   int64
	oversize  bool // a 2xx body exceeded maxBody and was not read further
	// usageBad says why the reply's token counts were not believed (see
	// checkUsage); "" when they were.
	usageBad string
}

type attemptKey struct{}

// captureDoer is the go-openai HTTPDoer seam: it splices extra body fields
// into the request and records status, headers and body of the response so
// errors can be classified and Retry-After honoured.
type captureDoer struct{ next *http.Client }

func (d captureDoer) Do(r *http.Request) (*http.Response, error) {
	at, _ := r.Context().Value(attemptKey{}).(*attempt)
	if at == nil {
		return d.next.Do(r)
	}
	if r.Body != nil {
		if err := splice(r, at.patch); err != nil {
			return nil, err
		}
	}
	resp, err := d.next.Do(r)
	if err != nil {
		at.transport = true
		return nil, err
	}
	at.status = resp.StatusCode
	at.header = resp.Header
	r2 := io.Reader(resp.Body)
	if at.maxBody > 0 {
		r2 = io.LimitReader(resp.Body, at.maxBody+1)
	}
	body, err := io.ReadAll(r2)
	resp.Body.Close()
	if err != nil {
		at.transport = true
		return nil, fmt.Errorf("reading response body: %w", err)
	}
	if at.maxBody > 0 && int64(len(body)) > at.maxBody {
		if resp.StatusCode/100 == 2 {
			at.oversize = true
			return nil, fmt.Errorf("response body exceeds %d bytes", at.maxBody)
		}
		body = body[:at.maxBody] // an error page: keep its head for the message
	}
	at.body = body
	if resp.StatusCode/100 == 2 {
		body, at.usageBad = checkUsage(body)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// streamOff is what go-openai always writes for a non-streaming request;
// the harness never streams, and a server should see no stream field at
// all, as the papers' Python clients send none.
var streamOff = []byte(`,"stream":false`)

// spliceBody drops the stream field from a JSON object body and inserts
// patch before its closing brace: the bytes an endpoint receives.
func spliceBody(body, patch []byte) ([]byte, error) {
	if i := bytes.Index(body, streamOff); i >= 0 {
		body = append(body[:i:i], body[i+len(streamOff):]...)
	}
	if len(patch) == 0 {
		return body, nil
	}
	end := bytes.LastIndexByte(body, '}')
	if end < 1 {
		return nil, fmt.Errorf("request body is not a JSON object")
	}
	out := make([]byte, 0, len(body)+len(patch)+1)
	out = append(out, body[:end]...)
	if head := bytes.TrimSpace(body[:end]); head[len(head)-1] != '{' {
		out = append(out, ',')
	}
	out = append(out, patch...)
	out = append(out, body[end:]...)
	return out, nil
}

// splice drops the stream field and inserts patch before the closing brace
// of the JSON object body. Inside JSON strings a quote is escaped, so the
// unescaped streamOff can only be the top-level field.
func splice(r *http.Request, patch []byte) error {
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		return fmt.Errorf("reading request body: %w", err)
	}
	out, err := spliceBody(body, patch)
	if err != nil {
		return err
	}
	r.Body = io.NopCloser(bytes.NewReader(out))
	r.ContentLength = int64(len(out))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(out)), nil }
	return nil
}

// classify turns a failed attempt into an *Error. parent is the caller's
// context: if it ended, the failure is a cancellation, not a timeout.
func (o *OpenAI) classify(parent context.Context, err error, at *attempt) *Error {
	e := &Error{
		Endpoint: o.endpoint,
		msg:      Shorten(redact(err.Error(), o.key), 400),
		cause:    scrub(err, o.key),
	}
	if at.header != nil {
		e.RetryAfter = parseRetryAfter(at.header, time.Now())
	}
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	var netErr net.Error
	status := at.status
	switch {
	case errors.As(err, &apiErr) && apiErr.HTTPStatusCode != 0:
		status = apiErr.HTTPStatusCode
	case errors.As(err, &reqErr) && reqErr.HTTPStatusCode != 0:
		status = reqErr.HTTPStatusCode
	}
	switch {
	case parent.Err() != nil:
		e.Kind = KindCanceled
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()):
		e.Kind, e.Retryable = KindTimeout, true
	case status >= 300:
		e.Kind, e.StatusCode, e.Retryable = KindHTTP, status, retryableStatus(status)
	case at.transport:
		e.Kind, e.Retryable = KindTransport, true
	case status >= 200:
		// A 2xx whose body go-openai could not decode: truncated or garbled.
		e.Kind, e.Retryable = KindDecode, true
	default:
		// go-openai refused the request before sending it.
		e.Kind = KindRequest
	}
	return e
}

// retryableStatus lists statuses where the same request may succeed later.
func retryableStatus(code int) bool {
	switch code {
	case http.StatusRequestTimeout, http.StatusTooEarly, http.StatusTooManyRequests:
		return true
	case http.StatusNotImplemented, http.StatusHTTPVersionNotSupported:
		return false
	}
	return code >= 500
}

// parseRetryAfter reads Retry-After (delta seconds or HTTP date) and the
// non-standard retry-after-ms; it returns 0 when absent or in the past.
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// scrub returns err with the secret removed from its text and from every
// error it wraps, so that printing any link of the chain is safe. Servers
// sometimes echo the key in error bodies ("Incorrect API key provided: ...").
func scrub(err error, secret string) error {
	if err == nil || secret == "" || !strings.Contains(err.Error(), secret) {
		return err
	}
	var out error
	switch e := err.(type) {
	case *openai.APIError:
		c := *e
		c.Message = redact(c.Message, secret)
		if c.Param != nil {
			p := redact(*c.Param, secret)
			c.Param = &p
		}
		out = &c
	case *openai.RequestError:
		c := *e
		c.Body = []byte(redact(string(c.Body), secret))
		c.Err = scrub(c.Err, secret)
		out = &c
	}
	if out == nil || strings.Contains(out.Error(), secret) {
		// Unknown shape: keep the text, drop the chain.
		return errors.New(redact(err.Error(), secret))
	}
	return out
}
