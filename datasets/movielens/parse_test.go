package movielens

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseRatings(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []Rating
		wantErr string
	}{
		{"two lines", "1::1193::5::978300760\n1::661::3::978302109\n",
			[]Rating{{1, 1193, 5, 978300760}, {1, 661, 3, 978302109}}, ""},
		{"crlf, blank line, no final newline", "6040::1::4::956703932\r\n\r\n2::3::1::0",
			[]Rating{{6040, 1, 4, 956703932}, {2, 3, 1, 0}}, ""},
		{"empty", "", []Rating{}, ""},
		{"bad rating value", "1::2::3::4\n1::2::7::4\n", nil,
			"ratings.dat:2: field 3 (Rating): rating 7 outside 1..5"},
		{"rating not a number", "1::2::x::4\n", nil,
			`ratings.dat:1: field 3 (Rating): not a non-negative integer: "x"`},
		{"negative user", "-1::2::3::4\n", nil,
			`ratings.dat:1: field 1 (UserID): not a non-negative integer: "-1"`},
		{"zero movie", "1::0::3::4\n", nil,
			"ratings.dat:1: field 2 (MovieID): movie ID 0 out of range"},
		{"bad timestamp", "1::2::3::4.5\n", nil,
			`ratings.dat:1: field 4 (Timestamp): not a non-negative integer: "4.5"`},
		{"too few fields", "1::2::3\n", nil, "ratings.dat:1: 3 fields, want 4"},
		{"too many fields", "1::2::3::4::5\n", nil, "ratings.dat:1: more than 4 fields"},
		{"single colon", "1:2::3::4::5\n", nil,
			`ratings.dat:1: field 1 (UserID): not a non-negative integer: "1:2"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseRatings([]byte(tc.in), "ratings.dat")
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				var pe *ParseError
				if !errors.As(err, &pe) {
					t.Errorf("error %T is not a *ParseError", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseMovies(t *testing.T) {
	in := "1::Toy Story (1995)::Animation|Children's|Comedy\n" +
		"3::Caf\xe9 au Lait (1993)::Comedy\n" +
		"5::Shanghai Triad (Yao a yao yao dao waipo qiao) (1995)::Drama\n" +
		"9::No Year::(no genres listed)\n"
	got, err := ParseMovies([]byte(in), "movies.dat")
	if err != nil {
		t.Fatal(err)
	}
	want := map[int32]Movie{
		1: {ID: 1, Title: "Toy Story (1995)", Name: "Toy Story", Year: 1995, Genres: []string{"Animation", "Children's", "Comedy"}},
		3: {ID: 3, Title: "Café au Lait (1993)", Name: "Café au Lait", Year: 1993, Genres: []string{"Comedy"}},
		5: {ID: 5, Title: "Shanghai Triad (Yao a yao yao dao waipo qiao) (1995)", Name: "Shanghai Triad (Yao a yao yao dao waipo qiao)", Year: 1995, Genres: []string{"Drama"}},
		9: {ID: 9, Title: "No Year", Name: "No Year"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	bad := []struct{ in, want string }{
		{"x::T (1990)::Drama\n", `movies.dat:1: field 1 (MovieID): bad movie ID "x"`},
		{"1::T (1990)::Drama\n1::U (1991)::Drama\n", "movies.dat:2: field 1 (MovieID): duplicate movie ID 1"},
		{"1:: ::Drama\n", "movies.dat:1: field 2 (Title): empty title"},
		{"1::T (1990)\n", "movies.dat:1: 2 fields, want 3"},
	}
	for _, b := range bad {
		if _, err := ParseMovies([]byte(b.in), "movies.dat"); err == nil || err.Error() != b.want {
			t.Errorf("ParseMovies(%q) err = %v, want %q", b.in, err, b.want)
		}
	}
}

func TestParseUsers(t *testing.T) {
	got, err := ParseUsers([]byte("1::F::1::10::48067\n2::M::56::16::70072\n"), "users.dat")
	if err != nil {
		t.Fatal(err)
	}
	want := map[int32]User{
		1: {ID: 1, Gender: "F", Age: 1, Occupation: 10, Zip: "48067"},
		2: {ID: 2, Gender: "M", Age: 56, Occupation: 16, Zip: "70072"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	bad := []struct{ in, want string }{
		{"1::X::1::10::48067\n", `users.dat:1: field 2 (Gender): want M or F, got "X"`},
		{"1::F::20::10::48067\n", `users.dat:1: field 3 (Age): unknown age code "20"`},
		{"1::F::18::21::48067\n", `users.dat:1: field 4 (Occupation): occupation code "21" outside 0..20`},
		{"1::F::18::2\n", "users.dat:1: 4 fields, want 5"},
	}
	for _, b := range bad {
		if _, err := ParseUsers([]byte(b.in), "users.dat"); err == nil || err.Error() != b.want {
			t.Errorf("ParseUsers(%q) err = %v, want %q", b.in, err, b.want)
		}
	}
}

func TestLatin1(t *testing.T) {
	if got := latin1([]byte("Caf\xe9 \xfcber \xa9")); got != "Café über ©" {
		t.Errorf("latin1 = %q", got)
	}
}
