package mcpmemory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memharness/memharness/llm/gateway"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// GatewayEnv is the hook through which the run's model gateway hands a
// server its variables (the loopback endpoint's URL and per-run token, under
// the names OpenAI-style libraries read): it returns NAME=value entries
// added to the child's environment for one (method, user). Servers that
// call a model reach it only through the gateway, so their calls are
// metered, cached and recorded like the harness's own.
type GatewayEnv func(method, user string) []string

type gatewayKey struct{}

// WithGatewayEnv returns ctx carrying the gateway's variables for the
// servers started under it.
func WithGatewayEnv(ctx context.Context, f GatewayEnv) context.Context {
	return context.WithValue(ctx, gatewayKey{}, f)
}

// gatewayEnv is the one place the gateway's variables join a child's
// environment (none when the run serves no gateway).
func gatewayEnv(ctx context.Context, method, user string) []string {
	if f, ok := ctx.Value(gatewayKey{}).(GatewayEnv); ok && f != nil {
		return f(method, user)
	}
	return nil
}

// baseEnv are the variables of ours every command child gets: enough to
// find its interpreter. Everything else is named in the config.
var baseEnv = []string{"PATH"}

// server is one connected MCP server: a child process of one (method,
// user), or a session with a shared URL server.
type server struct {
	method, user string
	session      *mcp.ClientSession
	cmd          *exec.Cmd // nil for a url
	stderr       *tail
	stateDir     string // removed on close; "" for a url
	callTimeout  time.Duration
	info         string           // the server's name and version from its handshake
	gw           *gateway.Gateway // the server's model gateway; nil when none

	mu      sync.Mutex // one call at a time: a server's store sees writes in order
	lastReq string
	broken  error       // set when a call timed out or the connection failed
	dead    atomic.Bool // broken, readable without mu (a call may hold it)

	closeOnce sync.Once
	stopWatch func() bool
}

// startServer starts (or connects to) the server c describes for one user.
// The child is killed when ctx is cancelled (the run's end or Ctrl-C) or
// when close is called.
//
// gwo, when set, serves a command child a model gateway of its own.
func startServer(ctx context.Context, c compiled, method, user string, gwo *gateway.Options) (*server, error) {
	s := &server{method: method, user: user, stderr: newTail(40, 8192), callTimeout: c.callTimeout}
	var transport mcp.Transport
	if c.Server.URL != "" {
		// No reconnection attempts: a server that went away fails the
		// call now, with its error, rather than after a series of retries.
		transport = &mcp.StreamableClientTransport{Endpoint: c.Server.URL, MaxRetries: -1}
	} else {
		dir, err := os.MkdirTemp("", "memharness-mcp-")
		if err != nil {
			return nil, fmt.Errorf("method %s: user %s: state folder: %w", method, user, err)
		}
		s.stateDir = dir
		vars := map[string]string{"user": user, "state_dir": dir}
		args := make([]string, len(c.command))
		for i, ps := range c.command {
			args[i] = fillString(ps, vars)
		}
		cmd := exec.Command(args[0], args[1:]...)
		if d := fillString(c.dir, vars); d != "" {
			cmd.Dir = d
		}
		env := []string{"HOME=" + dir, "TMPDIR=" + dir}
		for _, k := range append(append([]string(nil), baseEnv...), c.Server.PassEnv...) {
			if v, ok := os.LookupEnv(k); ok {
				env = append(env, k+"="+v)
			}
		}
		for _, k := range sortedKeys(c.Server.Env) {
			env = append(env, k+"="+fillString(c.env[k], vars))
		}
		env = append(env, gatewayEnv(ctx, method, user)...)
		if gwo != nil {
			gw, err := gateway.Start(ctx, *gwo)
			if err != nil {
				_ = os.RemoveAll(dir)
				return nil, fmt.Errorf("method %s: user %s: %w", method, user, err)
			}
			s.gw = gw
			// Last: exec keeps the last of a repeated name, so a passed
			// OPENAI_API_KEY never overrides the gateway's token.
			env = append(env, gw.ChildEnv()...)
		}
		cmd.Env = env
		cmd.Stderr = s.stderr
		ownGroup(cmd)
		s.cmd = cmd
		transport = &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "memharness", Version: "1"}, nil)
	sctx, cancel := context.WithTimeout(ctx, c.startTimeout)
	defer cancel()
	session, err := client.Connect(sctx, transport, nil)
	if err != nil {
		if errors.Is(sctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("no handshake within %s (server.start_timeout): %w", c.startTimeout, err)
		}
		s.close()
		return nil, s.fail("start "+s.describe(c), err)
	}
	s.session = session
	if r := session.InitializeResult(); r != nil && r.ServerInfo != nil {
		s.info = strings.TrimSpace(r.ServerInfo.Name + " " + r.ServerInfo.Version)
	}
	s.stopWatch = context.AfterFunc(ctx, s.close)
	return s, nil
}

