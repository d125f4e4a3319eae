package movielens

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestParallelParseMatchesSequential: a file large enough to be cut into
// parts parses to the same ratings as the sequential parser, and a bad line
// in a later part is reported with its line number in the whole file.
func TestParallelParseMatchesSequential(t *testing.T) {
	var b bytes.Buffer
	for i := range 400000 {
		fmt.Fprintf(&b, "%d::%d::%d::%d\n", 1+i%6040, 1+i%3706, 1+i%5, 956703932+i)
	}
	data := b.Bytes()
	if parts := splitLines(data, 4, 4<<20); len(parts) < 2 {
		t.Fatalf("%d bytes gave %d part(s); the test needs the parallel path", len(data), len(parts))
	}
	got, err := ParseRatings(data, "ratings.dat")
	if err != nil {
		t.Fatal(err)
	}
	want, err := parseRatings(data, "ratings.dat")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parallel parse differs: %d vs %d ratings", len(got), len(want))
	}
	lines := strings.Split(string(data), "\n")
	lines[350000-1] = "7::x::3::1"
	_, err = ParseRatings([]byte(strings.Join(lines, "\n")), "ratings.dat")
	if err == nil || !strings.Contains(err.Error(), "ratings.dat:350000") {
		t.Fatalf("err = %v; want one naming ratings.dat:350000", err)
	}
}

func TestSplitLinesKeepsEveryByte(t *testing.T) {
	data := []byte(strings.Repeat("1::2::3::4\n", 1000) + "5::6::7::8")
	for _, n := range []int{1, 2, 3, 7} {
		parts := splitLines(data, n, 100)
		if len(parts) > n {
			t.Errorf("n=%d: %d parts", n, len(parts))
		}
		joined := bytes.Join(parts, nil)
		if !bytes.Equal(joined, data) {
			t.Errorf("n=%d: parts do not rejoin to the input", n)
		}
		for i, p := range parts[:len(parts)-1] {
			if p[len(p)-1] != '\n' {
				t.Errorf("n=%d: part %d does not end a line", n, i)
			}
		}
	}
}
