package dbbench

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/memharness/memharness/envs/dbbench/sqlwire"
)

// EngineEnv names the bench-sql binary to use instead of the one next to
// the running executable.
const EngineEnv = "MEMHARNESS_BENCH_SQL"

// EngineBinary is the file name of the SQL engine process (cmd/bench-sql).
const EngineBinary = "bench-sql"

// procBackend runs each episode's database on go-mysql-server in a
// bench-sql process. A statement that overruns the timeout (the engine
// cannot be interrupted while it plans) or the memory ceiling gets its
// process killed; a fresh one replays the episode's statements so the
// episode goes on with its state. Processes are reused across episodes
// (each episode gets a fresh engine inside), since starting one costs
// about half a second of CPU.
type procBackend struct {
	pool     *enginePool
	timeout  time.Duration
	maxBytes int64
}

func newProcBackend(bin string, timeout time.Duration, maxBytes int64) procBackend {
	return procBackend{pool: &enginePool{bin: bin}, timeout: timeout, maxBytes: maxBytes}
}

func (b procBackend) close() error { b.pool.close(); return nil }

func (procBackend) dialect() dialect { return dialect{exactAggregates: true, materialize: true} }

func (b procBackend) start(ctx context.Context, db string) (session, error) {
	s := &procSession{b: b, db: db}
	if err := s.attach(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// enginePool keeps idle engine processes.
type enginePool struct {
	bin  string
	mu   sync.Mutex
	idle []*engineProc
}

// maxIdle bounds the idle processes kept (about 100 MiB each).
const maxIdle = 4

func (p *enginePool) get() (*engineProc, error) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		e := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return e, nil
	}
	p.mu.Unlock()
	return startEngine(p.bin)
}

func (p *enginePool) put(e *engineProc) {
	p.mu.Lock()
	if len(p.idle) < maxIdle {
		p.idle = append(p.idle, e)
		e = nil
	}
	p.mu.Unlock()
	if e != nil {
		e.stop()
	}
}

func (p *enginePool) close() {
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, e := range idle {
		e.stop()
	}
}

// engineProc is one bench-sql process.
type engineProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	resps  chan procReply
	stderr *tailBuffer
}

// tailBuffer keeps the last bytes an engine wrote to stderr, so that an
// engine that dies (a Go runtime abort, a panic outside a statement) says
// why in the observation instead of a bare EOF.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const stderrTail = 4 << 10

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if n := len(t.buf); n > stderrTail {
		t.buf = append(t.buf[:0], t.buf[n-stderrTail:]...)
	}
	return len(p), nil
}

// firstLine is the first non-empty line of what was kept (a Go fatal
// error or panic puts its cause there).
func (t *tailBuffer) firstLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, l := range strings.Split(string(t.buf), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

type procReply struct {
	resp sqlwire.Response
	err  error
}

func startEngine(bin string) (*engineProc, error) {
	cmd := exec.Command(bin)
	tail := &tailBuffer{}
	cmd.Stderr = tail
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("sql engine: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("sql engine: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("sql engine: start %s: %w", bin, err)
	}
	e := &engineProc{cmd: cmd, stdin: stdin, resps: make(chan procReply, 1), stderr: tail}
	go func(out io.Reader, ch chan<- procReply) {
		dec := json.NewDecoder(bufio.NewReaderSize(out, 1<<16))
		for {
			var r sqlwire.Response
			if err := dec.Decode(&r); err != nil {
				ch <- procReply{err: err}
				close(ch)
				return
			}
			ch <- procReply{resp: r}
		}
	}(stdout, e.resps)
	return e, nil
}

// kill ends the process at once and waits for it.
func (e *engineProc) kill() {
	e.stdin.Close()
	e.cmd.Process.Kill()
	e.cmd.Wait()
	for range e.resps { // let the reader goroutine finish
	}
}

// stop ends the process by closing its input.
func (e *engineProc) stop() {
	e.stdin.Close()
	done := make(chan struct{})
	go func() { e.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		e.cmd.Process.Kill()
		<-done
	}
	for range e.resps {
	}
}

// errMemory is what a statement stopped at the memory ceiling reports.
func errMemory(limit int64) error {
	return &sqlError{Num: 1041, State: "HY000", Msg: fmt.Sprintf("Out of memory: the statement needed more than this episode's %d MiB", limit>>20)}
}

// call sends one request and waits for its answer, the context's end or
// the memory ceiling, whichever comes first; in the last two cases the
// process is killed and killed is true.
func (e *engineProc) call(ctx context.Context, req sqlwire.Request, maxBytes int64) (resp sqlwire.Response, killed bool, err error) {
	b, err := json.Marshal(req)
	if err != nil {
		return resp, false, err
	}
	if _, err := e.stdin.Write(append(b, '\n')); err != nil {
		e.kill()
		return resp, true, fmt.Errorf("sql engine: %w", err)
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r, ok := <-e.resps:
			if !ok || r.err != nil {
				e.kill()
				if why := e.stderr.firstLine(); why != "" {
					return resp, true, fmt.Errorf("sql engine exited (%s): %v", why, r.err)
				}
				return resp, true, fmt.Errorf("sql engine exited: %v", r.err)
			}
			return r.resp, false, nil
		case <-ctx.Done():
			e.kill()
			return resp, true, ctx.Err()
		case <-tick.C:
			if rss := residentBytes(e.cmd.Process.Pid); maxBytes > 0 && rss > maxBytes {
				e.kill()
				return resp, true, errMemory(maxBytes)
			}
		}
	}
}

