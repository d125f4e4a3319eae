package mcpmemory

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/methods/predict"
)

// Options are the kind's own keys, written in the method's block beside
// the common ones (docs/CONFIG_KEYS.md lists them).
type Options struct {
	// Server says how to reach the MCP server.
	Server Server `yaml:"server"`
	// Write is the tool call that stores one history record.
	Write ToolCall `yaml:"write"`
	// Search is the tool call that retrieves memories for a question.
	Search SearchCall `yaml:"search"`
}

// Server is a stdio command started per (method, user), or the URL of a
// running streamable-HTTP server shared by every user.
type Server struct {
	// Command is the stdio server's program and arguments, started once per
	// (method, user); {user} and {state_dir} (a fresh folder of that user's
	// server, removed when it stops) may appear.
	Command []string `yaml:"command,omitempty"`
	// Dir is the command's working directory (default: the current one);
	// {user} and {state_dir} may appear.
	Dir string `yaml:"dir,omitempty"`
	// Env are variables set in the child's environment ({user} and
	// {state_dir} may appear in values, e.g. MEMORY_FILE_PATH:
	// "{state_dir}/memory.jsonl"). The child gets no other variable of ours
	// but PATH and pass_env's; HOME and TMPDIR are its state folder.
	Env map[string]string `yaml:"env,omitempty"`
	// PassEnv names variables copied from our environment. Names that look
	// like credentials (*_KEY, *_TOKEN, *_SECRET, *PASSWORD*) are refused:
	// a child never sees the user's API keys.
	PassEnv []string `yaml:"pass_env,omitempty"`
	// URL is a running streamable-HTTP MCP server shared by every user,
	// instead of command; the write and search arguments must then carry
	// {user}, the only thing that keeps users apart.
	URL string `yaml:"url,omitempty"`
	// CallTimeout bounds one tool call (a Go duration, default 30s); a call
	// past it fails its sample and the server is stopped.
	CallTimeout string `yaml:"call_timeout,omitempty"`
	// StartTimeout bounds a server's start and handshake (default 60s).
	StartTimeout string `yaml:"start_timeout,omitempty"`
}

// ToolCall names a tool and the template of its arguments.
type ToolCall struct {
	// Tool is the tool's name as the server lists it.
	Tool string `yaml:"tool"`
	// Arguments is the tool's arguments as YAML; in strings, {user},
	// {text} (one rendered record), {index} (its number, from 1), {scene}
	// and {time} stand for the record's values ({{ and }}: literal braces).
	// A string that is one placeholder alone takes the value's JSON type.
	Arguments map[string]any `yaml:"arguments"`
}

// SearchCall is the search tool's call and how its result becomes memories.
type SearchCall struct {
	// Tool is the tool's name as the server lists it.
	Tool string `yaml:"tool"`
	// Arguments is the tool's arguments as YAML; in strings, {user},
	// {query} (the target's scene and details), {scene} and {k} (top_k)
	// stand for the question's values.
	Arguments map[string]any `yaml:"arguments"`
	// Results is a path into the result's JSON ("entities[*].observations[*]"):
	// the structured content when the server sends one, else its text
	// content read as JSON. Empty: each text content item is one memory.
	Results string `yaml:"results,omitempty"`
	// Take keeps the first top_k memories the server returns ("first", the
	// default) or the last ("last", for a server that lists oldest first).
	Take string `yaml:"take,omitempty"`
}

// Defaults of the kind.
const (
	DefaultCallTimeout  = 30 * time.Second
	DefaultStartTimeout = 60 * time.Second
)

// compiled is Options parsed once: templates and durations.
type compiled struct {
	Options
	command      [][]piece
	dir          []piece
	env          map[string][]piece
	write        valueTemplate
	search       valueTemplate
	results      []step
	callTimeout  time.Duration
	startTimeout time.Duration
}

// credentialName matches variable names a child must not be handed.
var credentialName = lazyre.New(`(?i)(_KEY|_TOKEN|_SECRET|PASSWORD|CREDENTIAL)`)

