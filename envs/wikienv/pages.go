package wikienv

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// maxLine bounds one JSONL record (a long Wikipedia page fits easily).
const maxLine = 64 << 20

// pageRecord is one line of a page dump. Two layouts are read: ours,
// {"title", "text"} or {"title", "sentences"}, and FEVER's wiki-pages,
// {"id", "text", "lines"} where lines is "0\tsentence\tlink…\n1\t…".
type pageRecord struct {
	Title     *string  `json:"title"`
	Text      string   `json:"text"`
	Sentences []string `json:"sentences"`
	ID        *string  `json:"id"`
	Lines     string   `json:"lines"`
}

// ReadPages parses a JSONL page dump; name labels errors.
func ReadPages(r io.Reader, name string) ([]Page, error) {
	var pages []Page
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := 0
	for sc.Scan() {
		line++
		raw := strings.TrimSpace(sc.Text())
		if raw == "" {
			continue
		}
		var rec pageRecord
		if err := json.Unmarshal([]byte(raw), &rec); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		p, err := rec.page()
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if p.Title != "" && len(p.Sentences) > 0 {
			pages = append(pages, p)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: line %d: %w", name, line+1, err)
	}
	return pages, nil
}

func (rec pageRecord) page() (Page, error) {
	switch {
	case rec.Title != nil:
		if strings.TrimSpace(*rec.Title) == "" {
			return Page{}, fmt.Errorf(`field "title": empty`)
		}
		sents := cleanSentences(rec.Sentences)
		if len(sents) == 0 {
			sents = splitSentences(rec.Text)
		}
		return Page{Title: strings.TrimSpace(*rec.Title), Sentences: sents}, nil
	case rec.ID != nil:
		// FEVER's dump starts with an empty-id record; it is skipped.
		if *rec.ID == "" {
			return Page{}, nil
		}
		sents := feverLines(rec.Lines)
		if len(sents) == 0 {
			sents = splitSentences(ptbEscapes.Replace(rec.Text))
		}
		return Page{Title: DisplayTitle(*rec.ID), Sentences: sents}, nil
	}
	return Page{}, fmt.Errorf(`want a "title" or an "id" field`)
}

// feverLines extracts the sentence column of FEVER's "lines" field.
func feverLines(lines string) []string {
	var out []string
	for l := range strings.SplitSeq(lines, "\n") {
		cols := strings.Split(l, "\t")
		if len(cols) < 2 {
			continue
		}
		if s := strings.TrimSpace(ptbEscapes.Replace(cols[1])); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// splitSentences follows ReAct's page reader: paragraphs on newlines, then
// sentences on ". ", each ending in a period. Unlike ReAct it does not add
// a second period to a sentence that already ends in one.
func splitSentences(text string) []string {
	var out []string
	for para := range strings.SplitSeq(text, "\n") {
		for s := range strings.SplitSeq(para, ". ") {
			s = strings.TrimSpace(s)
			if s == "" {
				continue
			}
			if !strings.HasSuffix(s, ".") {
				s += "."
			}
			out = append(out, s)
		}
	}
	return out
}

// cleanSentences trims sentences (HotpotQA's carry a leading space) and
// drops empty ones.
func cleanSentences(in []string) []string {
	out := make([]string, 0, len(in))
	for _, s := range in {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// pageDumpFiles lists the optional page dumps in fsys: pages.jsonl and
// FEVER's wiki-pages/*.jsonl, in a stable order.
func pageDumpFiles(fsys fs.FS) ([]string, error) {
	var files []string
	if _, err := fs.Stat(fsys, "pages.jsonl"); err == nil {
		files = append(files, "pages.jsonl")
	}
	wiki, err := fs.Glob(fsys, "wiki-pages/*.jsonl")
	if err != nil {
		return nil, fmt.Errorf("list page dumps: %w", err)
	}
	slices.Sort(wiki)
	return append(files, wiki...), nil
}

// readPageFiles loads every page dump in fsys; label prefixes file names in
// errors (the directory the user named).
func readPageFiles(fsys fs.FS, label string) ([]Page, error) {
	files, err := pageDumpFiles(fsys)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	var pages []Page
	for _, name := range files {
		ps, err := readPageFile(fsys, name, path.Join(label, name))
		if err != nil {
			return nil, err
		}
		pages = append(pages, ps...)
	}
	return pages, nil
}

func readPageFile(fsys fs.FS, name, label string) ([]Page, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("page dump: %w", err)
	}
	defer f.Close()
	return ReadPages(f, label)
}
