// Package progress shows how a long job advances: one line redrawn in place
// when stderr is a terminal, cut to the terminal's width so it never wraps,
// otherwise a plain log line every few seconds (CI logs need no carriage
// returns or escape codes).
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

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
	// width is the terminal's width in columns; nil in log mode.
	width func() int

	mu     sync.Mutex
	done   int
	start  time.Time
	last   time.Time
	drawn  bool // a line is on screen (terminal mode)
	closed bool
	stop   chan struct{} // ends the ticker; nil without one
}

// Options configure a Reporter.
type Options struct {
	// Every is the interval between log lines in non-terminal mode (default 5 s).
	Every time.Duration
	// Stats returns extra text (retries, invalid answers...) for each line.
	Stats Stats
	// ForceLog disables the redrawn line even on a terminal.
	ForceLog bool
	// Width, when set, is the terminal width to fit (columns) and makes w be
	// treated as a terminal; for tests and callers that know better.
	Width func() int
	// NoTicker turns off the timer that keeps the line going while no
	// unit finishes (tests that drive the clock themselves).
	NoTicker bool
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// redrawEvery throttles terminal redraws: fast jobs must not spend their
// time writing to the terminal.
const redrawEvery = 100 * time.Millisecond

// fallbackWidth is used when a terminal does not say its size.
const fallbackWidth = 80

// New starts a reporter for total units of work written to w.
func New(w io.Writer, label string, total int, opt Options) *Reporter {
	r := &Reporter{label: label, total: total, w: w, every: opt.Every, stats: opt.Stats, now: time.Now}
	if r.every <= 0 {
		r.every = 5 * time.Second
	}
	r.start = r.now()
	r.last = r.start
	switch {
	case opt.ForceLog:
	case opt.Width != nil:
		r.width = opt.Width
	case IsTerminal(w):
		fd := int(w.(*os.File).Fd())
		// Asked at every redraw, so a resized window is followed.
		r.width = func() int {
			if c, _, err := term.GetSize(fd); err == nil && c > 0 {
				return c
			}
			return fallbackWidth
		}
	}
	if !opt.NoTicker {
		// A unit can take minutes (a user's memory is built before its
		// first sample ends): the elapsed time and, in a log, a line every
		// interval keep showing that the job is alive.
		period := r.every
		if r.width != nil {
			period = time.Second
		}
		r.stop = make(chan struct{})
		go r.tickEvery(period)
	}
	return r
}

func (r *Reporter) tickEvery(period time.Duration) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
			r.tick()
		}
	}
}

// tick redraws the terminal line, or writes a log line when one is due.
func (r *Reporter) tick() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	now := r.now()
	if r.width != nil {
		r.last = now
		r.redraw(now)
		return
	}
	if now.Sub(r.last) >= r.every {
		r.last = now
		fmt.Fprintln(r.w, r.line(now))
	}
}

// Add records n finished units.
func (r *Reporter) Add(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done += n
	now := r.now()
	if r.width != nil {
		if !r.drawn || now.Sub(r.last) >= redrawEvery || r.done >= r.total {
			r.last = now
			r.redraw(now)
		}
		return
	}
	if now.Sub(r.last) >= r.every {
		r.last = now
		fmt.Fprintln(r.w, r.line(now))
	}
}

// redraw puts the current line over the previous one: carriage return, the
// line cut to one column less than the width (a line filling the last
// column makes some terminals wrap), then erase to the end of the line.
func (r *Reporter) redraw(now time.Time) {
	fmt.Fprintf(r.w, "\r%s\x1b[K", r.fit(now, r.width()-1))
	r.drawn = true
}

// counts is "17/80 21% eta 1m3s".
func (r *Reporter) counts(now time.Time) string {
	el := now.Sub(r.start)
	pct := 100.0
	if r.total > 0 {
		pct = 100 * float64(r.done) / float64(r.total)
	}
	s := fmt.Sprintf("%d/%d %.0f%%", r.done, r.total, pct)
	if r.done > 0 && r.done < r.total {
		eta := time.Duration(float64(el) / float64(r.done) * float64(r.total-r.done))
		s += " eta " + eta.Round(time.Second).String()
	}
	return s
}

