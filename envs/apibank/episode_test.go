package apibank

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
)

func embeddedSuite(t testing.TB) *Suite {
	t.Helper()
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func taskByID(t testing.TB, s *Suite, id string) envs.Task {
	t.Helper()
	for _, task := range s.Tasks() {
		if task.ID == id {
			return task
		}
	}
	t.Fatalf("no task %s", id)
	return envs.Task{}
}

func TestEpisodeScoring(t *testing.T) {
	s := embeddedSuite(t)
	task := taskByID(t, s, "level-1-given-desc/QueryBalance-GetUserToken-level-2-1")
	for _, tc := range []struct {
		name    string
		actions []string
		score   float64
		invalid int
	}{
		{"gold", []string{"[ToolSearcher(keywords='bank balance')]", "[GetUserToken(username='oskar', password='fjord42')]", "[QueryBalance(token='t7oskar33dd44ee55ff')]", "[Finish()]"}, 1, 0},
		{"stops at token", []string{"[GetUserToken(username='oskar', password='fjord42')]", "[Finish()]"}, 0, 0},
		{"wrong token", []string{"[QueryBalance(token='nope')]", "[Finish()]"}, 0, 0},
		{"last call counts", []string{"[QueryBalance(token='t7oskar33dd44ee55ff')]", "[GetToday()]"}, 0, 0},
		{"token with spaces", []string{"[QueryBalance(token=' t7oskar33dd44ee55ff ')]"}, 0, 0}, // upstream drops its strip()
		{"garbage then gold", []string{"hello", "[NoSuchTool(x='1')]", "[QueryBalance(tokn='x')]", "[QueryBalance(token='t7oskar33dd44ee55ff')]"}, 1, 3},
		{"missing argument", []string{"[QueryBalance()]"}, 0, 1},
	} {
		tr, err := envs.Run(context.Background(), s, task, envs.Replay(tc.actions), envs.Options{Seed: 1}, 10)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Score != tc.score || tr.Invalid != tc.invalid {
			t.Errorf("%s: score %v invalid %d, want %v and %d\n%+v", tc.name, tr.Score, tr.Invalid, tc.score, tc.invalid, tr.Turns)
		}
	}
}

func TestObservations(t *testing.T) {
	s := embeddedSuite(t)
	task := taskByID(t, s, "level-1-given-desc/QueryBalance-GetUserToken-level-2-1")
	ep, err := s.NewEpisode(context.Background(), task, envs.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ep.Observation(), "User: How much money is in my account? I am oskar, password fjord42.") {
		t.Errorf("initial observation: %q", ep.Observation())
	}
	for _, tc := range []struct{ action, want string }{
		{"[GetUserToken(username='oskar', password='fjord42')]", "Here's the execution result: {'token': 't7oskar33dd44ee55ff'}"},
		{"[GetUserToken(username='oskar', password='x')]", "Here's the execution result: None"},
		{"[QueryBalance(token='t7oskar33dd44ee55ff')]", "Here's the execution result: 88.0"},
		{"[ToolSearcher(keywords='bank balance')]", "Here's the execution result: [{'name': 'GetUserToken'"},
		{"[Calculator(formula='1+1')]", "Here's the execution result: 2.0"},
		{"nonsense", "Error! no valid tool call"},
	} {
		st, err := ep.Step(context.Background(), tc.action)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(st.Observation, tc.want) {
			t.Errorf("%s: observation %q, want prefix %q", tc.action, st.Observation, tc.want)
		}
	}
	st, _ := ep.Step(context.Background(), "[Finish()]")
	if !st.Done || !ep.Done() {
		t.Error("Finish did not end the episode")
	}
	if st, _ := ep.Step(context.Background(), "[GetToday()]"); !st.Invalid {
		t.Error("step after Finish accepted")
	}
}

// fakeEmbedder maps texts to bag-of-letter vectors, enough to rank APIs.
type fakeEmbedder struct{ fail bool }

func (f fakeEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	if f.fail {
		return nil, errors.New("embedder down")
	}
	out := make([][]float32, len(texts))
	for i, s := range texts {
		v := make([]float32, 26)
		for _, w := range searchTokens(s) {
			v[(int(w[0])-'a'+26)%26] += float32(len(w))
		}
		out[i] = v
	}
	return out, nil
}

func TestToolSearcherEmbedder(t *testing.T) {
	s := embeddedSuite(t)
	task := s.Tasks()[0]
	ep, err := s.NewEpisode(context.Background(), task, envs.Options{Embedder: fakeEmbedder{}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := ep.Step(context.Background(), "[ToolSearcher(keywords='stock price')]")
	if err != nil || !strings.HasPrefix(st.Observation, resultPrefix+"{'name': ") && !strings.HasPrefix(st.Observation, resultPrefix+"[{'name': 'GetUserToken'") {
		t.Errorf("observation %q, err %v", st.Observation, err)
	}
	ep, _ = s.NewEpisode(context.Background(), task, envs.Options{Embedder: fakeEmbedder{fail: true}})
	if _, err := ep.Step(context.Background(), "[ToolSearcher(keywords='x')]"); err == nil {
		t.Error("embedder failure not reported as an environment error")
	}
}

func TestToolSearcherFallback(t *testing.T) {
	s := embeddedSuite(t)
	for _, tc := range []struct{ keywords, want string }{
		{"stock price", "QueryStock"}, {"add an alarm", "AddAlarm"}, {"translate text", "Translate"},
		{"hospital appointment booking", "AppointmentRegistration"}, {"zzzz", ""},
	} {
		i := s.data.searchIndex.best(tc.keywords)
		got := ""
		if i >= 0 {
			got = s.data.searchable[i].Name
		}
		if got != tc.want {
			t.Errorf("best(%q) = %q, want %q", tc.keywords, got, tc.want)
		}
	}
}

func TestGarbageAgentEndsCleanly(t *testing.T) {
	s := embeddedSuite(t)
	inputs := []string{"", "[", "[Finish(", "[(x)]", "[AddAgenda(token=)]", "[RecordHealthData(health_data=[{]})]",
		"[Calculator(formula='((((')]", "\x00\xff[Wiki(keyword='\u00e9')]", "[BookHotel(room_count='-1')]"}
	n := 0
	garbage := envs.AgentFunc(func(context.Context, envs.Task, []envs.Turn) (string, error) {
		n++
		return inputs[n%len(inputs)] + strings.Repeat("}", n%7), nil
	})
	for _, task := range s.Tasks() {
		tr, err := envs.Run(context.Background(), s, task, garbage, envs.Options{Seed: 3}, 100)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Score != 0 || tr.Steps != 100 || !strings.HasPrefix(tr.End, "max_steps") {
			t.Errorf("%s: score %v steps %d end %q", task.ID, tr.Score, tr.Steps, tr.End)
		}
	}
}

func FuzzEpisodeStep(f *testing.F) {
	s, err := Embedded()
	if err != nil {
		f.Fatal(err)
	}
	for _, a := range []string{"[QueryStock(stock_code='nvlx', date='2024-4-30')]", "[Calculator(formula='(1+2)*3')]",
		"[AddScene(name='x', devices=[{'name': 'a', 'description': 'b'}])]", "[ModifyRegistration(appointment_id='70011001')]",
		"[ForgotPassword(status='Forgot Password', username='mira', email='mira@example.org')]",
		"[RecordHealthData(user_id='p1', time='2024-01-01 00:00:00', health_data=[{'name': 'x'}])]",
		"[TimedSwitch(name='lamp', time='2024-01-01 1:2:3', on=True)]", "[SearchEngine(keyword='bread')]"} {
		f.Add(a)
	}
	tasks := s.Tasks()
	f.Fuzz(func(t *testing.T, action string) {
		ep, err := s.NewEpisode(context.Background(), tasks[len(action)%len(tasks)], envs.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if _, err := ep.Step(context.Background(), action); err != nil {
				t.Fatalf("%q: %v", action, err)
			}
		}
		if sc := ep.Score(); sc != 0 && sc != 1 {
			t.Fatalf("score %v", sc)
		}
	})
}
