package wikienv

import (
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/internal/pyfmt"
)

func testStore() *Store {
	return NewStore([]Page{
		{Title: "Viva (UK and Ireland)", Sentences: []string{"Viva is a music channel."}},
		{Title: "VIVA Media", Sentences: []string{"VIVA Media GmbH is a television network.", "It was founded in 1993."}},
		{Title: "VIVA Media", Sentences: []string{"a duplicate that must lose"}},
		{Title: "Soul Food (film)", Sentences: []string{"Soul Food is a 1997 film."}},
		{Title: "Empty", Sentences: nil},
		{Title: "Music", Sentences: []string{"Music is an art form.", "Music channels broadcast music videos."}},
	})
}

func TestStoreFind(t *testing.T) {
	s := testStore()
	tests := []struct {
		query, title string
		ok           bool
	}{
		{"VIVA Media", "VIVA Media", true},
		{" VIVA Media ", "VIVA Media", true},
		{"viva media", "VIVA Media", true},
		{"Viva UK and Ireland", "Viva (UK and Ireland)", true},
		{"Soul_Food_-LRB-film-RRB-", "Soul Food (film)", true},
		{"VIVA Media AG", "", false},
		{"Empty", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		p, ok := s.find(tt.query)
		if ok != tt.ok || p.Title != tt.title {
			t.Errorf("find(%q) = %q, %v; want %q, %v", tt.query, p.Title, ok, tt.title, tt.ok)
		}
	}
	if p, _ := s.find("VIVA Media"); p.Sentences[0] != "VIVA Media GmbH is a television network." {
		t.Errorf("duplicate title replaced the first page: %q", p.Sentences)
	}
	if s.Len() != 4 {
		t.Errorf("Len = %d, want 4 (duplicate and empty page dropped)", s.Len())
	}
}

func TestStoreSimilar(t *testing.T) {
	s := testStore()
	tests := []struct {
		query string
		want  []string
	}{
		{"VIVA Media AG", []string{"VIVA Media", "Viva (UK and Ireland)"}},
		{"music channel", []string{"Viva (UK and Ireland)", "Music"}}, // both words beat three "music"s
		{"zzz qqq", nil},
	}
	for _, tt := range tests {
		if got := s.similar(tt.query); !slices.Equal(got, tt.want) {
			t.Errorf("similar(%q) = %q, want %q", tt.query, got, tt.want)
		}
	}
}

func TestDisplayTitleAndKey(t *testing.T) {
	tests := []struct{ id, display, key string }{
		{"Soul_Food_-LRB-film-RRB-", "Soul Food (film)", "soul food film"},
		{"Star_Wars_-COLON-_Episode_I", "Star Wars : Episode I", "star wars episode i"},
		{"  Plain  ", "Plain", "plain"},
	}
	for _, tt := range tests {
		if got := DisplayTitle(tt.id); got != tt.display {
			t.Errorf("DisplayTitle(%q) = %q, want %q", tt.id, got, tt.display)
		}
		if got := titleKey(tt.id); got != tt.key {
			t.Errorf("titleKey(%q) = %q, want %q", tt.id, got, tt.key)
		}
	}
}

func TestPyList(t *testing.T) {
	tests := []struct {
		in   []string
		want string
	}{
		{nil, "[]"},
		{[]string{"A", "B (c)"}, "['A', 'B (c)']"},
		{[]string{"Rock 'n' roll"}, `["Rock 'n' roll"]`},
		{[]string{`both ' and "`}, `['both \' and "']`},
		{[]string{"tab\there", `back\slash`, "\x01"}, `['tab\there', 'back\\slash', '\x01']`},
	}
	for _, tt := range tests {
		if got := pyfmt.Repr(tt.in); got != tt.want {
			t.Errorf("pyfmt.Repr(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestReadPages(t *testing.T) {
	in := strings.Join([]string{
		`{"title": "Alpha", "text": "Alpha is first. It has two sentences.\nA new paragraph"}`,
		`{"title": "Beta", "sentences": [" Beta one.", "", "Beta two."]}`,
		``,
		`{"id": "", "text": "", "lines": ""}`,
		`{"id": "Gamma_-LRB-letter-RRB-", "text": "ignored", "lines": "0\tGamma -LRB- Γ -RRB- is a letter .\tGreek\n1\t\n2\tIt is third ."}`,
		`{"id": "Delta", "text": "Delta is fourth. Really", "lines": ""}`,
	}, "\n")
	pages, err := ReadPages(strings.NewReader(in), "pages.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := []Page{
		{"Alpha", []string{"Alpha is first.", "It has two sentences.", "A new paragraph."}},
		{"Beta", []string{"Beta one.", "Beta two."}},
		{"Gamma (letter)", []string{"Gamma ( Γ ) is a letter .", "It is third ."}},
		{"Delta", []string{"Delta is fourth.", "Really."}},
	}
	if len(pages) != len(want) {
		t.Fatalf("got %d pages: %q", len(pages), pages)
	}
	for i := range want {
		if pages[i].Title != want[i].Title || !slices.Equal(pages[i].Sentences, want[i].Sentences) {
			t.Errorf("page %d = %q, want %q", i, pages[i], want[i])
		}
	}
}

func TestReadPagesErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"{\"title\": \"A\", \"text\": \"x\"}\n{oops", "pages.jsonl:2:"},
		{`{"text": "no title"}`, `pages.jsonl:1: want a "title" or an "id" field`},
		{`{"title": " ", "text": "x"}`, `pages.jsonl:1: field "title": empty`},
		{`{"title": "A", "sentences": "not a list"}`, "pages.jsonl:1:"},
	}
	for _, tt := range tests {
		_, err := ReadPages(strings.NewReader(tt.in), "pages.jsonl")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadPages(%q) error = %v, want %q", tt.in, err, tt.want)
		}
	}
}
