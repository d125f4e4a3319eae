package view

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memharness/memharness/behaviorrun"
	"github.com/memharness/memharness/internal/fsname"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/methods/agent/lifemem"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/runrecord"
)

// maxShown caps how much of one stored file a page shows.
const maxShown = 256 << 10

// memoryMethods lists the methods with per-user memories (memory/<method>/)
// and, for lifelong runs, the methods with a lifelong folder.
func memoryMethods(dir string) (perUser, lifelongMethods []string) {
	for _, e := range dirsOf(dir, filepath.Join(dir, "memory")) {
		perUser = append(perUser, e)
	}
	for _, e := range dirsOf(dir, filepath.Join(dir, lifelong.Dir)) {
		lifelongMethods = append(lifelongMethods, e)
	}
	return perUser, lifelongMethods
}

// dirsOf lists the folders in dir, a folder inside base (links are not
// folders).
func dirsOf(base, dir string) []string {
	ents, _ := readDir(base, dir)
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return naturalLess(out[i], out[j]) })
	return out
}

// memoryUsers lists the users with a stored memory of method. File names
// encode the user IDs (internal/fsname); a name that encodes none is from a
// run written before names were encoded and is the user as it named it.
func memoryUsers(dir, method string) []string {
	mdir := filepath.Join(dir, "memory", method)
	ents, _ := readDir(dir, mdir)
	var out []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".json"); ok && !e.IsDir() {
			u, ok := fsname.Lookup(mdir, n, func(p string) ([]byte, error) { return readFile(dir, p) })
			if !ok {
				u = n
			}
			out = append(out, u)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return naturalLess(out[i], out[j]) })
	return out
}

// storedMemory is memory/<method>/<user>.json as the runner stores it.
type storedMemory struct {
	Text   string          `json:"text"`
	Tokens int             `json:"tokens"`
	Calls  int             `json:"calls"`
	Meta   json.RawMessage `json:"meta"`
}

// Section is one named list of memory entries in one round, with what
// changed since the previous round.
type Section struct {
	Name           string
	Entries        []string
	Added, Removed []string
}

// Round is the PraMem memory after one practice round.
type Round struct {
	Index    int
	Sections []Section
	Review   bool // the self-review ran in this round
}

// MemoryPage is the memory one method built for one user.
type MemoryPage struct {
	Method, User string
	Text         string
	Tokens       int
	Calls        int
	Meta         string
	// Rounds are PraMem's practice rounds, oldest first; Checkpoints are
	// the other construction checkpoints of the user (Mem0, MemOS, ProEx).
	Rounds      []Round
	Checkpoints []NamedText
}

// NamedText is a file name with its (possibly truncated) content.
type NamedText struct{ Name, Text string }

// loadMemory reads one user's memory, and the construction checkpoints of
// kind, which the runner names with the kind as prefix; the kind's entry
// reads its round snapshots (PraMem's practice rounds).
func loadMemory(dir, method, user, kind string, show predict.Inspector) (MemoryPage, error) {
	p := MemoryPage{Method: method, User: user}
	name := memoryName(dir, method, user)
	b, err := readFile(dir, filepath.Join(dir, "memory", method, name+".json"))
	if err != nil {
		return p, fmt.Errorf("memory of %s for %s: %w", method, user, err)
	}
	var m storedMemory
	if err := json.Unmarshal(b, &m); err != nil {
		return p, fmt.Errorf("memory/%s/%s.json: %w", method, name, err)
	}
	p.Text, p.Tokens, p.Calls = m.Text, m.Tokens, m.Calls
	if len(m.Meta) > 0 {
		p.Meta = clip(prettyJSON(m.Meta))
	}
	// Construction checkpoints live per user; a method's files start with
	// its kind (pramem-<hash>-round-NNN, mem0-<hash>).
	cdir := filepath.Join(dir, "checkpoints", fsname.Encode(user))
	ents, _ := readDir(dir, cdir)
	prev := map[string][]string{}
	for _, e := range ents {
		n := e.Name()
		if !strings.HasPrefix(n, kind+"-") {
			continue
		}
		if show.Snapshot != nil {
			b, err := readFile(dir, filepath.Join(cdir, n))
			if err != nil {
				return p, err
			}
			snap, ok, err := show.Snapshot(n, b)
			if err != nil {
				return p, err
			}
			if ok {
				r := Round{Index: snap.Round, Review: snap.Review}
				for _, sec := range snap.Sections {
					r.Sections = append(r.Sections, Section{Name: sec.Name, Entries: sec.Entries})
				}
				p.Rounds = append(p.Rounds, r)
				continue
			}
		}
		if strings.HasSuffix(n, "-progress.json") {
			continue
		}
		b, err := readFile(dir, filepath.Join(cdir, n))
		if err != nil {
			return p, err
		}
		p.Checkpoints = append(p.Checkpoints, NamedText{n, clip(prettyJSON(b))})
	}
	sort.SliceStable(p.Rounds, func(i, j int) bool { return p.Rounds[i].Index < p.Rounds[j].Index })
	for i := range p.Rounds {
		for k := range p.Rounds[i].Sections {
			s := &p.Rounds[i].Sections[k]
			s.Added, s.Removed = diff(prev[s.Name], s.Entries)
			prev[s.Name] = s.Entries
		}
	}
	return p, nil
}