// procSession is one episode on an engine process.
type procSession struct {
	b    procBackend
	db   string
	proc *engineProc // nil after a kill, until the next statement
	// replay holds the statements that succeeded, to rebuild the
	// database in a new process after a kill.
	replay []string
}

// attach takes a process, creates a fresh engine and database in it and
// replays the episode so far.
func (s *procSession) attach(ctx context.Context) error {
	e, err := s.b.pool.get()
	if err != nil {
		return err
	}
	if _, killed, err := e.call(ctx, sqlwire.Request{Op: sqlwire.OpStart, DB: s.db, MemoryLimit: s.b.maxBytes * 3 / 4}, s.b.maxBytes); err != nil {
		if !killed {
			e.kill()
		}
		return err
	}
	for _, stmt := range s.replay {
		r, killed, err := e.call(ctx, sqlwire.Request{Op: sqlwire.OpExec, Stmt: stmt, TimeoutNS: int64(s.b.timeout)}, s.b.maxBytes)
		if err == nil && (r.Err != nil || r.Timeout) {
			err = fmt.Errorf("statement %.60q no longer runs", stmt)
		}
		if err != nil {
			if !killed {
				e.kill()
			}
			return fmt.Errorf("sql engine: replaying the episode after a restart: %w", err)
		}
	}
	s.proc = e
	return nil
}

// ready starts a new process and replays the episode when the last one
// was killed. Its time is bounded by the replay's own size, not by the next
// statement's budget (see restarter).
func (s *procSession) ready(ctx context.Context) error {
	if s.proc != nil {
		return nil
	}
	budget := 10*time.Second + time.Duration(len(s.replay)+1)*(s.b.timeout+time.Second)
	actx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	return s.attach(actx)
}

func (s *procSession) exec(ctx context.Context, stmt string, maxRows int) (result, error) {
	if s.proc == nil {
		if err := s.attach(ctx); err != nil {
			return result{}, err
		}
	}
	resp, killed, err := s.proc.call(ctx, sqlwire.Request{Op: sqlwire.OpExec, Stmt: stmt, MaxRows: maxRows, TimeoutNS: int64(s.b.timeout)}, s.b.maxBytes)
	if killed {
		// Overrun, memory ceiling or a dead process: the next statement
		// starts a new process that replays the episode.
		s.proc = nil
	}
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return result{}, errTimeout()
		}
		if ctx.Err() != nil {
			return result{}, ctx.Err()
		}
		return result{}, err
	}
	if resp.Timeout {
		return result{}, errTimeout()
	}
	if e := resp.Err; e != nil {
		return result{}, &sqlError{Num: e.Num, State: e.State, Msg: e.Msg}
	}
	s.replay = append(s.replay, stmt)
	res := result{hasRows: resp.HasRows, truncated: resp.Truncated}
	for _, row := range resp.Rows {
		cells := make([]any, len(row))
		for i, c := range row {
			v, err := cellValue(c)
			if err != nil {
				return result{}, fmt.Errorf("sql engine: %w", err)
			}
			cells[i] = v
		}
		res.rows = append(res.rows, cells)
	}
	return res, nil
}

