// Package batch sends the calls of chosen purposes through a provider's
// batch API (OpenAI's Files and Batches, Together's in the same format, an
// in-process stand-in on the sim, or files run offline with vLLM's
// run-batch) instead of live, at the provider's batch price.
//
// A Layer sits in the model stack where the live client would be: a call
// whose purpose is batched parks until a wave is flushed (the wave size is
// reached, or no call has parked for the linger time: every worker waits on
// a parked call), the wave is written as one JSONL file whose lines carry
// the exact body a live call sends, uploaded, submitted and polled, and each
// reply goes back to its caller by custom_id through the same cache, call
// record and meter as a live reply. Every step is journaled in the run
// directory before it is taken further, so a killed run re-attaches to its
// batches instead of paying again.
package batch

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Terminal batch statuses, as OpenAI names them.
const (
	StatusCompleted = "completed"
	StatusFailed    = "failed"
	StatusExpired   = "expired"
	StatusCancelled = "cancelled"
)

// Terminal reports whether a batch in status s will change no more.
func Terminal(s string) bool {
	switch s {
	case StatusCompleted, StatusFailed, StatusExpired, StatusCancelled:
		return true
	}
	return false
}

// Counts are a batch's request counts.
type Counts struct {
	Total     int `json:"total"`
	Completed int `json:"completed"`
	Failed    int `json:"failed"`
}

// Batch is a provider's view of one submitted batch.
type Batch struct {
	ID           string
	Status       string
	InputFileID  string
	OutputFileID string
	ErrorFileID  string
	Counts       Counts
	// ExpiresAt is the provider's deadline (zero: not said).
	ExpiresAt time.Time
	// Errors is what the provider said of a failed batch.
	Errors string
}

// Provider is a batch API.
type Provider interface {
	// Upload stores one wave's input file and returns its file id.
	Upload(ctx context.Context, name string, data []byte) (string, error)
	// Submit starts a batch over an uploaded file.
	Submit(ctx context.Context, fileID, window string, meta map[string]string) (Batch, error)
	// Get reads a batch's state; ErrNotFound when the provider has none.
	Get(ctx context.Context, id string) (Batch, error)
	// Find returns a batch already submitted over fileID (a run killed
	// after submitting, before it journaled the batch id); ok false if none.
	Find(ctx context.Context, fileID string) (b Batch, ok bool, err error)
	// Content downloads a file (a batch's output or error file).
	Content(ctx context.Context, fileID string) ([]byte, error)
	// Cancel asks the provider to stop a batch.
	Cancel(ctx context.Context, id string) (Batch, error)
}

// ErrNotFound is a provider saying it holds no such batch or file.
var ErrNotFound = errors.New("not found at the provider")

// HTTPError is a provider's refusal, with its Retry-After when it sent one.
type HTTPError struct {
	Op         string
	Status     int
	Body       string
	RetryAfter time.Duration
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("batch %s: HTTP %d: %s", e.Op, e.Status, e.Body)
}

// Temporary is true for a refusal worth trying again (rate limit, overload,
// a server error).
func (e *HTTPError) Temporary() bool {
	return e.Status == 429 || e.Status == 408 || e.Status >= 500
}
