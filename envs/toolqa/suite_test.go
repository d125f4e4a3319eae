package toolqa

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memharness/memharness/envs"
)

func TestOpenFixtures(t *testing.T) {
	s := openFixtures(t)
	counts := map[string]int{}
	for _, task := range s.Tasks() {
		counts[task.Data.(*Question).Source]++
		if task.Env != Name || task.Instruction == "" || task.Difficulty == 0 {
			t.Errorf("task %+v is incomplete", task)
		}
	}
	if counts[SourceToolQA] != 230 || counts[SourceLifeMem] != 80 {
		t.Errorf("tasks by source = %v, want 230 official and 80 LifeMem", counts)
	}
	if n := len(s.Table().Rows); n != 5741 {
		t.Errorf("table has %d rows, want 5741", n)
	}
	if n := len(s.Subset(SourceLifeMem).Tasks()); n != 80 {
		t.Errorf("LifeMem subset has %d tasks", n)
	}
}

func TestEmbedded(t *testing.T) {
	s := embedded(t)
	if n := len(s.Tasks()); n < 10 {
		t.Fatalf("embedded suite has %d tasks, want at least 10", n)
	}
	if s.MaxSteps() != 20 || s.Name() != "toolqa" {
		t.Errorf("MaxSteps %d, Name %q", s.MaxSteps(), s.Name())
	}
}

func TestOpenErrors(t *testing.T) {
	write := func(t *testing.T, files map[string]string) string {
		dir := t.TempDir()
		for name, body := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	header := "Date,Open,High,Low,Close,Volume,Currency\n"
	good := header + "2000-01-03,1.0,2.0,0.5,1.5,10,USD\n"
	q := `{"qid": "easy-coffee-0000", "question": "What was the opening price of coffee on 2000-01-03?", "answer": "1.0"}` + "\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"no csv", map[string]string{EasyFile: q}, "toolqa data not found"},
		{"no questions", map[string]string{CSVFile: good}, "no question file"},
		{"bad header", map[string]string{CSVFile: "Date,Open\n", EasyFile: q}, "coffee_price.csv"},
		{"bad price", map[string]string{CSVFile: header + "2000-01-03,1.0,2.0,0.5,1.5,10,USD\n2000-01-04,x,2.0,0.5,1.5,10,USD\n", EasyFile: q}, "coffee_price.csv:3: field Open"},
		{"bad date", map[string]string{CSVFile: header + "03/01/2000,1.0,2.0,0.5,1.5,10,USD\n", EasyFile: q}, "coffee_price.csv:2: field Date"},
		{"bad volume", map[string]string{CSVFile: header + "2000-01-03,1.0,2.0,0.5,1.5,1.5,USD\n", EasyFile: q}, "coffee_price.csv:2: field Volume"},
		{"bad json", map[string]string{CSVFile: good, HardFile: q + "{oops\n"}, "coffee-hard.jsonl:2"},
		{"missing answer", map[string]string{CSVFile: good, EasyFile: `{"qid": "a", "question": "q"}` + "\n"}, "coffee-easy.jsonl:1: field answer"},
		{"duplicate qid", map[string]string{CSVFile: good, EasyFile: q + "\n" + q}, "coffee-easy.jsonl:3: field qid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open(write(t, tc.files))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Open: %v, want an error containing %q", err, tc.want)
			}
		})
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, ErrNoData) {
		t.Errorf("missing dir: %v, want ErrNoData", err)
	}
}

