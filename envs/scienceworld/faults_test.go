package scienceworld

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memharness/memharness/envs"
)

// fakeServer answers each route with a scripted handler; calls counts
// requests per route.
type fakeServer struct {
	routes map[string]func(n int, body map[string]any) (status int, reply string)
	calls  map[string]*atomic.Int32
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h, ok := f.routes[r.URL.Path]
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	n := int(f.calls[r.URL.Path].Add(1))
	var body map[string]any
	data, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(data, &body)
	status, reply := h(n, body)
	w.WriteHeader(status)
	_, _ = io.WriteString(w, reply)
}

func newFake(t *testing.T, routes map[string]func(int, map[string]any) (int, string)) (*fakeServer, *httptest.Server) {
	f := &fakeServer{routes: routes, calls: map[string]*atomic.Int32{}}
	for r := range routes {
		f.calls[r] = &atomic.Int32{}
	}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func ok(reply string) func(int, map[string]any) (int, string) {
	return func(int, map[string]any) (int, string) { return 200, reply }
}

// sciRoutes is a healthy sciworld server; tests override single routes.
func sciRoutes() map[string]func(int, map[string]any) (int, string) {
	return map[string]func(int, map[string]any) (int, string){
		"/create": ok(`{"id": 0}`),
		"/reset":  ok(`{"task_name": "boil", "var_num": 0, "task_description": "Your task is to boil water.", "observation": "This room is called the kitchen.", "reward": 0, "score": 0, "deleted": false, "done": false}`),
		"/step":   ok(`{"observation": "You move to the kitchen.", "reward": 0, "score": 0, "done": false}`),
		"/close":  ok(`true`),
	}
}

func boilTask() envs.Task {
	return envs.Task{ID: "boil_0", Env: Name, Data: &Target{Index: 0, TaskName: "boil"}}
}

// run starts one episode and takes one step; it returns the first error.
func runOnce(ctx context.Context, s *Suite) (envs.Step, error) {
	ep, err := s.NewEpisode(ctx, s.Tasks()[0], envs.Options{})
	if err != nil {
		return envs.Step{}, err
	}
	defer ep.Close()
	return ep.Step(ctx, "go to kitchen")
}

func TestFaults(t *testing.T) {
	cases := []struct {
		name     string
		route    string
		handler  func(int, map[string]any) (int, string)
		delay    time.Duration
		wantErr  string // substring; "" means success
		wantAsIs any    // error type to match with errors.As
		calls    int32  // requests the route should have seen (0: unchecked)
	}{
		{name: "healthy", route: "/step", handler: ok(`{"observation": "ok", "reward": 0, "score": 5, "done": false}`), calls: 1},
		{name: "create error body", route: "/create", handler: ok(`{"error": "JVM failed to start"}`), wantErr: "JVM failed to start", wantAsIs: new(*ServerError), calls: 1},
		{name: "reset error body", route: "/reset", handler: ok(`{"error": "list index out of range"}`), wantErr: "list index out of range", wantAsIs: new(*ServerError)},
		{name: "step error body", route: "/step", handler: ok(`{"error": "The task with environment 0 has finished."}`), wantErr: "has finished", wantAsIs: new(*ServerError), calls: 1},
		{name: "503 then success", route: "/step", handler: func(n int, _ map[string]any) (int, string) {
			if n < 3 {
				return 503, "busy"
			}
			return 200, `{"observation": "ok", "reward": 0, "score": 0, "done": false}`
		}, calls: 3},
		{name: "503 forever", route: "/reset", handler: func(int, map[string]any) (int, string) { return 503, "busy" }, wantErr: "giving up after 4 attempts", calls: 4},
		{name: "500 not retried", route: "/step", handler: func(int, map[string]any) (int, string) { return 500, "Internal Server Error" }, wantErr: "HTTP 500", wantAsIs: new(*HTTPError), calls: 1},
		{name: "malformed JSON", route: "/step", handler: ok(`{"observation": "ok", `), wantErr: "not JSON", calls: 1},
		{name: "HTML instead of JSON", route: "/reset", handler: ok(`<html>proxy error</html>`), wantErr: "not JSON"},
		{name: "wrong observation type", route: "/step", handler: ok(`{"observation": 5, "done": false}`), wantErr: "field observation"},
		{name: "no observation", route: "/step", handler: ok(`{"reward": 1}`), wantErr: "no observation"},
		{name: "bad done", route: "/step", handler: ok(`{"observation": "x", "done": "yes"}`), wantErr: "field done"},
		{name: "bad score", route: "/step", handler: ok(`{"observation": "x", "score": "high"}`), wantErr: "field score"},
		{name: "step not an object", route: "/step", handler: ok(`"just text"`), wantErr: "want an object"},
		{name: "create without id", route: "/create", handler: ok(`{"ok": true}`), wantErr: "no id field"},
		{name: "negative id", route: "/create", handler: ok(`-4`), wantErr: "non-negative"},
		{name: "slow past timeout", route: "/step", delay: 1500 * time.Millisecond, handler: ok(`{"observation": "late", "done": false}`), wantErr: "no reply within", calls: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			routes := sciRoutes()
			routes[tc.route] = tc.handler
			f, srv := newFake(t, routes)
			if tc.delay > 0 {
				f.routes[tc.route] = func(n int, b map[string]any) (int, string) {
					time.Sleep(tc.delay)
					return tc.handler(n, b)
				}
			}
			s, err := Connect(srv.URL, Config{Kind: SciWorld, Tasks: []envs.Task{boilTask()}, Timeout: 600 * time.Millisecond, Backoff: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			_, err = runOnce(context.Background(), s)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error = %v, want one containing %q", err, tc.wantErr)
			}
			if tc.wantAsIs != nil && !errors.As(err, tc.wantAsIs) {
				t.Errorf("error %v is not a %T", err, tc.wantAsIs)
			}
			if got := f.calls[tc.route].Load(); tc.calls != 0 && got != tc.calls {
				t.Errorf("%s saw %d requests, want %d", tc.route, got, tc.calls)
			}
		})
	}
}

// TestCancel: a cancelled context stops a request waiting on a slow server
// and a retry loop waiting out its backoff.
func TestCancel(t *testing.T) {
	routes := sciRoutes()
	routes["/create"] = func(int, map[string]any) (int, string) { return 503, "busy" }
	_, srv := newFake(t, routes)
	s, err := Connect(srv.URL, Config{Kind: SciWorld, Tasks: []envs.Task{boilTask()}, Backoff: time.Hour, Retries: 5})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	// The backoff is an hour: a minute is a hang detector, not a speed
	// target (a loaded machine is never that slow to notice a deadline).
	start := time.Now()
	_, err = runOnce(ctx, s)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Minute {
		t.Fatalf("err = %v after %v", err, time.Since(start))
	}
}

// TestConnectionRefused: requests that never reached a server are retried,
// then reported.
func TestConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	s, err := Connect(url, Config{Kind: SciWorld, Tasks: []envs.Task{boilTask()}, Backoff: time.Millisecond, Retries: 2})
	if err != nil {
		t.Fatal(err)
	}
	_, err = runOnce(context.Background(), s)
	if err == nil || !strings.Contains(err.Error(), "giving up after 3 attempts") {
		t.Fatalf("err = %v", err)
	}
}

