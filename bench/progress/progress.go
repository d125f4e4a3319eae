// Package progress shows how a long job advances: a progress bar when stderr
// is a terminal, otherwise a plain log line every few seconds (CI logs need no
// carriage returns).
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Stats are extra counters shown beside the count.
type Stats func() string

// Reporter tracks one job.
type Reporter struct {
	label string
	total int
	w     io.Writer
	every time.Duration
	stats Stats
	now   func() time.Time

	mu    sync.Mutex
	done  int
	start time.Time
	last  time.Time
	bar   *progressbar.ProgressBar
}

// Options configure a Reporter.
type Options struct {
	// Every is the interval between log lines in non-terminal mode (default 5 s).
	Every time.Duration
	// Stats returns extra text (retries, invalid answers...) for each line.
	Stats Stats
	// ForceLog disables the bar even on a terminal.
	ForceLog bool
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// New starts a reporter for total units of work written to w.
func New(w io.Writer, label string, total int, opt Options) *Reporter {
	r := &Reporter{label: label, total: total, w: w, every: opt.Every, stats: opt.Stats, now: time.Now}
	if r.every <= 0 {
		r.every = 5 * time.Second
	}
	r.start = r.now()
	r.last = r.start
	if !opt.ForceLog && IsTerminal(w) {
		r.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(label),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	return r
}

// Add records n finished units.
func (r *Reporter) Add(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done += n
	if r.bar != nil {
		_ = r.bar.Add(n)
		if r.stats != nil {
			r.bar.Describe(r.label + " " + r.stats())
		}
		return
	}
	if now := r.now(); now.Sub(r.last) >= r.every {
		r.last = now
		fmt.Fprintln(r.w, r.line(now))
	}
}

func (r *Reporter) line(now time.Time) string {
	el := now.Sub(r.start)
	pct := 100.0
	if r.total > 0 {
		pct = 100 * float64(r.done) / float64(r.total)
	}
	s := fmt.Sprintf("%s: %d/%d (%.1f%%) elapsed %s", r.label, r.done, r.total, pct, el.Round(time.Second))
	if r.done > 0 && r.done < r.total {
		eta := time.Duration(float64(el) / float64(r.done) * float64(r.total-r.done))
		s += fmt.Sprintf(" eta %s", eta.Round(time.Second))
	}
	if r.stats != nil {
		s += " " + r.stats()
	}
	return s
}

// Finish prints the closing line.
func (r *Reporter) Finish() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.bar != nil {
		_ = r.bar.Finish()
	}
	fmt.Fprintln(r.w, r.line(r.now()))
}
