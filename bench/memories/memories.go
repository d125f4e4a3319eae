// Package memories reads back the memory the methods of a finished run
// built (per-user files of prediction methods, lifelong agents' state) and
// describes it as text or JSON, for 'bench memory show'.
package memories

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/memharness/memharness/behaviorrun"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/internal/fsname"
	"github.com/memharness/memharness/internal/nearest"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/methods/registry"
	"github.com/memharness/memharness/runrecord"
)

// Method is one method of a run that kept memory: a prediction method
// (memory/<method>/<user>.json per user) or a lifelong agent method (its
// state folder).
type Method struct {
	Name string `json:"method"`
	Kind string `json:"kind"`
	// Agent: a lifelong agent method (one memory for every task).
	Agent bool `json:"agent,omitempty"`
	// Users are the prediction method's per-user memories, by file name.
	Users []userFile `json:"-"`
	// Summary is the one-line description `memory show` lists.
	Summary string `json:"summary"`
	// EmptyUsers names the users whose memory came out empty.
	EmptyUsers []string `json:"empty_users,omitempty"`
	// show and agentShow are what the kind's entry says to show of its
	// memories.
	show      predict.Inspector
	agentShow agent.Inspector
}

type userFile struct {
	User string
	Mem  predict.Memory
}

// Methods finds every method of run that kept memory, in name order.
func Methods(run string, reg *registry.Registry, agentKinds *lifelong.Methods) ([]Method, error) {
	kinds := configKinds(run)
	var out []Method
	dirs, err := os.ReadDir(filepath.Join(run, "memory"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		m := Method{Name: d.Name(), Kind: kinds[d.Name()]}
		files, err := filepath.Glob(filepath.Join(run, "memory", d.Name(), "*.json"))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			var mem predict.Memory
			if err := readJSONFile(f, &mem); err != nil {
				return nil, err
			}
			if k, ok := mem.Meta["kind"].(string); ok && m.Kind == "" {
				m.Kind = k
			}
			// A name that encodes no ID is from a run written before
			// names were encoded; it is the user as that run named it.
			name := strings.TrimSuffix(filepath.Base(f), ".json")
			user, ok := userOfFile(filepath.Dir(f), name)
			if !ok {
				user = name
			}
			m.Users = append(m.Users, userFile{User: user, Mem: mem})
		}
		if len(m.Users) == 0 {
			continue
		}
		if m.Kind == "" {
			m.Kind = m.Name
		}
		if e, err := reg.Lookup(m.Kind); err == nil {
			m.show = e.Memory
		}
		sortUsers(m.Users)
		m.Summary, m.EmptyUsers = summarizeUsers(m)
		out = append(out, m)
	}
	agents, err := os.ReadDir(filepath.Join(run, lifelong.Dir))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	for _, d := range agents {
		state := filepath.Join(lifelong.MethodDir(run, d.Name()), "state")
		if ents, err := os.ReadDir(state); err != nil || len(ents) == 0 {
			continue // no state kept: a memoryless agent (ReAct)
		}
		m := Method{Name: d.Name(), Kind: kinds[d.Name()], Agent: true}
		if m.Kind == "" {
			m.Kind = d.Name()
		}
		if e, err := agentKinds.Lookup(m.Kind); err == nil {
			m.agentShow = e.Memory
		}
		m.Summary = summarizeAgent(run, m)
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// configKinds maps the run's method names (as folder names) to their kinds,
// from the config recorded in the manifest.
func configKinds(run string) map[string]string {
	kinds := map[string]string{}
	man, err := runrecord.ReadManifest(filepath.Join(run, runrecord.ManifestFile))
	if err != nil {
		return kinds
	}
	b, err := json.Marshal(man.Config)
	if err != nil {
		return kinds
	}
	var cfg config.Config
	if json.Unmarshal(b, &cfg) == nil {
		for _, m := range cfg.Methods {
			name := m.Name
			if name == "" {
				name = m.Kind
			}
			kinds[behaviorrun.SafeName(name)] = m.Kind
		}
	}
	// Lifelong configs list their agent methods in their own block.
	var raw struct {
		Lifelong struct {
			Methods []struct{ Name, Kind string } `json:"methods"`
		} `json:"lifelong"`
	}
	if json.Unmarshal(b, &raw) == nil {
		for _, m := range raw.Lifelong.Methods {
			name := m.Name
			if name == "" {
				name = m.Kind
			}
			kinds[name] = m.Kind
		}
	}
	return kinds
}

// sortUsers orders users numerically when their names are numbers
// (MovieLens), else by name.
func sortUsers(us []userFile) {
	sort.Slice(us, func(i, j int) bool {
		a, b := us[i].User, us[j].User
		if len(a) != len(b) && isDigits(a) && isDigits(b) {
			return len(a) < len(b)
		}
		return a < b
	})
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func summarizeUsers(m Method) (string, []string) {
	var tokens, calls int
	var empty []string
	for _, u := range m.Users {
		tokens += u.Mem.Tokens
		calls += u.Mem.Calls
		if !m.show.NoText && strings.TrimSpace(u.Mem.Text) == "" {
			empty = append(empty, u.User)
		}
	}
	n := len(m.Users)
	s := fmt.Sprintf("%d users, mean %d memory tokens, %d construction calls", n, (tokens+n/2)/n, calls)
	if m.show.Summary != nil {
		mems := make([]predict.Memory, len(m.Users))
		for i, u := range m.Users {
			mems[i] = u.Mem
		}
		if own := m.show.Summary(mems); own != "" {
			s += ", " + own
		}
	}
	if len(empty) > 0 {
		s += fmt.Sprintf("; EMPTY for %d of %d users (%s)", len(empty), n, strings.Join(empty, ", "))
	}
	return s, empty
}

func summarizeAgent(run string, m Method) string {
	if m.agentShow.Summary != nil {
		if line, ok := m.agentShow.Summary(lifelong.MethodDir(run, m.Name)); ok {
			return line
		}
	}
	files, _ := filepath.Glob(filepath.Join(lifelong.MethodDir(run, m.Name), "state", "*"))
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	return "lifelong agent memory: state " + strings.Join(names, ", ")
}

// List prints one line per method of run that kept memory (or one JSON
// document with --json).
func List(w io.Writer, run string, methods []Method, asJSON bool) error {
	if asJSON {
		if methods == nil {
			methods = []Method{}
		}
		return writeJSON(w, methods)
	}
	if len(methods) == 0 {
		fmt.Fprintf(w, "%s: no method of this run built memory\n", run)
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, m := range methods {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", m.Name, m.Kind, m.Summary)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nRun with --method NAME for one method's memory (prediction methods: --user U for one user in full).")
	return nil
}

// ShowUsers prints one line per user of a prediction method.
func ShowUsers(w io.Writer, m Method, asJSON bool) error {
	type row struct {
		User   string         `json:"user"`
		Tokens int            `json:"tokens"`
		Calls  int            `json:"calls"`
		Usage  llm.Usage      `json:"usage"`
		Facts  map[string]any `json:"counters,omitempty"`
	}
	rows := make([]row, len(m.Users))
	for i, u := range m.Users {
		rows[i] = row{u.User, u.Mem.Tokens, u.Mem.Calls, u.Mem.Usage, scalarMeta(u.Mem.Meta)}
	}
	if asJSON {
		return writeJSON(w, struct {
			Method
			Users []row `json:"users"`
		}{m, rows})
	}
	fmt.Fprintf(w, "%s (kind %s): %s\n\n", m.Name, m.Kind, m.Summary)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	heads := make([]string, len(m.show.Columns))
	for i, c := range m.show.Columns {
		heads[i] = c.Heading
	}
	fmt.Fprintln(tw, "user\tmemory tokens\tcalls\t"+strings.Join(heads, "\t"))
	for _, u := range m.Users {
		var cells []string
		for _, c := range m.show.Columns {
			cells = append(cells, fmt.Sprint(predict.MetaInt(u.Mem.Meta, c.Key)))
		}
		flag := ""
		if slices.Contains(m.EmptyUsers, u.User) {
			flag = "\tEMPTY"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s%s\n", u.User, u.Mem.Tokens, u.Mem.Calls, strings.Join(cells, "\t"), flag)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nRun with --user U for one user's memory in full.\n")
	return nil
}

// userDetail is one user's memory in full: the generic part, then what
// the kind's entry reads of its checkpoints (Detail).
type userDetail struct {
	Method   string         `json:"method"`
	Kind     string         `json:"kind"`
	User     string         `json:"user"`
	Tokens   int            `json:"tokens"`
	Calls    int            `json:"calls"`
	Usage    llm.Usage      `json:"usage"`
	Counters map[string]any `json:"counters,omitempty"`
	// Text is the memory exactly as the prediction prompt shows it.
	Text string `json:"text"`
	// kind is the kind's own detail; noText its Inspector.NoText.
	kind   predict.Detail
	noText bool
}

// MarshalJSON writes the generic fields and the kind's own ones in one
// object.
func (d userDetail) MarshalJSON() ([]byte, error) {
	type plain userDetail
	b, err := json.Marshal(plain(d))
	if err != nil || len(d.kind.JSON) == 0 {
		return b, err
	}
	var all map[string]any
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	maps.Copy(all, d.kind.JSON)
	return json.Marshal(all)
}

// ShowUser prints one user's memory of a prediction method in full.
func ShowUser(w io.Writer, run string, m Method, user string, asJSON bool) error {
	i := slices.IndexFunc(m.Users, func(u userFile) bool { return u.User == user })
	if i < 0 {
		var names []string
		for _, u := range m.Users {
			names = append(names, u.User)
		}
		return fmt.Errorf("%s: no memory for user %q (users: %s)", m.Name, user, strings.Join(nearest.Closest(user, names, 10), ", "))
	}
	var err error
	mem := m.Users[i].Mem
	d := userDetail{Method: m.Name, Kind: m.Kind, User: user, Tokens: mem.Tokens, Calls: mem.Calls, Usage: mem.Usage,
		Counters: scalarMeta(mem.Meta), Text: mem.Text}
	d.noText = m.show.NoText
	if m.show.Detail != nil {
		ckptDir := filepath.Join(run, filepath.Dir(behaviorrun.CheckpointPath(user, "")))
		if d.kind, err = m.show.Detail(ckptDir, mem); err != nil {
			return fmt.Errorf("%s: user %s: %w", m.Name, user, err)
		}
	}
	if asJSON {
		return writeJSON(w, d)
	}
	return describeUser(w, d)
}

func describeUser(w io.Writer, d userDetail) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (kind %s), user %s: %d memory tokens, %d construction calls (%d prompt + %d completion tokens)\n",
		d.Method, d.Kind, d.User, d.Tokens, d.Calls, d.Usage.PromptTokens, d.Usage.CompletionTokens)
	if len(d.Counters) > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(d.Counters)) {
			parts = append(parts, fmt.Sprintf("%s %v", k, d.Counters[k]))
		}
		fmt.Fprintf(&b, "  %s\n", strings.Join(parts, ", "))
	}
	b.WriteString(d.kind.Text)
	if strings.TrimSpace(d.Text) == "" {
		if !d.noText {
			b.WriteString("\nThe memory is EMPTY: the prompt shows no memory for this user.\n")
		}
	} else {
		fmt.Fprintf(&b, "\nMemory as the prompt shows it (%d tokens):\n", d.Tokens)
		for _, line := range strings.Split(strings.TrimRight(d.Text, "\n"), "\n") {
			fmt.Fprintf(&b, "  | %s\n", line)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ShowAgent describes a lifelong agent method's memory: LifeMem's
// clusters and rules, or an outline of another method's saved state.
func ShowAgent(ctx context.Context, w io.Writer, run string, m Method, asJSON bool) error {
	dir := filepath.Join(lifelong.MethodDir(run, m.Name), "state")
	if m.agentShow.Describe != nil {
		d, err := m.agentShow.Describe(ctx, lifelong.MethodDir(run, m.Name))
		if err != nil {
			return err
		}
		if asJSON {
			out := map[string]any{"method": m.Name, "kind": m.Kind}
			maps.Copy(out, d.JSON)
			return writeJSON(w, out)
		}
		_, err = io.WriteString(w, d.Text)
		return err
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	outline := map[string]map[string]string{}
	for _, f := range files {
		var top map[string]json.RawMessage
		if err := readJSONFile(f, &top); err != nil {
			return err
		}
		o := map[string]string{}
		for k, v := range top {
			o[k] = outlineJSON(v)
		}
		outline[filepath.Base(f)] = o
	}
	if asJSON {
		return writeJSON(w, struct {
			Method string                       `json:"method"`
			Kind   string                       `json:"kind"`
			State  map[string]map[string]string `json:"state"`
		}{m.Name, m.Kind, outline})
	}
	fmt.Fprintf(w, "%s (kind %s): %s\n", m.Name, m.Kind, m.Summary)
	for _, f := range slices.Sorted(maps.Keys(outline)) {
		fmt.Fprintf(w, "\n%s:\n", f)
		for _, k := range slices.Sorted(maps.Keys(outline[f])) {
			fmt.Fprintf(w, "  %-20s %s\n", k, outline[f][k])
		}
	}
	return nil
}

// outlineJSON says what a JSON value holds in a few words.
func outlineJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "?"
	}
	switch x := v.(type) {
	case []any:
		return fmt.Sprintf("%d items", len(x))
	case map[string]any:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if arr, ok := x[k].([]any); ok {
				parts = append(parts, fmt.Sprintf("%s: %d", k, len(arr)))
			}
		}
		if len(parts) == 0 {
			return fmt.Sprintf("%d fields", len(x))
		}
		return strings.Join(parts, ", ")
	case string:
		if len(x) > 60 {
			return fmt.Sprintf("text, %d bytes", len(x))
		}
		return x
	default:
		return fmt.Sprint(x)
	}
}

// scalarMeta keeps the numbers, booleans and short strings of a memory's
// meta (the counters), leaving out lists, texts and checkpoint names.
func scalarMeta(meta map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range meta {
		if k == "kind" || k == "calls" || k == "memory_tokens" {
			continue // shown in the header
		}
		switch x := v.(type) {
		case float64, bool:
			out[k] = x
		case string:
			if k != "checkpoint" && k != "memory_json" && len(x) <= 40 {
				out[k] = x
			}
		case map[string]any:
			for k2, v2 := range x {
				if f, ok := v2.(float64); ok {
					out[k+"."+k2] = f
				}
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func readJSONFile(p string, v any) error {
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// userOfFile names the user of a memory file in dir (base name without
// .json); ok is false for a file that is no user's.
func userOfFile(dir, name string) (string, bool) {
	return fsname.Lookup(dir, name, os.ReadFile)
}