// TestBrokenEpisode: after a failed step the episode refuses further steps
// and Close asks the server to drop the environment.
func TestBrokenEpisode(t *testing.T) {
	routes := sciRoutes()
	routes["/step"] = ok(`{"error": "java.lang.NullPointerException"}`)
	f, srv := newFake(t, routes)
	s, err := Connect(srv.URL, Config{Kind: SciWorld, Tasks: []envs.Task{boilTask()}})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := envs.Run(context.Background(), s, s.Tasks()[0], envs.Replay([]string{"look around", "look around"}), envs.Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tr.End, "error: env:") || tr.Steps != 1 || tr.Score != 0 {
		t.Errorf("transcript %+v", tr)
	}
	if f.calls["/close"].Load() != 1 {
		t.Errorf("/close called %d times, want 1", f.calls["/close"].Load())
	}
}

func TestConfigErrors(t *testing.T) {
	cases := []struct {
		name string
		url  string
		cfg  Config
		want string
	}{
		{"unknown kind", "http://h", Config{Kind: "minecraft"}, "unknown AgentGym environment kind"},
		{"family mismatch", "http://h", Config{Kind: WebShop, Family: FamilyA, Tasks: IndexTasks("webshop", []int{0})}, "speak family B"},
		{"bad scheme", "ftp://h", Config{Kind: SciWorld}, "want http(s)"},
		{"no host", "http://", Config{Kind: SciWorld}, "want http(s)"},
		{"no tasks", "http://h", Config{Kind: ALFWorld}, "has no tasks"},
	}
	for _, tc := range cases {
		if _, err := Connect(tc.url, tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
	s, err := Connect("http://h", Config{Kind: SciWorld, Tasks: []envs.Task{{ID: "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.NewEpisode(context.Background(), s.Tasks()[0], envs.Options{}); !errors.Is(err, errNoTarget) {
		t.Errorf("task without target: %v", err)
	}
}

// A hostile server's scores and rewards are clamped to their ranges.
func TestHostileScoresClamped(t *testing.T) {
	for _, tc := range []struct {
		step            string
		wantRaw, reward float64
	}{
		{`{"observation": "x", "reward": -1e9, "score": -1e9, "done": false}`, -100, -1},
		{`{"observation": "x", "reward": 1e300, "score": 1e300, "done": false}`, 100, 1},
		{`{"observation": "x", "reward": -1e9, "done": false}`, -100, -1},
	} {
		routes := sciRoutes()
		routes["/step"] = ok(tc.step)
		_, srv := newFake(t, routes)
		s, err := Connect(srv.URL, Config{Kind: SciWorld, Tasks: []envs.Task{boilTask()}, PartialScore: true, Timeout: time.Second, Backoff: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		ep, err := s.NewEpisode(context.Background(), s.Tasks()[0], envs.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st, err := ep.Step(context.Background(), "go to kitchen")
		if err != nil {
			t.Fatal(err)
		}
		e := ep.(*Episode)
		if e.RawScore() != tc.wantRaw || st.Reward != tc.reward || e.Score() < 0 || e.Score() > 1 {
			t.Errorf("%s: raw %v reward %v score %v; want raw %v reward %v", tc.step, e.RawScore(), st.Reward, e.Score(), tc.wantRaw, tc.reward)
		}
		ep.Close()
	}
}
