// Package gateway serves the run's model stack to a child process (a method
// written in another language, an MCP server) as an OpenAI-compatible
// endpoint on loopback, so that every call the child makes goes through the
// same path as the harness's own: the configured backbone (the embedded sim
// or the user's endpoint), the response cache, retries, spending ceilings,
// the meter and the call record.
//
// The gateway never holds the user's API key: it calls an llm.Model, which
// holds it. The child gets a per-run random token instead (ChildEnv), and a
// request without it is refused before anything reaches the model.
//
// A call is attributed the way the harness's own calls are: the context a
// call runs under carries the llm.CallLog its records go to (the caller
// commits them with the sample or the saved state they paid for), and the
// request's Purpose, SampleID, Unit and Affinity say what it was for. The
// harness tells the gateway whose calls are arriving with Bind, for as long
// as it waits on the child; the child may name a purpose per request in the
// X-Memharness-Purpose header.
package gateway

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/memharness/memharness/llm"
)

// Header names a child may send.
const (
	// PurposeHeader names what a call is for ("extract", "update", ...);
	// the call's purpose becomes "<method>.<name>" (see Scope).
	PurposeHeader = "X-Memharness-Purpose"
	// ScopeHeader names the harness call a request belongs to (the ID Bind
	// returned), needed only while several are bound at once.
	ScopeHeader = "X-Memharness-Scope"
)

// Defaults of Options' bounds.
const (
	DefaultMaxBodyBytes = 32 << 20
	DefaultCallTimeout  = 10 * time.Minute
)

// Options configure a gateway.
type Options struct {
	// Model answers chat completions unless a Scope names its own; it is
	// the run's model stack (metered, cached, budgeted). Required.
	Model llm.Model
	// Embedder answers /v1/embeddings unless a Scope names its own; nil
	// refuses embeddings with a message saying so.
	Embedder llm.Embedder
	// Method is the name of the method (or server) the child serves: it
	// prefixes the purposes the child names. Required: it must match
	// purposeName's charset.
	Method string
	// ModelName and EmbeddingModelName are the IDs /v1/models lists and a
	// reply names when the backend does not say who answered. Whatever
	// model a request names, the run's backbone answers it.
	ModelName, EmbeddingModelName string
	// EmbeddingDims is the size of the embedder's vectors (0: not said),
	// given to the child as MEMHARNESS_EMBEDDING_DIMS: libraries that size
	// a vector store ahead (mem0) need it.
	EmbeddingDims int
	// MaxBodyBytes bounds a request body (DefaultMaxBodyBytes when 0).
	MaxBodyBytes int64
	// CallTimeout bounds one request's model call, retries included
	// (DefaultCallTimeout when 0).
	CallTimeout time.Duration
}

// Scope is whom the calls arriving while it is bound are attributed to.
type Scope struct {
	// Purpose is the purpose of calls that name none (e.g. "predict" for a
	// prediction, so that the planner and the reports see it as one); ""
	// means the gateway's Method.
	Purpose string
	// SampleID, Unit and Affinity are set on every request (see
	// llm.Request): the sample the calls serve (it keys the cache and the
	// sim's draws), the answer they count towards, the user or task that
	// routes them to one endpoint.
	SampleID, Unit, Affinity string
	// Model and Embedder, when set, replace the gateway's for this scope
	// (a planner's rehearsal hands each call its own recording model).
	Model    llm.Model
	Embedder llm.Embedder
}

// Gateway is a running endpoint. Its methods are safe for concurrent use.
type Gateway struct {
	opts  Options
	token string
	ln    net.Listener
	srv   *http.Server
	done  chan struct{}
	// base is cancelled by Close and by the context Start was given.
	base      context.Context
	cancel    context.CancelFunc
	closeOnce sync.Once
	closeErr  error
	serveErr  error

	mu     sync.Mutex
	scopes map[string]*bound
}

// bound is one bound scope and the requests it is serving.
type bound struct {
	Scope
	id  string
	ctx context.Context
	// cancel ends the scope's in-flight requests; wg waits for them.
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// draws counts identical requests within the scope, so a child that
	// asks the same thing twice gets two draws (Request.Attempt), the
	// same two on a re-run.
	mu    sync.Mutex
	draws map[string]int
	err   error // the first model error (Binding.Err)
}

// fail keeps the scope's first model error.
func (b *bound) fail(err error) {
	b.mu.Lock()
	if b.err == nil {
		b.err = err
	}
	b.mu.Unlock()
}

