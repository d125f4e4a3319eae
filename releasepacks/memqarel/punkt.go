package memqarel

import (
	"fmt"

	scoring "github.com/memharness/memharness/metrics/memqa"
	"github.com/memharness/memharness/releasepacks/lifememrel"
)

// NameNLTKPunkt is the fetch name of nltk_data's punkt_tab package, the
// trained Punkt models nltk.word_tokenize splits sentences with before
// it splits words (mem0's BLEU-1 tokenises both texts that way).
const NameNLTKPunkt = "nltk-punkt"

// The English Punkt model as nltk ≥ 3.8.2 reads it (tokenizers/punkt_tab;
// older nltk read the same parameters from punkt.zip's english.pickle).
const (
	nltkDataCommit = "550b6625bcef1f2abff2ff770a5a0d272c9c6b2a"
	// PunktTabPath is the package's path in the nltk_data repository.
	PunktTabPath = "packages/tokenizers/punkt_tab.zip"
	// PunktLanguage is the model mem0's evaluation uses (word_tokenize's
	// default language).
	PunktLanguage = "english"
)

// NLTKPunktSource is nltk_data's punkt_tab.zip at a pinned commit of its
// gh-pages branch (the branch nltk.download serves from). Its SHA-256 and
// size are what the package index records for it; the four English files
// inside were checked against their own SHA-256s as published beside the
// same commit, and their contents against the English model of the older
// punkt.zip (english.pickle).
func NLTKPunktSource() lifememrel.Source {
	return lifememrel.Source{
		Name: NameNLTKPunkt, Repository: "github.com/nltk/nltk_data", Owner: "nltk", Repo: "nltk_data",
		Files: []lifememrel.File{
			{Path: PunktTabPath, Commit: nltkDataCommit, SHA256: "e57f64187974277726a3417ca6f181ec5403676c717672eef6a748a7b20e0106", Size: 4319076},
		},
	}
}

// Punkt is a trained Punkt model read from the pinned package.
type Punkt struct {
	Params scoring.PunktParams
	// Source is the package's repository@commit, path and language.
	Source string
}

// OpenPunkt reads the English Punkt model from a fetched copy of the
// package (dir as `bench data fetch nltk-punkt` leaves it, or a checkout
// of nltk_data), the zip checked against the pin first (zero pin:
// NLTKPunktSource()).
func OpenPunkt(dir string, pin lifememrel.Source) (*Punkt, error) {
	if pin.Name == "" {
		pin = NLTKPunktSource()
	}
	t, err := lifememrel.Open(dir, pin)
	if err != nil {
		return nil, err
	}
	if len(pin.Files) != 1 {
		return nil, fmt.Errorf("%s: the pin names %d files, want the package zip alone", pin.Name, len(pin.Files))
	}
	path := pin.Files[0].Path
	b, _ := t.Raw(path)
	params, err := scoring.PunktParamsFromZip(b, PunktLanguage)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", pin.Pin(), path, err)
	}
	return &Punkt{Params: params, Source: pin.Pin() + " " + path + " (" + PunktLanguage + ")"}, nil
}
