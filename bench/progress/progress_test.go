package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestLogLines(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, "run x", 10, Options{Every: time.Second, Stats: func() string { return "retries=0" }})
	clock := r.start
	r.now = func() time.Time { return clock }
	for i := 0; i < 10; i++ {
		clock = clock.Add(400 * time.Millisecond)
		r.Add(1)
	}
	r.Finish()
	out := buf.String()
	if strings.Contains(out, "\r") {
		t.Errorf("log mode wrote a carriage return: %q", out)
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
