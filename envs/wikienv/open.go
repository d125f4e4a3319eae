package wikienv

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memharness/memharness/internal/safefile"
)

// hotpotFiles are the question files OpenHotpotQA looks for, in order: the
// 100 hard dev-distractor questions ExpeL and Reflexion use (converted to
// JSONL), then the official releases.
func hotpotFiles() []string {
	return []string{
		"hotpot_dev_distractor_hard_sample100.jsonl",
		"hotpot_dev_distractor_v1.json",
		"hotpot_train_v1.1.json",
	}
}

// feverFiles are the claim files OpenFEVER looks for, in order.
func feverFiles() []string {
	return []string{"paper_dev.jsonl", "paper_test.jsonl", "shared_task_dev.jsonl", "train.jsonl"}
}

//go:embed embedded
var embedded embed.FS

// OpenHotpotQA loads HotpotQA questions from dir (the first of
// hotpot_dev_distractor_hard_sample100.jsonl, hotpot_dev_distractor_v1.json,
// hotpot_train_v1.1.json; JSONL or a JSON array). The document store holds
// every question's context paragraphs plus any page dump in dir
// (pages.jsonl, wiki-pages/*.jsonl); a question's own paragraphs win when
// titles collide.
func OpenHotpotQA(dir string) (*Suite, error) {
	name, err := firstFile(dir, hotpotFiles(), NameHotpotQA)
	if err != nil {
		return nil, err
	}
	return loadHotpotQA(safefile.FS(os.DirFS(dir), 0), dir, name, splitOf(name))
}

// OpenFEVER loads FEVER claims from dir (the first of paper_dev.jsonl,
// paper_test.jsonl, shared_task_dev.jsonl, train.jsonl). The document store
// is the page dump in dir (pages.jsonl and/or FEVER's wiki-pages/*.jsonl);
// without one every search fails and only the claim is there to judge.
func OpenFEVER(dir string) (*Suite, error) {
	name, err := firstFile(dir, feverFiles(), NameFEVER)
	if err != nil {
		return nil, err
	}
	return loadFEVER(safefile.FS(os.DirFS(dir), 0), dir, name, splitOf(name))
}

// EmbeddedHotpotQA is a small HotpotQA suite written for this project (a
// made-up world, so a model cannot answer from memory), in the official
// layout and compiled into the binary.
func EmbeddedHotpotQA() (*Suite, error) {
	sub, err := fs.Sub(embedded, "embedded/hotpotqa")
	if err != nil {
		return nil, fmt.Errorf("embedded hotpotqa: %w", err)
	}
	return loadHotpotQA(sub, "embedded/hotpotqa", "questions.jsonl", "test")
}

// EmbeddedFEVER is a small FEVER suite written for this project: claims in
// the paper_dev layout over pages in FEVER's wiki-pages layout.
func EmbeddedFEVER() (*Suite, error) {
	sub, err := fs.Sub(embedded, "embedded/fever")
	if err != nil {
		return nil, fmt.Errorf("embedded fever: %w", err)
	}
	return loadFEVER(sub, "embedded/fever", "claims.jsonl", "test")
}

func loadHotpotQA(fsys fs.FS, label, file, split string) (*Suite, error) {
	dump, err := readPageFiles(fsys, label)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", NameHotpotQA, err)
	}
	s := &Suite{name: NameHotpotQA, maxSteps: MaxStepsHotpotQA}
	seen := map[string]int{}
	pages := dump
	err = eachRecord(fsys, file, label+"/"+file, func(raw []byte, line int) error {
		q, err := parseHotpotQA(raw)
		if err != nil {
			return err
		}
		if prev, dup := seen[q.ID]; dup {
			return fmt.Errorf(`field "_id": %q repeats line %d`, q.ID, prev)
		}
		seen[q.ID] = line
		s.tasks = append(s.tasks, hotpotTask(q, split))
		pages = append(pages, q.pages()...)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", NameHotpotQA, err)
	}
	if len(s.tasks) == 0 {
		return nil, fmt.Errorf("%s: %s/%s holds no questions", NameHotpotQA, label, file)
	}
	s.store = NewStore(pages)
	return s, nil
}

func loadFEVER(fsys fs.FS, label, file, split string) (*Suite, error) {
	pages, err := readPageFiles(fsys, label)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", NameFEVER, err)
	}
	s := &Suite{name: NameFEVER, maxSteps: MaxStepsFEVER, store: NewStore(pages)}
	seen := map[int64]int{}
	err = eachRecord(fsys, file, label+"/"+file, func(raw []byte, line int) error {
		c, err := parseFEVER(raw)
		if err != nil {
			return err
		}
		if prev, dup := seen[c.ID]; dup {
			return fmt.Errorf(`field "id": %d repeats line %d`, c.ID, prev)
		}
		seen[c.ID] = line
		s.tasks = append(s.tasks, feverTask(c, split))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", NameFEVER, err)
	}
	if len(s.tasks) == 0 {
		return nil, fmt.Errorf("%s: %s/%s holds no claims", NameFEVER, label, file)
	}
	return s, nil
}

// firstFile returns the first of names present in dir, or an error that
// names the fetch command.
func firstFile(dir string, names []string, env string) (string, error) {
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			return n, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%s: %w", env, err)
		}
	}
	return "", fmt.Errorf("%s: none of %s in %s (run `bench data fetch %s`)", env, strings.Join(names, ", "), dir, env)
}

// splitOf reads the split from an official file name.
func splitOf(name string) string {
	for _, s := range []string{"train", "dev", "test"} {
		if strings.Contains(name, s) {
			return s
		}
	}
	return ""
}
