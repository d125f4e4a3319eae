package pramemrel

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const standin = "testdata/standin"

// standinPins pins the stand-in files as Files pins the release.
func standinPins(t *testing.T, dir string) []File {
	t.Helper()
	pins := make([]File, len(Files))
	for i, f := range Files {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		pins[i] = File{Path: f.Path, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(b))}
	}
	return pins
}

func openStandin(t *testing.T) *Pack {
	t.Helper()
	p, err := OpenPinned(standin, standinPins(t, standin))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExtraction(t *testing.T) {
	p := openStandin(t)
	for _, tc := range []struct{ name, got, want string }{
		{"question", p.Question("live_sent_gift"), "Stand-in: will they send a gift?"},
		{"question fallback", p.Question("ad_clicked"), "Stand-in: will they do it? (ad_clicked)"},
		{"continuous", p.Continuous["live_watch_seconds"], "Stand-in: seconds in this room?"},
		{"scenario", p.Scenario, "Stand-in clock {timestamp}; the user meets a <{action_type}> scene.\nScene details:\n{context_str}"},
		{"record", p.Record, "[Rec {i}]at {timestamp}\n  kind: {action_type}\n  seen: {context_str}\n  did: {result_str}\n"},
		{"record cost", p.RecordCost, "[Rec]at {timestamp}\n  kind: {action_type}\n  seen: {context_str}\n  did: {result_str}\n"},
		{"header", p.HistoryHeader, "Stand-in header: {len(display_actions)} records, ~{current_tokens} tokens, oldest first:\n"},
		{"no history", p.NoHistory, "Stand-in: this user has no records at all."},
		{"no valid history", p.NoValidHistory, "Stand-in: none of this user's records fit."},
		{"memory title", p.Memory.Title, "# Stand-in memory"},
		{"memory headings", p.Memory.Pattern + "|" + p.Memory.Calibration + "|" + p.Memory.Proposals, "\n## Stand-in patterns|\n## Stand-in calibrations|\n## Stand-in proposals"},
		{"memory item", p.Memory.Item, "{i}. {exp}"},
		{"memory none", p.Memory.None, "(empty)"},
		{"eval join", p.EvalJoin, "{prompt}\n\n{exp_memory_prompt}"},
		{"practice task", p.PracticeTask, "## Stand-in task {task_id} ##\n{prompt_part2}\n\n"},
		{"search practice", p.SearchPractice, "Stand-in: which keyword?"},
		{"label", p.LabelIntro + "|" + p.LabelFrom + "|" + p.LabelTo, "Stand-in answers follow; unstated means No. |[Rec|[Answer"},
		{"movie record", strings.Join(func() []string { c, r := p.MovieRecord("Heat", "1995", "Action|Crime", 4); return []string{c, r} }(), "|"), "Stand-in film Heat (1995), kinds Action|Crime|Stand-in rating 4"},
		{"binary first part", p.BinaryParts[0].Text, `Stand-in role line with "quotes" and {{braces}}.`},
		{"binary slot", p.BinaryParts[5].Slot, "user_profile_short"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %q, want %q", tc.name, tc.got, tc.want)
		}
	}
	if len(p.BinaryParts) != 15 || len(p.MovieParts) != 10 {
		t.Errorf("parts: %d binary, %d movie", len(p.BinaryParts), len(p.MovieParts))
	}
	if p.PracticeMaxTokens != 1234 || p.ShuffleSeed != 77 {
		t.Errorf("max tokens %d, seed %d", p.PracticeMaxTokens, p.ShuffleSeed)
	}
	if got := p.Stage["prompt_for_evaluate_after_main"]; got != "Stand-in: you may use this memory.\n{memory}\nNow answer above." {
		t.Errorf("eval stage = %q", got)
	}
}

// copyTree copies the stand-in pack so a test may change it.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestOpenErrors(t *testing.T) {
	pins := standinPins(t, standin)

	tampered := copyTree(t, standin)
	if err := os.WriteFile(filepath.Join(tampered, "utils", "prompts.py"), []byte("prompt_for_predict = 'x'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := OpenPinned(tampered, pins)
	if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), filepath.Join("utils", "prompts.py")) || !strings.Contains(err.Error(), "bench data fetch pramem-release") {
		t.Errorf("tampered file: %v", err)
	}

	missing := copyTree(t, standin)
	os.Remove(filepath.Join(missing, "evaluator.py"))
	if _, err := OpenPinned(missing, pins); err == nil || !strings.Contains(err.Error(), "evaluator.py is missing") {
		t.Errorf("missing file: %v", err)
	}

	if _, err := OpenPinned(filepath.Join(t.TempDir(), "nowhere"), pins); err == nil || !strings.Contains(err.Error(), "bench data fetch") {
		t.Errorf("missing folder: %v", err)
	}

	// The real pins refuse the stand-ins, naming the first file.
	if _, err := Open(standin); !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "prompt_builder.py") {
		t.Errorf("stand-ins against the real pins: %v", err)
	}

	// A file with the right digest but the wrong shape lists what is off.
	reshaped := copyTree(t, standin)
	if err := os.WriteFile(filepath.Join(reshaped, "evaluator.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = OpenPinned(reshaped, standinPins(t, reshaped))
	if err == nil || !strings.Contains(err.Error(), "evaluator.py: no f-string joining") {
		t.Errorf("reshaped file: %v", err)
	}
}

func TestSpecs(t *testing.T) {
	specs := Specs("")
	if len(specs) != len(Files) {
		t.Fatalf("%d specs", len(specs))
	}
	s := specs[1]
	if s.URL != "https://raw.githubusercontent.com/icip-cas/PraMem/"+Commit+"/utils/prompts.py" || s.FileName != "utils/prompts.py" || s.SHA256 != Files[1].SHA256 {
		t.Errorf("spec %+v", s)
	}
	if got := Specs("http://x/")[0].URL; got != "http://x/prompt_builder.py" {
		t.Errorf("base override: %s", got)
	}
}

// golden compares got with testdata/golden/name, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file:\n got %q\nwant %q", name, got, want)
	}
}