func (s *server) describe(c compiled) string {
	if c.Server.URL != "" {
		return c.Server.URL
	}
	return strings.Join(c.Server.Command, " ")
}

// call runs one tool call under the per-call timeout and returns the
// result; a tool error (IsError) is an error too. A call that times out or
// loses the connection leaves the server broken: it is closed, and the
// next use starts a fresh one.
func (s *server) call(ctx context.Context, tool string, args any) (*mcp.CallToolResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req, _ := json.Marshal(map[string]any{"name": tool, "arguments": args})
	s.lastReq = string(req)
	if s.broken != nil {
		return nil, s.fail("call "+tool, fmt.Errorf("server unusable after an earlier failure: %w", s.broken))
	}
	cctx, cancel := context.WithTimeout(ctx, s.callTimeout)
	defer cancel()
	res, err := s.session.CallTool(cctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err() // the run stopped: not the server's fault
		}
		if errors.Is(cctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("no reply within %s (server.call_timeout): %w", s.callTimeout, err)
		}
		s.broken = err
		s.dead.Store(true)
		go s.close()
		return nil, s.fail("call "+tool, err)
	}
	if res.IsError {
		return nil, s.fail("call "+tool, fmt.Errorf("the tool reported an error: %s", textOf(res)))
	}
	return res, nil
}

// fail words an error of this server: the method, the user, what failed,
// the last request and the server's last stderr lines.
func (s *server) fail(what string, err error) error {
	msg := fmt.Sprintf("method %s: user %s: mcp server: %s: %v", s.method, s.user, what, err)
	if s.lastReq != "" {
		msg += "\n  last request: " + clip(s.lastReq, 400)
	}
	if t := s.stderr.String(); t != "" {
		msg += "\n  server stderr (last lines):\n    " + strings.ReplaceAll(strings.TrimRight(t, "\n"), "\n", "\n    ")
	}
	return &ServerError{msg: msg, err: err, Stderr: s.stderr.String()}
}

// ServerError is a failure of an MCP server, with its stderr tail.
type ServerError struct {
	msg, Stderr string
	err         error
}

func (e *ServerError) Error() string { return e.msg }
func (e *ServerError) Unwrap() error { return e.err }

// close ends the session and the child (its whole process group) and
// removes its state folder. Safe to call more than once.
func (s *server) close() {
	s.closeOnce.Do(func() {
		// A closed server is never handed out again: the next use of its
		// user starts a fresh one (the run's context that started it may end
		// before the method's use of it does, as a plan's does).
		s.dead.Store(true)
		if s.stopWatch != nil {
			s.stopWatch()
		}
		if s.session != nil {
			_ = s.session.Close()
		}
		if s.cmd != nil && s.cmd.Process != nil {
			killGroup(s.cmd)
			if s.session == nil {
				_ = s.cmd.Wait()
			}
		}
		if s.gw != nil {
			_ = s.gw.Close()
		}
		if s.stateDir != "" {
			_ = os.RemoveAll(filepath.Clean(s.stateDir))
		}
	})
}

func textOf(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return clip(strings.Join(parts, "\n"), 400)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// tail keeps the last lines (at most maxLines, maxBytes) written to it: a
// child's stderr, for the error that names it and the run directory.
type tail struct {
	mu                 sync.Mutex
	buf                []byte
	maxLines, maxBytes int
}

func newTail(lines, bytes int) *tail { return &tail{maxLines: lines, maxBytes: bytes} }

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.maxBytes {
		t.buf = t.buf[len(t.buf)-t.maxBytes:]
	}
	if n := strings.Count(string(t.buf), "\n"); n > t.maxLines {
		s := string(t.buf)
		for ; n > t.maxLines; n-- {
			s = s[strings.IndexByte(s, '\n')+1:]
		}
		t.buf = []byte(s)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