// close hands the process back for the next episode, which starts a
// fresh engine in it (the database lives only in the process).
func (s *procSession) close() error {
	if s.proc != nil {
		s.b.pool.put(s.proc)
		s.proc = nil
	}
	return nil
}

// cellValue converts a wire cell to the Go value pyrepr renders.
func cellValue(c sqlwire.Cell) (any, error) {
	bad := func(err error) (any, error) { return nil, fmt.Errorf("cell %s %q: %w", c.K, c.V, err) }
	switch c.K {
	case sqlwire.KindNull:
		return nil, nil
	case sqlwire.KindBool:
		return c.V == "true", nil
	case sqlwire.KindInt:
		v, err := strconv.ParseInt(c.V, 10, 64)
		if err != nil {
			return bad(err)
		}
		return v, nil
	case sqlwire.KindUint:
		v, err := strconv.ParseUint(c.V, 10, 64)
		if err != nil {
			return bad(err)
		}
		return v, nil
	case sqlwire.KindBigInt:
		return pyInt(c.V), nil
	case sqlwire.KindFloat:
		v, err := strconv.ParseFloat(c.V, 64)
		if err != nil {
			return bad(err)
		}
		return v, nil
	case sqlwire.KindDecimal:
		return pyDecimal(c.V), nil
	case sqlwire.KindString:
		return c.V, nil
	case sqlwire.KindBytes:
		v, err := base64.StdEncoding.DecodeString(c.V)
		if err != nil {
			return bad(err)
		}
		return v, nil
	case sqlwire.KindDate:
		tm, err := time.Parse("2006-01-02", c.V)
		if err != nil {
			return bad(err)
		}
		return pyDate{tm.Year(), int(tm.Month()), tm.Day()}, nil
	case sqlwire.KindDateTime:
		tm, err := time.Parse(time.RFC3339Nano, c.V)
		if err != nil {
			return bad(err)
		}
		return tm, nil
	}
	return bad(errors.New("unknown kind"))
}

// residentBytes is a process's resident memory (0 when unknown).
func residentBytes(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// findEngine locates bench-sql: $MEMHARNESS_BENCH_SQL, next to the running
// executable, or, inside a source checkout (tests, go run), built on
// demand into the user cache directory.
func findEngine() (string, error) {
	if p := os.Getenv(EngineEnv); p != "" {
		return p, nil
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), EngineBinary)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
	}
	return buildEngine()
}

// buildMu serialises on-demand builds within a process and built keeps
// the result (a process builds at most once); the rename makes concurrent
// builds by several processes safe.
var (
	buildMu sync.Mutex
	built   string
)

// buildEngine runs `go build` on cmd/bench-sql of the checkout this file
// was compiled from, when there is one.
func buildEngine() (string, error) {
	buildMu.Lock()
	defer buildMu.Unlock()
	if built != "" {
		return built, nil
	}
	_, self, _, ok := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(self), "..", "..", "cmd", EngineBinary)
	if _, err := os.Stat(src); !ok || err != nil {
		return "", fmt.Errorf("dbbench: the SQL engine binary %s is not next to this executable (build it with `make build`) or named by %s", EngineBinary, EngineEnv)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "memharness")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("dbbench: build %s: %w", EngineBinary, err)
	}
	out := filepath.Join(dir, EngineBinary)
	tmp := fmt.Sprintf("%s.%d.tmp", out, os.Getpid())
	cmd := exec.Command("go", "build", "-o", tmp, ".")
	cmd.Dir = src
	if msg, err := cmd.CombinedOutput(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("dbbench: build %s: %v\n%s", EngineBinary, err, msg)
	}
	if err := os.Rename(tmp, out); err != nil {
		return "", fmt.Errorf("dbbench: build %s: %w", EngineBinary, err)
	}
	built = out
	return out, nil
}