// Start listens on a free loopback port and serves until Close or until ctx
// ends.
func Start(ctx context.Context, o Options) (*Gateway, error) {
	if o.Model == nil {
		return nil, errors.New("gateway: no model")
	}
	if !validName(o.Method) {
		return nil, fmt.Errorf("gateway: method name %q: want 1-64 characters of letters, digits, '.', '_' or '-'", o.Method)
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.ModelName == "" {
		o.ModelName = "memharness-backbone"
	}
	if o.EmbeddingModelName == "" {
		o.EmbeddingModelName = "memharness-embedder"
	}
	token, err := randomHex(32)
	if err != nil {
		return nil, fmt.Errorf("gateway: token: %w", err)
	}
	// Loopback only: the port is never reachable from another machine.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("gateway: listen on loopback: %w", err)
	}
	base, cancel := context.WithCancel(context.WithoutCancel(ctx))
	g := &Gateway{
		opts: o, token: "mh-" + token, ln: ln, done: make(chan struct{}),
		base: base, cancel: cancel, scopes: map[string]*bound{},
	}
	g.srv = &http.Server{
		Handler:           g.routes(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute,
		WriteTimeout:      o.CallTimeout + time.Minute,
		IdleTimeout:       2 * time.Minute,
		BaseContext:       func(net.Listener) context.Context { return base },
	}
	go func() {
		defer close(g.done)
		if err := g.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			g.serveErr = err
		}
	}()
	stop := context.AfterFunc(ctx, func() { g.Close() })
	go func() { <-g.done; stop() }()
	return g, nil
}

// URL is the API root a client is given, ending in /v1.
func (g *Gateway) URL() string { return "http://" + g.ln.Addr().String() + "/v1" }

// Addr is the address the gateway listens on.
func (g *Gateway) Addr() net.Addr { return g.ln.Addr() }

// Close stops the gateway: in-flight requests are cancelled and the port
// is released. It is safe to call more than once.
func (g *Gateway) Close() error {
	g.closeOnce.Do(func() {
		g.cancel()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := g.srv.Shutdown(ctx); err != nil {
			g.closeErr = g.srv.Close()
		}
		<-g.done
		if g.closeErr == nil {
			g.closeErr = g.serveErr
		}
	})
	return g.closeErr
}

// Binding is a bound scope, from Bind to Release.
type Binding struct {
	g    *Gateway
	b    *bound
	once sync.Once
}

// Bind attributes the calls arriving from now on to s, under ctx: ctx's
// llm.CallLog receives their records and its end cancels them. Bind while
// the harness waits on the child (one JSON-RPC call, one MCP tool call)
// and Release when the child has answered; take the CallLog after Release.
func (g *Gateway) Bind(ctx context.Context, s Scope) *Binding {
	id, err := randomHex(8)
	if err != nil {
		// crypto/rand does not fail on the platforms Go supports.
		panic(fmt.Sprintf("gateway: scope id: %v", err))
	}
	b := &bound{Scope: s, id: id, draws: map[string]int{}}
	b.ctx, b.cancel = context.WithCancel(ctx)
	g.mu.Lock()
	g.scopes[id] = b
	g.mu.Unlock()
	return &Binding{g: g, b: b}
}

// ID names the scope; a child serving several harness calls at once sends
// it in X-Memharness-Scope (the harness passes it along with the call).
func (x *Binding) ID() string { return x.b.id }

// Release ends the scope: its calls still in flight are cancelled and
// waited for, so once Release returns no record of the scope is still to
// come, and a later request naming it is refused. It is safe to call more
// than once.
func (x *Binding) Release() {
	x.once.Do(func() {
		x.g.mu.Lock()
		delete(x.g.scopes, x.b.id)
		x.g.mu.Unlock()
		x.b.cancel()
		x.b.wg.Wait()
	})
}

// Err is the first error the model or embedder returned to a call of the
// scope (nil when none did). The child sees it only as an HTTP status, so
// the harness's side wraps it into the error it returns for the child's
// failure: errors.Is then still finds llm.ErrStopRun (a spending ceiling,
// which stops the run) or a planner's sentinel.
func (x *Binding) Err() error {
	x.b.mu.Lock()
	defer x.b.mu.Unlock()
	return x.b.err
}

// scopeFor finds the bound scope a request belongs to and registers the
// request with it; done must be called when the request ends.
func (g *Gateway) scopeFor(r *http.Request) (b *bound, done func(), err *apiError) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if id := r.Header.Get(ScopeHeader); id != "" {
		b = g.scopes[id]
		if b == nil {
			return nil, nil, conflict(fmt.Sprintf("%s %q names no harness call in progress (it ended, or the ID is wrong)", ScopeHeader, id))
		}
	} else {
		switch len(g.scopes) {
		case 0:
			return nil, nil, conflict("no harness call is in progress: the gateway answers only while the harness waits on the method " +
				"(a call made outside one could not be attributed, so it is refused rather than left out of the accounting)")
		case 1:
			for _, only := range g.scopes {
				b = only
			}
		default:
			return nil, nil, conflict(fmt.Sprintf("%d harness calls are in progress at once: send the one this request serves in %s "+
				"(the ID the harness gave with the call)", len(g.scopes), ScopeHeader))
		}
	}
	b.wg.Add(1)
	return b, b.wg.Done, nil
}

// authorized compares the bearer token in constant time.
func (g *Gateway) authorized(r *http.Request) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(g.token)) == 1
}

func randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// validName is the charset of method names and of the purposes a child
// names: they become usage.json keys and report lines.
func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}