// envName is a portable environment variable name.
var envName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// compile checks o and parses its templates. Every problem is returned,
// each at its field, so the config names them all at file:line.
func compile(o Options) (compiled, []predict.FieldError) {
	c := compiled{Options: o, env: map[string][]piece{}}
	var errs []predict.FieldError
	add := func(field, format string, args ...any) {
		errs = append(errs, predict.FieldError{Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	s := o.Server
	switch {
	case len(s.Command) == 0 && s.URL == "":
		add("server", "set command (a stdio server started per user) or url (a streamable-HTTP server)")
	case len(s.Command) > 0 && s.URL != "":
		add("server.url", "set command or url, not both")
	}
	for i, a := range s.Command {
		ps, err := parseString(a, serverPlaceholders)
		if err != nil {
			add(fmt.Sprintf("server.command[%d]", i), "%v", err)
		}
		c.command = append(c.command, ps)
	}
	if len(s.Command) > 0 && strings.TrimSpace(s.Command[0]) == "" {
		add("server.command[0]", "empty program name")
	}
	var err error
	if c.dir, err = parseString(s.Dir, serverPlaceholders); err != nil {
		add("server.dir", "%v", err)
	}
	for _, k := range sortedKeys(s.Env) {
		if !envName.MatchString(k) {
			add("server.env."+k, "%q is not a variable name", k)
		}
		ps, err := parseString(s.Env[k], serverPlaceholders)
		if err != nil {
			add("server.env."+k, "%v", err)
		}
		c.env[k] = ps
	}
	for i, k := range s.PassEnv {
		switch {
		case !envName.MatchString(k):
			add(fmt.Sprintf("server.pass_env[%d]", i), "%q is not a variable name", k)
		case credentialName.MatchString(k):
			add(fmt.Sprintf("server.pass_env[%d]", i), "%s looks like a credential: a server is never handed the user's keys (the run's model gateway gives it its own)", k)
		}
	}
	if s.URL != "" {
		if u, err := url.Parse(s.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			add("server.url", "want an http:// or https:// URL, got %q", s.URL)
		}
		if s.Dir != "" || len(s.Env) > 0 || len(s.PassEnv) > 0 {
			add("server.url", "dir, env and pass_env apply to a command, not to a url")
		}
	}
	c.callTimeout = duration(s.CallTimeout, DefaultCallTimeout, "server.call_timeout", add)
	c.startTimeout = duration(s.StartTimeout, DefaultStartTimeout, "server.start_timeout", add)

	if o.Write.Tool == "" {
		add("write.tool", "name the tool that stores one record (server-memory: create_entities)")
	}
	if o.Search.Tool == "" {
		add("search.tool", "name the tool that searches the memories (server-memory: search_nodes)")
	}
	wUsed, sUsed := map[string]bool{}, map[string]bool{}
	c.write = compileValue(anyMap(o.Write.Arguments), writePlaceholders, "write.arguments", wUsed, &errs)
	c.search = compileValue(anyMap(o.Search.Arguments), searchPlaceholders, "search.arguments", sUsed, &errs)
	if o.Write.Tool != "" && !wUsed["text"] {
		add("write.arguments", "no {text}: the record would not reach the memory")
	}
	if o.Search.Tool != "" && !sUsed["query"] && !sUsed["scene"] {
		add("search.arguments", "no {query} or {scene}: every question would search the same thing")
	}
	// One server serves every user at a url: only the arguments can keep
	// one user's memories from another's.
	if s.URL != "" {
		if !wUsed["user"] {
			add("write.arguments", "a url server is shared by every user: put {user} in the arguments so each user has a namespace")
		}
		if !sUsed["user"] {
			add("search.arguments", "a url server is shared by every user: put {user} in the arguments so a search sees only that user's memories")
		}
	}
	if o.Search.Results != "" {
		if c.results, err = parsePath(o.Search.Results); err != nil {
			add("search.results", "%v", err)
		}
	}
	if o.Search.Take != "" && !slices.Contains([]string{"first", "last"}, o.Search.Take) {
		add("search.take", "unknown value %q (want first, last)", o.Search.Take)
	}
	return c, errs
}

func duration(s string, def time.Duration, field string, add func(string, string, ...any)) time.Duration {
	if s == "" {
		return def
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		add(field, "want a positive duration such as \"30s\", got %q", s)
		return def
	}
	return d
}

func anyMap(m map[string]any) any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// check is the entry's config-time check: the spec's own options, decoded
// and compiled, every problem at its field.
func check(s predict.Spec) []predict.FieldError {
	o, err := predict.OptionsOf[Options](s)
	if err != nil {
		return []predict.FieldError{{Msg: err.Error()}}
	}
	_, errs := compile(o)
	return errs
}
