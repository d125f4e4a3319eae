package conversation_test

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	scoring "github.com/memharness/memharness/metrics/memqa"
	"github.com/memharness/memharness/releasepacks/lifememrel"
	"github.com/memharness/memharness/releasepacks/memqarel"
)

// standinPunktZip is a punkt_tab.zip of parameters of our own (not a
// trained model): "dr" an abbreviation, so "dr." ends no sentence.
func standinPunktZip(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, f := range []struct{ name, text string }{
		{scoring.PunktAbbrevFile, "dr\nst"},
		{scoring.PunktCollocationsFile, "st\tlouis"},
		{scoring.PunktSentStartersFile, "the"},
		{scoring.PunktOrthoFile, "the\t126\nsmith\t12"},
	} {
		fw, err := w.Create("punkt_tab/english/" + f.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write([]byte(f.text)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// standinPunkt writes the stand-in package into dataDir as `bench data
// fetch nltk-punkt` lays it out and returns its pin.
func standinPunkt(t *testing.T, dataDir string) lifememrel.Source {
	t.Helper()
	b := standinPunktZip(t)
	full := filepath.Join(dataDir, memqarel.NameNLTKPunkt, filepath.FromSlash(memqarel.PunktTabPath))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return standinPunktPin(t)
}

// standinPunktPin is the stand-in package's pin (its bytes are the same
// on every call: no times are written).
func standinPunktPin(t *testing.T) lifememrel.Source {
	b := standinPunktZip(t)
	sum := sha256.Sum256(b)
	return lifememrel.Source{Name: memqarel.NameNLTKPunkt, Repository: "example.com/standin-nltk-data",
		Files: []lifememrel.File{{Path: memqarel.PunktTabPath, Commit: strings.Repeat("0", 40), SHA256: hex.EncodeToString(sum[:]), Size: int64(len(b))}}}
}
