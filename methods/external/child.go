package external

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// conn is one session with a method: a child process or an HTTP service.
// Calls are made one at a time (the caller holds the conn's lock).
type conn interface {
	// call sends one request and decodes the result into out. A failure
	// of the transport (not the method's own error reply) breaks the conn:
	// later calls return the same error.
	call(ctx context.Context, method string, params, out any) error
	// close ends the session: shutdown, then the process group is killed
	// if it has not exited within the grace period.
	close()
}

// child is a method running as a child process in a process group of its
// own, so that it and everything it starts can be killed at once.
type child struct {
	method  string // the method's name in the config, for errors
	argv    []string
	timeout time.Duration
	// startTimeout bounds init, which may load a model or an index.
	startTimeout time.Duration
	stderr       *tailWriter

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte // stdout, one line each; closed at EOF
	exited chan struct{}
	exit   error // the process's exit status, set before exited closes

	// tap, when set, sees every line sent (out) and received (tests
	// validate the traffic against the protocol's schemas).
	tap func(out bool, line []byte)

	nextID int64
	last   string // the last request, summarised, for errors
	broken error
}

// gracePeriod is how long a child may take to exit after shutdown.
const gracePeriod = 2 * time.Second

// maxLine bounds one line of a child's output.
const maxLine = 256 << 20

// startChild starts argv in dir with env, its stderr kept by tail.
func startChild(method string, argv []string, dir string, env []string, timeout, startTimeout time.Duration, tail *tailWriter) (*child, error) {
	if len(argv) == 0 {
		return nil, fmt.Errorf("method %s: empty command", method)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stderr = tail
	cmd.SysProcAttr = childAttr()
	// A grandchild holding stderr open must not keep Wait from returning.
	cmd.WaitDelay = gracePeriod
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting it: %w", err)
	}
	c := &child{method: method, argv: argv, timeout: timeout, startTimeout: startTimeout, stderr: tail, cmd: cmd, stdin: stdin,
		lines: make(chan []byte), exited: make(chan struct{})}
	go c.read(stdout)
	return c, nil
}

// read hands stdout's lines to lines and, at EOF, waits for the process.
func (c *child) read(stdout io.Reader) {
	r := bufio.NewReaderSize(stdout, 64<<10)
	for {
		line, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 {
			c.lines <- line
		}
		if err != nil {
			break
		}
	}
	close(c.lines)
	c.exit = c.cmd.Wait()
	close(c.exited)
}