// memoryName is the file name (without .json) of user's memory: the
// encoded ID, or the name itself for a run written before names were
// encoded (see memoryUsers).
func memoryName(dir, method, user string) string {
	name := fsname.Encode(user)
	if _, err := statFile(dir, filepath.Join(dir, "memory", method, name+".json")); err != nil && user != name {
		if _, ok := fsname.Decode(user); !ok && !fsname.Hashed(user) && filepath.Base(user) == user && user != "." && user != ".." {
			return user
		}
	}
	return name
}

// methodKind is the kind of a run's method (by its memory folder name),
// from the config the manifest records; the folder name itself when the
// config does not say.
func methodKind(man runrecord.Manifest, method string) string {
	b, err := json.Marshal(man.Config)
	if err != nil {
		return method
	}
	var cfg struct {
		Methods []struct{ Name, Kind string } `json:"methods"`
	}
	if json.Unmarshal(b, &cfg) != nil {
		return method
	}
	for _, m := range cfg.Methods {
		name := m.Name
		if name == "" {
			name = m.Kind
		}
		if behaviorrun.SafeName(name) == method {
			return m.Kind
		}
	}
	return method
}

// diff returns the entries of b not in a (added) and of a not in b (removed).
func diff(a, b []string) (added, removed []string) {
	in := func(xs []string) map[string]bool {
		m := map[string]bool{}
		for _, x := range xs {
			m[x] = true
		}
		return m
	}
	ina, inb := in(a), in(b)
	for _, x := range b {
		if !ina[x] {
			added = append(added, x)
		}
	}
	for _, x := range a {
		if !inb[x] {
			removed = append(removed, x)
		}
	}
	return added, removed
}

func clip(s string) string {
	if len(s) > maxShown {
		return s[:maxShown] + fmt.Sprintf("\n… (%d more bytes not shown)", len(s)-maxShown)
	}
	return s
}

// Stage is one lifelong stage record (what the memory took in and what
// building it cost), kept as display text.
type Stage struct {
	Name, Text string
}

// LifelongMemory is what one agent method stored over a lifelong run.
type LifelongMemory struct {
	Method string
	// Describe is LifeMem's listing of clusters, rules and costs; States
	// are the other methods' stored state files.
	Describe string
	States   []NamedText
	Stages   []Stage
	Stats    string
}

func loadLifelongMemory(ctx context.Context, dir, method string) (LifelongMemory, error) {
	md := lifelong.MethodDir(dir, method)
	lm := LifelongMemory{Method: method}
	state := filepath.Join(md, "state")
	if stateInside(dir, state) {
		m, err := lifemem.Inspect(ctx, state, lifemem.Options{})
		if err != nil {
			return lm, err
		}
		var b strings.Builder
		err = m.Describe(&b)
		m.Close()
		if err != nil {
			return lm, err
		}
		lm.Describe = clip(b.String())
	}
	ents, _ := readDir(dir, state)
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || e.Name() == "lifemem.json" {
			continue
		}
		b, err := readFile(dir, filepath.Join(state, e.Name()))
		if err != nil {
			return lm, err
		}
		lm.States = append(lm.States, NamedText{e.Name(), clip(prettyJSON(b))})
	}
	sents, _ := readDir(dir, filepath.Join(md, "stages"))
	for _, e := range sents {
		b, err := readFile(dir, filepath.Join(md, "stages", e.Name()))
		if err != nil {
			return lm, err
		}
		lm.Stages = append(lm.Stages, Stage{strings.TrimSuffix(e.Name(), ".json"), clip(prettyJSON(b))})
	}
	sort.SliceStable(lm.Stages, func(i, j int) bool { return naturalLess(lm.Stages[i].Name, lm.Stages[j].Name) })
	if b, err := readFile(dir, filepath.Join(md, method+"_stats.json")); err == nil {
		lm.Stats = clip(prettyJSON(b))
	}
	return lm, nil
}

// stateInside reports whether state holds a LifeMem memory every file of
// which lies inside base: lifemem.Inspect opens them by path itself.
func stateInside(base, state string) bool {
	if _, err := statFile(base, filepath.Join(state, "lifemem.json")); err != nil {
		return false
	}
	ents, err := readDir(base, state)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if _, err := statFile(base, filepath.Join(state, e.Name())); err != nil {
			return false
		}
	}
	return true
}
