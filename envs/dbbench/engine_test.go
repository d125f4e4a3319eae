package dbbench

import (
	"bufio"
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/dbbench/sqlengine"
)

// hangEnv makes the test binary act as a bench-sql engine that never
// answers a statement containing HANG_FOREVER: an engine stuck where it
// cannot be interrupted (go-mysql-server while planning).
const hangEnv = "DBBENCH_TEST_HANGING_ENGINE"

func TestMain(m *testing.M) {
	if os.Getenv(hangEnv) != "" {
		pr, pw := io.Pipe()
		go func() {
			sc := bufio.NewScanner(os.Stdin)
			sc.Buffer(make([]byte, 1<<20), 1<<26)
			for sc.Scan() {
				if strings.Contains(sc.Text(), "HANG_FOREVER") {
					// Stuck with every goroutine asleep, as on a lock. In
					// a build without cgo the runtime would abort this
					// as a deadlock unless the engine keeps a timer
					// pending (sqlengine.keepAlive).
					select {}
				}
				if strings.Contains(sc.Text(), "DIE_LOUDLY") {
					os.Stderr.WriteString("fatal error: engine gave up\n")
					os.Exit(2)
				}
				pw.Write(append(sc.Bytes(), '\n'))
			}
			pw.Close()
		}()
		if err := sqlengine.Serve(pr, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// stepOK runs one statement that must succeed and returns its observation.
func stepOK(t *testing.T, ep envs.Episode, sql string) string {
	t.Helper()
	st, err := ep.Step(context.Background(), OperationText(sql))
	if err != nil || st.Invalid {
		t.Fatalf("%s: %+v %v", sql, st, err)
	}
	return st.Observation
}

// A statement the engine cannot be interrupted in is stopped at the
// deadline by killing its process; the episode goes on with its state.
func TestStuckEngineIsKilledAtDeadline(t *testing.T) {
	t.Setenv(hangEnv, "1")
	t.Setenv(EngineEnv, os.Args[0])
	base, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	s, err := base.With(Config{Timeout: time.Second, MaxSteps: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	ep, err := s.NewEpisode(ctx, firstTask(t, s, "gym_sessions", true), envs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	stepOK(t, ep, "INSERT INTO gym_sessions (trainer, room) VALUES ('Zed', 'Z1')")
	start := time.Now()
	st, err := ep.Step(ctx, OperationText("SELECT 'HANG_FOREVER'"))
	took := time.Since(start)
	if err != nil || !st.Invalid || !strings.Contains(st.Observation, "execution time exceeded") {
		t.Fatalf("stuck statement: %+v %v", st, err)
	}
	if took > 30*time.Second { // a hang guard; the deadline is about 2 s
		t.Errorf("stuck statement took %v", took)
	}
	if got := stepOK(t, ep, "SELECT COUNT(*) FROM gym_sessions WHERE trainer = 'Zed'"); got != "[(1,)]" {
		t.Errorf("after the kill the episode lost its state: %s", got)
	}
	t.Logf("stuck statement stopped after %v", took.Round(10*time.Millisecond))
}

// An engine that dies mid-statement says why in the observation; the next
// statement gets a new process that replays the episode.
func TestDeadEngineSaysWhy(t *testing.T) {
	t.Setenv(hangEnv, "1")
	t.Setenv(EngineEnv, os.Args[0])
	base, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	s, err := base.With(Config{Timeout: 5 * time.Second, MaxSteps: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	ep, err := s.NewEpisode(ctx, firstTask(t, s, "gym_sessions", true), envs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	stepOK(t, ep, "INSERT INTO gym_sessions (trainer, room) VALUES ('Zed', 'Z1')")
	st, err := ep.Step(ctx, OperationText("SELECT 'DIE_LOUDLY'"))
	if err != nil || !st.Invalid || !strings.Contains(st.Observation, "engine gave up") {
		t.Fatalf("dead engine: %+v %v", st, err)
	}
	if got := stepOK(t, ep, "SELECT COUNT(*) FROM gym_sessions WHERE trainer = 'Zed'"); got != "[(1,)]" {
		t.Errorf("after the engine died the episode lost its state: %s", got)
	}
}

// A statement within every static limit that still needs gigabytes is
// stopped at the episode's memory ceiling; the episode goes on.
func TestMemoryCeiling(t *testing.T) {
	for name, s := range suites(t, Config{Timeout: 20 * time.Second, MaxSteps: 100, MaxMemory: 300 << 20}) {
		if name != "go-mysql-server" {
			continue // a server has its own limits
		}
		ctx := context.Background()
		ep, err := s.NewEpisode(ctx, firstTask(t, s, "gym_sessions", true), envs.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer ep.Close()
		stepOK(t, ep, "INSERT INTO gym_sessions (trainer, room) VALUES ('Zed', 'Z1')")
		a := func(n int) string { return "'" + strings.Repeat("a", n) + "'" }
		bomb := "SELECT LENGTH(REPLACE(REPLACE(REPLACE(" + a(5000) + ", 'a', " + a(3000) + "), 'a', " + a(40) + "), 'a', " + a(2) + "))"
		st, err := ep.Step(ctx, OperationText(bomb))
		if err != nil || !st.Invalid || !strings.Contains(st.Observation, "Out of memory") {
			t.Fatalf("memory bomb: %.300s %v", st.Observation, err)
		}
		if got := stepOK(t, ep, "SELECT COUNT(*) FROM gym_sessions WHERE trainer = 'Zed'"); got != "[(1,)]" {
			t.Errorf("after the kill the episode lost its state: %s", got)
		}
	}
}