func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		line = append(line, part...)
		if len(line) > maxLine {
			return line[:maxLine], fmt.Errorf("a line longer than %d bytes", maxLine)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

func (c *child) call(ctx context.Context, method string, params, out any) error {
	if err := ctx.Err(); err != nil {
		return err // a stopping run: not the method's failure
	}
	if c.broken != nil {
		return c.broken
	}
	c.nextID++
	id := c.nextID
	b, err := json.Marshal(request{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	if err != nil {
		return fmt.Errorf("method %s: encoding %s: %w", c.method, method, err)
	}
	c.last = summarise(b)
	if c.tap != nil {
		c.tap(true, b)
	}
	limit := c.timeout
	if method == MethodInit {
		limit = c.startTimeout
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	written := make(chan error, 1)
	go func() { _, err := c.stdin.Write(append(b, '\n')); written <- err }()
	for {
		select {
		case err := <-written:
			if err != nil {
				return c.fail(fmt.Errorf("writing the request: %w", err))
			}
			written = nil
			continue
		case line, ok := <-c.lines:
			if !ok {
				<-c.exited
				return c.fail(fmt.Errorf("the child exited (%s) before answering", exitText(c.exit)))
			}
			return c.reply(id, line, out)
		case <-timer.C:
			return c.fail(timeoutError(method, limit))
		case <-ctx.Done():
			// The child's state is unknown once a request is abandoned:
			// it is stopped, and the run stops with the context.
			c.fail(fmt.Errorf("stopped: %w", context.Cause(ctx)))
			return ctx.Err()
		}
	}
}

// reply reads one response line for request id.
func (c *child) reply(id int64, line []byte, out any) error {
	if c.tap != nil {
		c.tap(false, line)
	}
	resp, err := decodeResponse(line, id)
	if err != nil {
		return c.fail(err)
	}
	if resp.Error != nil {
		return &MethodError{Method: c.method, Request: c.last, Err: resp.Error}
	}
	if err := decodeResult(resp.Result, out); err != nil {
		return c.fail(err)
	}
	return nil
}

// decodeResponse checks one response line against the request's id.
func decodeResponse(line []byte, id int64) (response, error) {
	var resp response
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&resp); err != nil {
		return resp, fmt.Errorf("the child wrote something that is not a JSON-RPC response (%v): %s", err, quote(line))
	}
	if resp.JSONRPC != "2.0" {
		return resp, fmt.Errorf(`the response has jsonrpc %q, not "2.0": %s`, resp.JSONRPC, quote(line))
	}
	if resp.ID == nil || *resp.ID != id {
		got := "none"
		if resp.ID != nil {
			got = fmt.Sprint(*resp.ID)
		}
		return resp, fmt.Errorf("the response answers id %s, not the request's id %d: %s", got, id, quote(line))
	}
	if resp.Error == nil && resp.Result == nil {
		return resp, fmt.Errorf("the response has neither result nor error: %s", quote(line))
	}
	return resp, nil
}

func decodeResult(raw json.RawMessage, out any) error {
	if out == nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(out); err != nil {
		return fmt.Errorf("the result does not read as this method's reply (%v): %s", err, quote(raw))
	}
	return nil
}

// fail breaks the conn with cause: the process group is killed and the
// error (naming the method, the request and the child's last stderr lines)
// is returned from now on.
func (c *child) fail(cause error) error {
	c.kill()
	c.broken = &ChildError{Method: c.method, Command: c.argv, Request: c.last, Err: cause,
		Stderr: c.stderr.Last(), Log: c.stderr.Path()}
	return c.broken
}

// kill ends the child's whole process group and waits for it.
func (c *child) kill() {
	_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	_ = c.stdin.Close()
	go func() {
		for range c.lines { // drain, so read reaches Wait
		}
	}()
	select {
	case <-c.exited:
	case <-time.After(gracePeriod):
	}
}

func (c *child) close() {
	if c.broken == nil {
		ctx, cancel := context.WithTimeout(context.Background(), gracePeriod)
		t := c.timeout
		c.timeout = gracePeriod
		_ = c.call(ctx, MethodShutdown, struct{}{}, nil)
		c.timeout = t
		cancel()
		_ = c.stdin.Close()
		select {
		case <-c.exited:
		case <-time.After(gracePeriod):
		}
	}
	c.kill()
	if c.broken == nil {
		c.broken = &ChildError{Method: c.method, Command: c.argv, Request: c.last, Err: errors.New("the method was closed")}
	}
}

func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// summarise is a request as an error shows it, cut to a readable length.
func summarise(b []byte) string {
	const max = 400
	if len(b) > max {
		return string(b[:max]) + fmt.Sprintf("… (%d bytes)", len(b))
	}
	return string(b)
}

func quote(b []byte) string {
	const max = 200
	s := string(bytes.TrimSpace(b))
	if len(s) > max {
		s = s[:max] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// ChildError is a broken session with a method: it names the method, the
// last request and the child's last stderr lines. It wraps llm.ErrStopRun
// through Unwrap (see errors.go), so the run stops and leaves the samples
// not yet attempted for a re-run.
type ChildError struct {
	Method  string
	Command []string
	URL     string
	Request string
	Err     error
	Stderr  []string
	Log     string // the file with the child's whole stderr ("" when none)
}

func (e *ChildError) Error() string {
	var b strings.Builder
	where := strings.Join(e.Command, " ")
	if e.URL != "" {
		where = e.URL
	}
	fmt.Fprintf(&b, "external method %s (%s): %v; last request: %s", e.Method, where, e.Err, e.Request)
	if len(e.Stderr) > 0 {
		fmt.Fprintf(&b, "; its last stderr lines:\n  %s", strings.Join(e.Stderr, "\n  "))
	} else if len(e.Command) > 0 {
		b.WriteString("; it wrote nothing to stderr")
	}
	if e.Log != "" {
		fmt.Fprintf(&b, "\n(whole stderr: %s)", e.Log)
	}
	return b.String()
}

// MethodError is the method's own error reply to one request: the session
// goes on, the sample records the error and a re-run retries it.
type MethodError struct {
	Method  string
	Request string
	Err     *rpcError
}

func (e *MethodError) Error() string {
	return fmt.Sprintf("external method %s: %v; request: %s", e.Method, e.Err, e.Request)
}

// tailWriter keeps a child's stderr: all of it in a file (when a path is
// given) and its last lines in memory for errors.
type tailWriter struct {
	mu      sync.Mutex
	f       *os.File
	path    string
	lines   []string
	partial []byte
	keep    int
}

func newTail(path string, keep int) (*tailWriter, error) {
	t := &tailWriter{path: path, keep: keep}
	if path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, err
		}
		t.f = f
	}
	return t, nil
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.f != nil {
		_, _ = t.f.Write(p) // a full disk must not stop the child; the tail is kept
	}
	t.partial = append(t.partial, p...)
	for {
		i := bytes.IndexByte(t.partial, '\n')
		if i < 0 {
			break
		}
		t.push(string(t.partial[:i]))
		t.partial = t.partial[i+1:]
	}
	if len(t.partial) > 4096 {
		t.push(string(t.partial))
		t.partial = nil
	}
	return len(p), nil
}

func (t *tailWriter) push(line string) {
	if len(line) > 500 {
		line = line[:500] + "…"
	}
	t.lines = append(t.lines, line)
	if len(t.lines) > t.keep {
		t.lines = t.lines[len(t.lines)-t.keep:]
	}
}

// Last is the last lines written, the unterminated one included.
func (t *tailWriter) Last() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.lines...)
	if len(t.partial) > 0 {
		out = append(out, string(t.partial))
	}
	if len(out) > t.keep {
		out = out[len(out)-t.keep:]
	}
	return out
}

// Path is the file holding the whole stderr ("" when none).
func (t *tailWriter) Path() string { return t.path }

func (t *tailWriter) Close() error {
	if t.f == nil {
		return nil
	}
	return t.f.Close()
}

// timeoutError says which limit a request ran past and the key that sets it.
func timeoutError(method string, limit time.Duration) error {
	key := "timeout"
	if method == MethodInit {
		key = "start_timeout"
	}
	return fmt.Errorf("no answer to %s within %s (the method's %s)", method, limit, key)
}
