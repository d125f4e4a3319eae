package movielens

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ratingsText writes n lines whose IDs come from user and movie.
func ratingsText(n int, user, movie func(i int) int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "%d::%d::%d::%d\n", user(i), movie(i), 1+i%5, 956703932+(i*7919)%100000)
	}
	return b.Bytes()
}

// TestRatingsStatsMatchesComputeStats: the tally kept while parsing gives
// what ComputeStats gives over the parsed ratings, for compact IDs, IDs past
// the dense bound, a mix, files cut into parallel parts or not, and users
// on both sides of the 300-rating threshold.
func TestRatingsStatsMatchesComputeStats(t *testing.T) {
	tests := []struct {
		name        string
		n           int
		user, movie func(i int) int
	}{
		{"empty", 0, nil, nil},
		{"one line", 1, func(int) int { return 7 }, func(int) int { return 9 }},
		{"compact, small", 5000, func(i int) int { return 1 + i%13 }, func(i int) int { return 1 + i%300 }},
		{"compact, parallel parts", 400000, func(i int) int { return 1 + i%6040 }, func(i int) int { return 1 + (i*31)%3706 }},
		{"sparse IDs", 5000, func(i int) int { return denseIDs + i%17*1000 }, func(i int) int { return 1<<31 - 1 - i%50 }},
		{"mixed, parallel parts", 400000, func(i int) int {
			if i%3 == 0 {
				return denseIDs + i%11
			}
			return 1 + i%900
		}, func(i int) int {
			if i%5 == 0 {
				return 2*denseIDs + i%7
			}
			return denseIDs - 1 - i%40
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var data []byte
			if tt.n > 0 {
				data = ratingsText(tt.n, tt.user, tt.movie)
			}
			rs, err := ParseRatings(data, RatingsFile)
			if err != nil {
				t.Fatal(err)
			}
			want := ComputeStats(rs)
			got, err := RatingsStats(data, RatingsFile)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("RatingsStats = %+v\nComputeStats = %+v", got, want)
			}
			if tt.n > 0 && want.Ratings != tt.n {
				t.Fatalf("parsed %d ratings of %d", want.Ratings, tt.n)
			}
		})
	}
}

// TestRatingsStatsCounts checks the tally against counts known by
// construction, independently of ComputeStats.
func TestRatingsStatsCounts(t *testing.T) {
	// User u (1..4) rates 299+u movies: users 2, 3 and 4 pass 300.
	var b strings.Builder
	movies := map[int]bool{}
	n := 0
	for u := 1; u <= 4; u++ {
		for k := range 299 + u {
			m := 1 + (u*k)%700
			if u == 4 && k == 0 {
				m = 3 * denseIDs // one sparse movie
			}
			movies[m] = true
			fmt.Fprintf(&b, "%d::%d::4::%d\r\n", u, m, 1000+n)
			n++
		}
	}
	got, err := RatingsStats([]byte(b.String()), RatingsFile)
	if err != nil {
		t.Fatal(err)
	}
	want := Stats{Ratings: n, Users: 4, Movies: len(movies), UsersOver300: 3, MinTimestamp: 1000, MaxTimestamp: int64(1000 + n - 1)}
	if got != want {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

// A bad line is reported with its line number in the whole file, whether
// it falls in the first part or a later one.
func TestRatingsStatsErrorLine(t *testing.T) {
	data := ratingsText(400000, func(i int) int { return 1 + i%6040 }, func(i int) int { return 1 + i%3706 })
	if parts := splitLines(data, 4, 4<<20); len(parts) < 2 {
		t.Fatalf("%d bytes gave %d part(s); the test needs the parallel path", len(data), len(parts))
	}
	lines := strings.Split(string(data), "\n")
	for _, bad := range []int{1, 17, 350000, 400000} {
		ls := append([]string(nil), lines...)
		ls[bad-1] = "7::12::6::1"
		_, err := RatingsStats([]byte(strings.Join(ls, "\n")), RatingsFile)
		want := fmt.Sprintf("ratings.dat:%d: field 3 (Rating)", bad)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bad line %d: err = %v; want one containing %q", bad, err, want)
		}
	}
}

// BenchmarkRatingsStats1M tallies a million lines in memory; run it with
// -cpu 1 to see the sequential parser alone.
func BenchmarkRatingsStats1M(b *testing.B) {
	data := ratingsText(1_000_000, func(i int) int { return 1 + i%6040 }, func(i int) int { return 1 + (i*31)%3706 })
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if st, err := RatingsStats(data, RatingsFile); err != nil || st.Ratings != 1_000_000 {
			b.Fatalf("%+v %v", st, err)
		}
	}
}

