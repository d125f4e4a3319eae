package llm

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrorKind says what part of a call failed.
type ErrorKind int

const (
	// KindTransport is a connection-level failure (refused, reset, EOF).
	KindTransport ErrorKind = iota + 1
	// KindTimeout is a per-attempt deadline or network timeout.
	KindTimeout
	// KindHTTP is a non-2xx answer from the server.
	KindHTTP
	// KindDecode is a 2xx answer whose body could not be understood.
	KindDecode
	// KindRequest is a request the client refused to send (bad parameters).
	KindRequest
	// KindCanceled means the caller's context ended.
	KindCanceled
)

func (k ErrorKind) String() string {
	switch k {
	case KindTransport:
		return "transport"
	case KindTimeout:
		return "timeout"
	case KindHTTP:
		return "http"
	case KindDecode:
		return "decode"
	case KindRequest:
		return "request"
	case KindCanceled:
		return "canceled"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Error is a classified failure of one call to an endpoint. Its message never
// contains the API key: the endpoint is stored without credentials and the
// cause's text is redacted when the error is built.
type Error struct {
	Kind ErrorKind
	// StatusCode is the HTTP status for KindHTTP (0 otherwise).
	StatusCode int
	// Retryable reports whether the same request may succeed later.
	Retryable bool
	// RetryAfter is the server's Retry-After hint (0 when absent).
	RetryAfter time.Duration
	// Endpoint is the base URL without credentials.
	Endpoint string
	msg      string
	cause    error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("llm: ")
	if e.Endpoint != "" {
		b.WriteString(e.Endpoint)
		b.WriteString(": ")
	}
	b.WriteString(e.Kind.String())
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, " %d", e.StatusCode)
	}
	if e.Retryable {
		b.WriteString(" (retryable")
		if e.RetryAfter > 0 {
			fmt.Fprintf(&b, ", retry after %s", e.RetryAfter)
		}
		b.WriteString(")")
	}
	if e.msg != "" {
		b.WriteString(": ")
		b.WriteString(e.msg)
	}
	return b.String()
}

// Unwrap returns the underlying cause (already redacted).
func (e *Error) Unwrap() error { return e.cause }

// IsRetryable reports whether this error may clear on a later attempt.
func (e *Error) IsRetryable() bool { return e.Retryable }

// retryable is implemented by errors that know whether a retry may help.
type retryable interface{ IsRetryable() bool }

// IsRetryable reports whether err (or anything it wraps) is a failure that a
// later attempt may not repeat. Unknown errors are permanent.
func IsRetryable(err error) bool {
	var r retryable
	return errors.As(err, &r) && r.IsRetryable()
}

// RetryAfterOf returns the Retry-After hint carried by err, if any.
func RetryAfterOf(err error) (time.Duration, bool) {
	var e *Error
	if errors.As(err, &e) && e.RetryAfter > 0 {
		return e.RetryAfter, true
	}
	return 0, false
}

// IsRateLimit reports whether err is an overload signal (HTTP 429 or 503)
// that should make the caller send less.
func IsRateLimit(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	return e.Kind == KindHTTP && (e.StatusCode == 429 || e.StatusCode == 503)
}

func redact(s, secret string) string {
	if secret == "" {
		return s
	}
	return strings.ReplaceAll(s, secret, "[REDACTED]")
}

// Redact replaces every occurrence of secret in s; callers use it before
// logging anything that may echo request headers.
func Redact(s, secret string) string { return redact(s, secret) }
