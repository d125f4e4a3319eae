package progress

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLogLines(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, "run x", 10, Options{Every: time.Second, Stats: func() string { return "retries=0" }, NoTicker: true})
	clock := r.start
	r.now = func() time.Time { return clock }
	for i := 0; i < 10; i++ {
		clock = clock.Add(400 * time.Millisecond)
		r.Add(1)
	}
	r.Finish()
	out := buf.String()
	if strings.ContainsAny(out, "\r\x1b") {
		t.Errorf("log mode wrote a carriage return or an escape code: %q", out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	// 4 s elapsed at 1 line/s plus the closing line.
	if len(lines) < 4 || len(lines) > 5 {
		t.Errorf("got %d lines:\n%s", len(lines), out)
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, "10/10 (100.0%)") || !strings.Contains(last, "retries=0") {
		t.Errorf("closing line = %q", last)
	}
}

// The stats of a PraMem run with retries and invalid answers: longer than
// a 160-column terminal.
const longStats = "calls=1234 cached=56 retries=7 invalid=3 errors=0 invalid by purpose: pramem.practice 2/40 (5.0%), pramem.predict 1/80 (1.3%) rate waits: 12 (3m4s)"

// In terminal mode every update redraws one line that fits the width: no
// newline before the closing line, each drawn line at most width-1
// columns, a bar whenever there is room for one.
func TestTerminalLineFitsWidth(t *testing.T) {
	for _, tc := range []struct {
		cols    int
		label   string
		stats   string
		wantBar bool
	}{
		{cols: 20, label: "run smoke", stats: longStats},
		{cols: 40, label: "run smoke", stats: longStats}, // no room for a 10-column bar
		{cols: 50, label: "run smoke", stats: longStats, wantBar: true},
		{cols: 80, label: "run smoke", stats: longStats, wantBar: true},
		{cols: 80, label: "run pramem_omnibehavior_movielens_paper_full_sweep", stats: longStats},
		{cols: 80, label: "run 中文配置", stats: "calls=1", wantBar: true},
		{cols: 160, label: "run pramem_r5", stats: longStats, wantBar: true},
		{cols: 200, label: "run smoke", stats: "", wantBar: true},
		{cols: 8, label: "run smoke", stats: longStats},
	} {
		t.Run(fmt.Sprintf("%d/%s", tc.cols, tc.label), func(t *testing.T) {
			var buf bytes.Buffer
			stats := func() string { return tc.stats }
			r := New(&buf, tc.label, 80, Options{Stats: stats, Width: func() int { return tc.cols }, NoTicker: true})
			clock := r.start
			r.now = func() time.Time { return clock }
			for i := 0; i < 80; i++ {
				clock = clock.Add(time.Second)
				r.Add(1)
			}
			during := buf.String()
			r.Finish()
			if strings.Contains(during, "\n") {
				t.Fatalf("a newline before the closing line: %q", during)
			}
			frames := strings.Split(strings.TrimPrefix(during, "\r"), "\r")
			if len(frames) != 80 {
				t.Errorf("%d redraws for 80 updates a second apart", len(frames))
			}
			for _, f := range frames {
				f = strings.TrimSuffix(f, "\x1b[K")
				if w := width(f); w > tc.cols-1 {
					t.Fatalf("line of %d columns in a %d-column terminal: %q", w, tc.cols, f)
				}
				if tc.cols >= 40 && !strings.HasPrefix(f, tc.label) {
					t.Fatalf("line lost its label: %q", f)
				}
				if got := strings.Contains(f, "["); got != tc.wantBar {
					t.Fatalf("bar shown = %v, want %v: %q", got, tc.wantBar, f)
				}
			}
			last := strings.TrimSuffix(frames[len(frames)-1], "\x1b[K")
			if tc.cols >= 40 && !strings.Contains(last, "80/80 100%") {
				t.Errorf("last frame = %q", last)
			}
			if tc.wantBar && !strings.Contains(last, "[===") {
				t.Errorf("bar not full at the end: %q", last)
			}
			closing := strings.TrimPrefix(buf.String(), during)
			if !strings.HasPrefix(closing, "\r\x1b[K") || !strings.HasSuffix(closing, "\n") ||
				!strings.Contains(closing, tc.label+": 80/80 (100.0%)") || !strings.Contains(closing, tc.stats) {
				t.Errorf("closing = %q", closing)
			}
		})
	}
}

// Redraws are throttled: a thousand updates within a second draw a handful
// of frames, and the last update is always drawn.
func TestTerminalRedrawThrottled(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, "run x", 1000, Options{Width: func() int { return 80 }, NoTicker: true})
	clock := r.start
	r.now = func() time.Time { return clock }
	for i := 0; i < 1000; i++ {
		clock = clock.Add(time.Millisecond)
		r.Add(1)
	}
	frames := strings.Count(buf.String(), "\r")
	if frames < 5 || frames > 15 {
		t.Errorf("%d frames for 1000 updates in 1 s", frames)
	}
	if !strings.Contains(buf.String(), "1000/1000 100%") {
		t.Errorf("last update not drawn: %q", buf.String()[max(0, buf.Len()-100):])
	}
}

// A window resized during the run is followed at the next redraw.
func TestTerminalFollowsResize(t *testing.T) {
	var buf bytes.Buffer
	cols := 160
	r := New(&buf, "run x", 2, Options{Stats: func() string { return longStats }, Width: func() int { return cols }, NoTicker: true})
	clock := r.start
	r.now = func() time.Time { return clock }
	clock = clock.Add(time.Second)
	r.Add(1)
	cols = 60
	clock = clock.Add(time.Second)
	r.Add(1)
	frames := strings.Split(strings.TrimPrefix(buf.String(), "\r"), "\r")
	if len(frames) != 2 {
		t.Fatalf("frames = %q", frames)
	}
	if w := width(strings.TrimSuffix(frames[0], "\x1b[K")); w != 159 {
		t.Errorf("first frame %d columns, want 159 (the stats fill it)", w)
	}
	if w := width(strings.TrimSuffix(frames[1], "\x1b[K")); w > 59 {
		t.Errorf("after the resize a frame of %d columns", w)
	}
}

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		in   string
		cols int
		want string
	}{
		{"abcdef", 10, "abcdef"},
		{"abcdef", 6, "abcdef"},
		{"abcdef", 4, "abc…"},
		{"abcdef", 1, "…"},
		{"abcdef", 0, ""},
		{"中文配置", 5, "中文…"},
	} {
		if got := cut(tc.in, tc.cols); got != tc.want {
			t.Errorf("cut(%q, %d) = %q, want %q", tc.in, tc.cols, got, tc.want)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the ticker's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// While no unit finishes, the log still gets a line every interval, and
// nothing is written after Finish.
func TestTickerKeepsLogGoing(t *testing.T) {
	var buf syncBuffer
	r := New(&buf, "run slow", 3, Options{Every: 20 * time.Millisecond})
	time.Sleep(150 * time.Millisecond)
	r.Finish()
	out := buf.String()
	if n := strings.Count(out, "run slow: 0/3"); n < 2 {
		t.Errorf("%d lines while nothing finished:\n%s", n, out)
	}
	time.Sleep(60 * time.Millisecond)
	if after := buf.String(); after != out {
		t.Errorf("written after Finish: %q", strings.TrimPrefix(after, out))
	}
}
