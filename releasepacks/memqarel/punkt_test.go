package memqarel

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	scoring "github.com/memharness/memharness/metrics/memqa"
	"github.com/memharness/memharness/releasepacks/lifememrel"
)

// standinPunkt writes a punkt_tab.zip of our own parameters where `bench
// data fetch nltk-punkt` puts the real one and returns its folder and pin.
func standinPunkt(t *testing.T, lang string, files map[string]string) (string, lifememrel.Source) {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for name, text := range files {
		f, err := w.Create("punkt_tab/" + lang + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	full := filepath.Join(dir, filepath.FromSlash(PunktTabPath))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	src := lifememrel.Source{Name: NameNLTKPunkt, Repository: "example.com/standin-nltk-data",
		Files: []lifememrel.File{{Path: PunktTabPath, Commit: strings.Repeat("0", 40), SHA256: hex.EncodeToString(sum[:]), Size: int64(buf.Len())}}}
	return dir, src
}

var standinPunktFiles = map[string]string{
	scoring.PunktAbbrevFile:       "dr\nst",
	scoring.PunktCollocationsFile: "st\tlouis",
	scoring.PunktSentStartersFile: "the",
	scoring.PunktOrthoFile:        "the\t126\nsmith\t12",
}

func TestOpenPunktReadsThePinnedPackage(t *testing.T) {
	dir, src := standinPunkt(t, PunktLanguage, standinPunktFiles)
	p, err := OpenPunkt(dir, src)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Params.AbbrevTypes["dr"] || !p.Params.Collocations[[2]string{"st", "louis"}] || p.Params.OrthoContext["smith"] != 12 {
		t.Fatalf("params %+v", p.Params)
	}
	if want := "example.com/standin-nltk-data@" + strings.Repeat("0", 40) + " " + PunktTabPath + " (english)"; p.Source != want {
		t.Fatalf("source %q, want %q", p.Source, want)
	}
	// The model decides: "dr." is an abbreviation, so no break before Smith.
	if got := (scoring.Punkt{Params: p.Params}).Sentences("Dr. Smith came. He left."); len(got) != 2 {
		t.Fatalf("sentences %q", got)
	}
}

func TestOpenPunktRefusesWhatIsNotThePin(t *testing.T) {
	dir, src := standinPunkt(t, PunktLanguage, standinPunktFiles)
	altered := src
	altered.Files = []lifememrel.File{src.Files[0]}
	altered.Files[0].SHA256 = strings.Repeat("a", 64)
	if _, err := OpenPunkt(dir, altered); !errors.Is(err, lifememrel.ErrMismatch) || !strings.Contains(err.Error(), "punkt_tab.zip") {
		t.Fatalf("altered package: %v", err)
	}
	if _, err := OpenPunkt(t.TempDir(), src); err == nil || !strings.Contains(err.Error(), "is missing") || !strings.Contains(err.Error(), "bench data fetch nltk-punkt") {
		t.Fatalf("missing package: %v", err)
	}
	other, osrc := standinPunkt(t, "german", standinPunktFiles)
	if _, err := OpenPunkt(other, osrc); err == nil || !strings.Contains(err.Error(), "no punkt_tab/english/abbrev_types.txt") {
		t.Fatalf("no English model: %v", err)
	}
}

// The pinned package itself: SHA-256, commit and the fetch name.
func TestNLTKPunktSourceIsPinned(t *testing.T) {
	s := NLTKPunktSource()
	if !s.Pinned() || len(s.Files) != 1 || len(s.Files[0].Commit) != 40 || s.Files[0].Path != PunktTabPath {
		t.Fatalf("pin %+v", s)
	}
	if got, ok := Find(NameNLTKPunkt); !ok || got.Name != NameNLTKPunkt {
		t.Fatalf("Find(%q) = %+v, %v", NameNLTKPunkt, got, ok)
	}
	spec := s.Specs("")[0]
	if want := "https://raw.githubusercontent.com/nltk/nltk_data/" + s.Files[0].Commit + "/" + PunktTabPath; spec.URL != want {
		t.Fatalf("url %q, want %q", spec.URL, want)
	}
}

// TestEnglishPunktOfTheRealPack opens the fetched package when
// MEMHARNESS_NLTK_PUNKT names its folder: the zip matches the pin and
// holds the English model's four files.
func TestEnglishPunktOfTheRealPack(t *testing.T) {
	dir := os.Getenv("MEMHARNESS_NLTK_PUNKT")
	if dir == "" {
		t.Skip("no fetched nltk-punkt pack (set MEMHARNESS_NLTK_PUNKT to the folder `bench data fetch nltk-punkt` fills)")
	}
	p, err := OpenPunkt(dir, lifememrel.Source{})
	if err != nil {
		t.Fatal(err)
	}
	// The English model's sizes (abbreviations, collocations, sentence
	// starters, typed orthographic contexts).
	if n := []int{len(p.Params.AbbrevTypes), len(p.Params.Collocations), len(p.Params.SentStarters), len(p.Params.OrthoContext)}; n[0] != 156 || n[1] != 37 || n[2] != 39 || n[3] != 20366 {
		t.Fatalf("English model sizes %v, want [156 37 39 20366]", n)
	}
}