// TestEachRatingMatchesCarefulParse: the fused fast path reads exactly what
// the careful path (lines + slowRating) reads, line ends and errors
// included.
func TestEachRatingMatchesCarefulParse(t *testing.T) {
	inputs := []string{
		"1::2::3::4\n5::6::1::7\n",
		"1::2::3::4\r\n5::6::1::7\r\n",
		"1::2::3::4\n5::6::1::7",   // no final newline
		"1::2::3::4\n5::6::1::7\r", // a final CR
		"1::2::3::4\n\n\r\n5::6::1::7\n",
		"1::2::3::4\r\r\n", // one CR too many
		"1::2::3::4 \n",    // trailing space
		"1::2::3::4::5\n",  // a fifth field
		"1::2::3\n",        // a field short
		"01::002::5::0\n",  // leading zeros
		"0::2::3::4\n",     // user 0
		"2147483648::2::3::4\n",
		"1::2::3::1234567890123456789\n", // 19 digits
		"1::2::3::123456789012345678\n",  // 18 digits
		"1:2::3::4\n",
		"1::2::3::-4\n",
		"1::2::6::4\n",
		"a::2::3::4\n",
		"1::2::3::4\n1::2::3::4\n1::x::3::4\n",
	}
	careful := func(data []byte) ([]Rating, error) {
		var out []Rating
		err := lines(data, func(n int, line []byte) error {
			r, err := slowRating(line, n, RatingsFile)
			out = append(out, r)
			return err
		})
		if err != nil {
			out = out[:len(out)-1]
		}
		return out, err
	}
	for _, in := range inputs {
		want, wantErr := careful([]byte(in))
		var got []Rating
		gotErr := eachRating([]byte(in), RatingsFile, func(r Rating) { got = append(got, r) })
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q:\n got %v, %v\nwant %v, %v", in, got, gotErr, want, wantErr)
		}
	}
}

// LoadStats gives Load's Stats, and fails where Load fails with the same
// error, for a bad line in any of the three files.
func TestLoadStatsMatchesLoad(t *testing.T) {
	good := map[string]string{
		RatingsFile: string(ratingsText(3000, func(i int) int { return 1 + i%9 }, func(i int) int { return 1 + i%40 })),
		MoviesFile:  "1::Toy Story (1995)::Animation|Children's|Comedy\n2::Jumanji (1995)::Adventure\n",
		UsersFile:   "1::F::1::10::48067\n2::M::56::16::70072\n",
	}
	tests := []struct{ name, file, body string }{
		{"good", "", ""},
		{"bad rating", RatingsFile, "1::2::3::4\n1::2::9::4\n"},
		{"bad movie", MoviesFile, "1::Toy Story (1995)::Comedy\nx::Heat (1995)::Action\n"},
		{"bad user", UsersFile, "1::F::1::10::48067\n2::X::56::16::70072\n"},
		{"empty movies", MoviesFile, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range good {
				if name == tt.file {
					body = tt.body
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			d, loadErr := Load(dir)
			st, statsErr := LoadStats(dir)
			if fmt.Sprint(loadErr) != fmt.Sprint(statsErr) {
				t.Fatalf("Load: %v\nLoadStats: %v", loadErr, statsErr)
			}
			if tt.file != "" && tt.body != "" && loadErr == nil {
				t.Fatalf("no error for a bad %s", tt.file)
			}
			if loadErr == nil && st != d.Stats() {
				t.Fatalf("LoadStats = %+v, Load's Stats = %+v", st, d.Stats())
			}
		})
	}
}
