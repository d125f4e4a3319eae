package memqa

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The four files of one language folder of nltk_data's punkt_tab package
// (punkt_tab/english/...), which nltk ≥ 3.8.2 reads into PunktParameters
// (load_punkt_params): one abbreviation type a line; one collocation a
// line, its two types separated by a tab; one frequent sentence starter a
// line; one type and its orthographic-context flags (a decimal integer)
// a line, separated by a tab.
const (
	PunktAbbrevFile       = "abbrev_types.txt"
	PunktCollocationsFile = "collocations.tab"
	PunktSentStartersFile = "sent_starters.txt"
	PunktOrthoFile        = "ortho_context.tab"
)

// PunktTabFiles are the file names ParsePunktTab needs, in a fixed order.
func PunktTabFiles() []string {
	return []string{PunktAbbrevFile, PunktCollocationsFile, PunktSentStartersFile, PunktOrthoFile}
}

// ParsePunktTab builds the parameters from the four files' contents, by
// file name, read as nltk's tab decoder reads them: the file as UTF-8 text
// with universal newlines, each line with one final "\n" removed and
// nothing else (an abbreviation type may end in a space: the English
// model has ". . "). A collocation line must hold exactly two fields and
// an orthographic-context line a type and an integer; anything else is an
// error naming the file and the line, as is a missing file or one that is
// not UTF-8.
func ParsePunktTab(files map[string][]byte) (PunktParams, error) {
	p := PunktParams{AbbrevTypes: map[string]bool{}, Collocations: map[[2]string]bool{},
		SentStarters: map[string]bool{}, OrthoContext: map[string]int{}}
	for _, name := range PunktTabFiles() {
		b, ok := files[name]
		if !ok {
			return PunktParams{}, fmt.Errorf("punkt parameters: %s is missing", name)
		}
		lines, err := tabLines(name, b)
		if err != nil {
			return PunktParams{}, err
		}
		for i, line := range lines {
			fields := strings.Split(line, "\t")
			switch name {
			case PunktAbbrevFile:
				p.AbbrevTypes[line] = true
			case PunktSentStartersFile:
				p.SentStarters[line] = true
			case PunktCollocationsFile:
				if len(fields) != 2 {
					return PunktParams{}, fmt.Errorf("punkt parameters: %s line %d: %d tab-separated fields, want 2 (two types)", name, i+1, len(fields))
				}
				p.Collocations[[2]string{fields[0], fields[1]}] = true
			case PunktOrthoFile:
				if len(fields) != 2 {
					return PunktParams{}, fmt.Errorf("punkt parameters: %s line %d: %d tab-separated fields, want 2 (type, flags)", name, i+1, len(fields))
				}
				flags, err := strconv.Atoi(fields[1])
				if err != nil {
					return PunktParams{}, fmt.Errorf("punkt parameters: %s line %d: flags %q are not an integer", name, i+1, fields[1])
				}
				p.OrthoContext[fields[0]] = flags
			}
		}
	}
	return p, nil
}

// tabLines are the lines of a text file as Python iterates a file opened
// in text mode ("\r\n" and a lone "\r" end a line as "\n" does), each
// without its final "\n". An empty file has no line, and a final "\n"
// starts none.
func tabLines(name string, b []byte) ([]string, error) {
	if !utf8.Valid(b) {
		return nil, fmt.Errorf("punkt parameters: %s is not UTF-8 text", name)
	}
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	if s == "" {
		return nil, nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n"), nil
}

// PunktParamsFromZip reads one language's parameters from a punkt_tab
// package (its punkt_tab/LANG/ files).
func PunktParamsFromZip(b []byte, lang string) (PunktParams, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return PunktParams{}, fmt.Errorf("not a zip archive: %w", err)
	}
	want := map[string]string{}
	for _, name := range PunktTabFiles() {
		want["punkt_tab/"+lang+"/"+name] = name
	}
	files := map[string][]byte{}
	for _, f := range zr.File {
		name, ok := want[f.Name]
		if !ok {
			continue
		}
		// The English files are a few hundred kilobytes; a member that
		// claims far more is not this package.
		const limit = 16 << 20
		if f.UncompressedSize64 > limit {
			return PunktParams{}, fmt.Errorf("%s: %d bytes, more than a Punkt parameter file holds", f.Name, f.UncompressedSize64)
		}
		rc, err := f.Open()
		if err != nil {
			return PunktParams{}, fmt.Errorf("%s: %w", f.Name, err)
		}
		data, err := io.ReadAll(io.LimitReader(rc, limit+1))
		rc.Close()
		if err != nil {
			return PunktParams{}, fmt.Errorf("%s: %w", f.Name, err)
		}
		files[name] = data
	}
	for _, name := range PunktTabFiles() {
		if _, ok := files[name]; !ok {
			return PunktParams{}, fmt.Errorf("the archive has no punkt_tab/%s/%s (is it punkt_tab.zip?)", lang, name)
		}
	}
	return ParsePunktTab(files)
}