// fit is the terminal line in at most cols columns: the label, a bar when
// there is room for a useful one, the counts, and as much of the stats as
// fits. What does not fit is cut with "…", the least important part first.
func (r *Reporter) fit(now time.Time, cols int) string {
	if cols < 1 {
		cols = 1
	}
	counts := r.counts(now)
	stats := ""
	if r.stats != nil {
		stats = r.stats()
	}
	head := r.label + " " + counts
	if width(head) > cols {
		return cut(head, cols)
	}
	// The bar takes what is left after the stats, between 10 and 30
	// columns; below 10 columns a bar says nothing and is left out. Its
	// width is worked out for the widest counts this job can show, so the
	// bar neither jumps nor comes and goes as the counts change.
	const minBar, maxBar = 10, 30
	widest := width(r.label) + 1 + width(fmt.Sprintf("%d/%d 100%% eta 59m59s", r.total, r.total))
	room := cols - widest - 1 // the space before the bar
	barW := 0
	if room >= minBar+2 {
		barW = min(maxBar, room-2) // room for the brackets
		if s := width(stats); s > 0 {
			// Shrink the bar to give the stats their room, down to minBar.
			if over := widest + 1 + barW + 2 + 1 + s - cols; over > 0 {
				barW = max(minBar, barW-over)
			}
		}
	}
	line := r.label
	if barW > 0 {
		line += " " + bar(r.done, r.total, barW)
	}
	line += " " + counts
	if stats != "" && width(line)+2 <= cols {
		line += " " + cut(stats, cols-width(line)-1)
	}
	return line
}

// bar is "[=====>     ]" with w columns between the brackets.
func bar(done, total, w int) string {
	filled := w
	if total > 0 {
		filled = min(w, w*done/total)
	}
	s := strings.Repeat("=", filled)
	if filled < w {
		s += ">" + strings.Repeat(" ", w-filled-1)
	}
	return "[" + s + "]"
}

// cut shortens s to at most cols columns, ending in "…" when shortened.
func cut(s string, cols int) string {
	if width(s) <= cols {
		return s
	}
	if cols <= 0 {
		return ""
	}
	var b strings.Builder
	used := 0
	for _, c := range s {
		w := runeWidth(c)
		if used+w > cols-1 {
			break
		}
		b.WriteRune(c)
		used += w
	}
	return b.String() + "…"
}

// width is the number of terminal columns s takes.
func width(s string) int {
	n := 0
	for _, c := range s {
		n += runeWidth(c)
	}
	return n
}

// runeWidth is 2 for the wide East Asian ranges (config names and labels
// may be Chinese), 0 for control characters, 1 otherwise.
func runeWidth(c rune) int {
	switch {
	case c < 0x20 || c == 0x7f || c == utf8.RuneError:
		return 0
	case c >= 0x1100 && c <= 0x115f, c >= 0x2e80 && c <= 0xa4cf, c >= 0xac00 && c <= 0xd7a3,
		c >= 0xf900 && c <= 0xfaff, c >= 0xfe30 && c <= 0xfe4f, c >= 0xff00 && c <= 0xff60,
		c >= 0xffe0 && c <= 0xffe6, c >= 0x20000 && c <= 0x3fffd:
		return 2
	}
	return 1
}

// line is the plain log line (non-terminal mode and the closing line).
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

// Finish clears the redrawn line and prints the closing line, in full (it
// may wrap: it is printed once and is the record of the job).
func (r *Reporter) Finish() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.closed = true
	if r.stop != nil {
		close(r.stop)
	}
	if r.drawn {
		fmt.Fprint(r.w, "\r\x1b[K")
	}
	fmt.Fprintln(r.w, r.line(r.now()))
}

// Interrupt ends the redrawn line so that what is printed next starts on a
// line of its own; the reporter goes on.
func (r *Reporter) Interrupt() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.drawn {
		fmt.Fprint(r.w, "\r\x1b[K")
		r.drawn = false
	}
}
