package bench

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/memharness/memharness/llm"
)

// retryWatch follows retries as they happen (not when their call ends), so
// the progress line can say that the run is waiting on a rate limit and
// until when, instead of showing retries=0 for minutes.
type retryWatch struct {
	now func() time.Time

	mu      sync.Mutex
	retries int
	status  int       // HTTP status of the latest rate-limit answer
	until   time.Time // end of the latest rate-limit wait
}

func newRetryWatch() *retryWatch { return &retryWatch{now: time.Now} }

// observe is an llm.RetryPolicy.OnRetry hook.
func (w *retryWatch) observe(ev llm.RetryEvent) {
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
	if end := w.now().Add(ev.Wait); end.After(w.until) {
		w.until = end
	}
}

// describe is the progress line's part: "retries=N" plus, while a
// rate-limit wait lasts, "waiting on 429 until 15:04:05".
func (w *retryWatch) describe() string {
	if w == nil {
		return ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	s := fmt.Sprintf(" retrying=%d", w.retries)
	if now := w.now(); w.until.After(now) {
		s += fmt.Sprintf(" waiting on %d until %s", w.status, w.until.Local().Format("15:04:05"))
	}
	return s
}
