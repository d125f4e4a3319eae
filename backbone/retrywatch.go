package backbone

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/memharness/memharness/llm"
)

// RetryWatch follows retries as they happen (not when their call ends), so
// the progress line can say that the run is waiting on a rate limit and
// until when, instead of showing retries=0 for minutes.
type RetryWatch struct {
	// Now is the clock (tests set it).
	Now func() time.Time

	mu      sync.Mutex
	retries int
	status  int       // HTTP status of the latest rate-limit answer
	until   time.Time // end of the latest rate-limit wait
}

func NewRetryWatch() *RetryWatch { return &RetryWatch{Now: time.Now} }

// Observe is an llm.RetryPolicy.OnRetry hook.
func (w *RetryWatch) Observe(ev llm.RetryEvent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.retries++
	if !llm.IsRateLimit(ev.Err) {
		return
	}
	var le *llm.Error
	if errors.As(ev.Err, &le) {
		w.status = le.StatusCode
	}
	if end := w.Now().Add(ev.Wait); end.After(w.until) {
		w.until = end
	}
}

// Describe is the progress line's part: "retries=N" plus, while a
// rate-limit wait lasts, "waiting on 429 until 15:04:05".
func (w *RetryWatch) Describe() string {
	if w == nil {
		return ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	s := fmt.Sprintf(" retrying=%d", w.retries)
	if now := w.Now(); w.until.After(now) {
		s += fmt.Sprintf(" waiting on %d until %s", w.status, w.until.Local().Format("15:04:05"))
	}
	return s
}