func TestEpisode(t *testing.T) {
	s := embedded(t)
	task := s.Tasks()[0] // opening price on 2023-03-02: 173.95
	for _, tc := range []struct {
		name    string
		actions []string
		score   float64
		invalid int
		end     string
	}{
		{"direct answer", []string{"Finish[173.95]"}, 1, 0, "done"},
		{"wrong answer", []string{"Finish[174]"}, 0, 0, "done"},
		{"thought before action", []string{"I know this.\nFinish[173.95]"}, 1, 0, "done"},
		{"unknown tool then answer", []string{"Search[coffee]", "LoadDB[coffee]", "FilterDB[Date=2023-03-02]", "GetValue[Open]", "Finish[173.95 USD]"}, 1, 1, "done"},
		{"gives up", []string{"Calculate[1/0]"}, 0, 1, "agent_stop"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := envs.Run(context.Background(), s, task, envs.Replay(tc.actions), envs.Options{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Score != tc.score || tr.Invalid != tc.invalid || tr.End != tc.end {
				t.Errorf("score %v invalid %d end %q; want %v %d %q\n%+v", tr.Score, tr.Invalid, tr.End, tc.score, tc.invalid, tc.end, tr.Turns)
			}
		})
	}
}

func TestStepAfterDone(t *testing.T) {
	s := embedded(t)
	ep, err := s.NewEpisode(context.Background(), s.Tasks()[0], envs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	if st, _ := ep.Step(context.Background(), "Finish[173.95]"); !st.Done || st.Reward != 1 || st.Observation != msgCorrect {
		t.Fatalf("finish: %+v", st)
	}
	st, err := ep.Step(context.Background(), "Finish[0]")
	if err != nil || !st.Invalid || !st.Done || ep.Score() != 1 {
		t.Errorf("step after the end: %+v, %v, score %v", st, err, ep.Score())
	}
}

func TestForeignTask(t *testing.T) {
	s := embedded(t)
	if _, err := s.NewEpisode(context.Background(), envs.Task{ID: "x"}, envs.Options{}); err == nil {
		t.Error("NewEpisode accepted a task without a question")
	}
	if _, err := s.Gold(envs.Task{ID: "x"}); err == nil {
		t.Error("Gold accepted a task without a question")
	}
}

// garbage returns a random action: junk bytes, half-formed tool calls and
// hostile SQL, never a Finish.
func garbage(r *rand.Rand) string {
	tools := []string{"LoadDB", "FilterDB", "GetValue", "SQLInterpreter", "Calculate", "Search", ""}
	args := []string{"", "coffee", "Date>=x, and", "Open", "DELETE FROM coffee_data", "SELECT * FROM coffee_data",
		"((((1", "max(", "'; DROP TABLE x; --", "\x00\xff", strings.Repeat("[", 50)}
	switch r.Intn(3) {
	case 0:
		b := make([]byte, r.Intn(80))
		r.Read(b)
		return string(b)
	case 1:
		return tools[r.Intn(len(tools))] + "[" + args[r.Intn(len(args))]
	}
	return fmt.Sprintf("%s[%s]", tools[r.Intn(len(tools))], args[r.Intn(len(args))])
}

func TestGarbageAgent(t *testing.T) {
	s := embedded(t)
	r := rand.New(rand.NewSource(7))
	agent := envs.AgentFunc(func(context.Context, envs.Task, []envs.Turn) (string, error) { return garbage(r), nil })
	for _, task := range s.Tasks()[:3] {
		tr, err := envs.Run(context.Background(), s, task, agent, envs.Options{}, 100)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Steps != 100 || tr.End != "max_steps" || tr.Score != 0 || tr.Invalid == 0 {
			t.Errorf("%s: steps %d end %q score %v invalid %d", task.ID, tr.Steps, tr.End, tr.Score, tr.Invalid)
		}
	}
}

func TestAttachCreatesNoFile(t *testing.T) {
	s := embedded(t)
	target := filepath.Join(t.TempDir(), "attack.db")
	if _, ok := sqlStep(t, s, "ATTACH DATABASE '"+target+"' AS x"); ok {
		t.Error("ATTACH succeeded")
	}
	if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ATTACH touched the file system: %v", err)
	}
}

func FuzzEpisodeStep(f *testing.F) {
	for _, s := range []string{"LoadDB[coffee]", "FilterDB[Date=2023-03-02]", "GetValue[Open]", "Calculate[1+1]",
		"SQLInterpreter[SELECT * FROM coffee_data]", "SQLInterpreter[DELETE FROM coffee_data]", "Finish[1]", "x"} {
		f.Add(s)
	}
	s := embedded(f).WithLimits(Limits{Rows: 20, Chars: 2000, Timeout: 100 * time.Millisecond})
	task := s.Tasks()[0]
	f.Fuzz(func(t *testing.T, action string) {
		ep, err := s.NewEpisode(context.Background(), task, envs.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer ep.Close()
		for _, a := range []string{"LoadDB[coffee]", action, action} {
			st, err := ep.Step(context.Background(), a)
			if err != nil {
				t.Fatalf("Step(%q): environment error %v", a, err)
			}
			if st.Observation == "" {
				t.Fatalf("Step(%q): empty observation", a)
			}
		}
		if sc := ep.Score(); sc != 0 && sc != 1 {
			t.Fatalf("score %v", sc)
		}
	})
}
