// Package trajectories reads and writes the experience agents learn from:
// the Trajectory record and the LifeMem training format ({task, messages}
// JSONL, one trajectory a line). Recording trajectories from episodes
// (gold replays of the embedded suites) is envs.Record's job.
package trajectories

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/memharness/memharness/internal/safefile"
	"github.com/memharness/memharness/llm"
)

// Tags maps the environment tags of LifeMem's file names and env fields
// (lower case) to registry names where they differ. The environments'
// entries declare them (envs.Entry.FileTags; envs/all's Registry.FileTags
// collects them); a tag not in it is taken as the registry name.
type Tags map[string]string

func (t Tags) env(tag string) string {
	if name, ok := t[tag]; ok {
		return name
	}
	return tag
}

// EnvFromFile infers the environment from a LifeMem file name
// ("train_<env>.jsonl", optionally followed by a note as in the shared
// fixture's source_file field), through tags; "" when the name does not
// follow it.
func EnvFromFile(name string, tags Tags) string {
	base := filepath.Base(strings.TrimSpace(name))
	if i := strings.IndexAny(base, " \t("); i >= 0 {
		base = base[:i]
	}
	if !strings.HasPrefix(base, "train_") || !strings.HasSuffix(base, ".jsonl") {
		return ""
	}
	tag := strings.TrimSuffix(strings.TrimPrefix(base, "train_"), ".jsonl")
	if tag == "" {
		return ""
	}
	return tags.env(strings.ToLower(tag))
}

// record is one line of a training file. Only task and messages are in
// LifeMem's release; the rest are accepted when present.
type record struct {
	Task       string        `json:"task"`
	Messages   []llm.Message `json:"messages"`
	TaskID     string        `json:"task_id"`
	Env        string        `json:"env"`
	SourceFile string        `json:"source_file"`
	Success    *bool         `json:"success"`
	Difficulty int           `json:"difficulty"`
}

// Load reads a training file. env names the environment of every line; when
// empty it is inferred from the file name, then from each line's own env or
// source_file field, whose environment tags are read through tags.
func Load(path, env string, tags Tags) ([]Trajectory, error) {
	f, err := safefile.Open(path, 0)
	if err != nil {
		return nil, fmt.Errorf("trajectories: %w", err)
	}
	defer f.Close()
	if env == "" {
		env = EnvFromFile(path, tags)
	}
	return Read(f, path, env, tags)
}

// Read parses training lines from r; name labels errors ("name:line: ...").
// IDs missing from the data are generated as "<env>_<line index>" (0-based,
// counting every physical line) as LifeMem's memory builder expects.
func Read(r io.Reader, name, env string, tags Tags) ([]Trajectory, error) {
	sc := bufio.NewScanner(r)
	// ScienceWorld trajectories run to hundreds of kilobytes a line.
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	var out []Trajectory
	for line := 0; sc.Scan(); line++ {
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		tr, err := parseLine(raw, env, line, tags)
		if err != nil {
			return nil, fmt.Errorf("trajectories: %s:%d: %w", name, line+1, err)
		}
		out = append(out, tr)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("trajectories: %s: %w", name, err)
	}
	return out, nil
}

func parseLine(raw []byte, env string, line int, tags Tags) (Trajectory, error) {
	var rec record
	if err := json.Unmarshal(raw, &rec); err != nil {
		return Trajectory{}, fmt.Errorf("not a trajectory object: %w", err)
	}
	if env == "" {
		env = tags.env(strings.ToLower(strings.TrimSpace(rec.Env)))
	}
	if env == "" {
		env = EnvFromFile(rec.SourceFile, tags)
	}
	if env == "" {
		return Trajectory{}, fmt.Errorf("no environment: pass one, name the file train_<env>.jsonl, or set an env field")
	}
	if len(rec.Messages) == 0 {
		return Trajectory{}, fmt.Errorf("field messages: empty")
	}
	for i, m := range rec.Messages {
		switch m.Role {
		case "user", "assistant", "system":
		default:
			return Trajectory{}, fmt.Errorf("field messages[%d].role: %q is not user, assistant or system", i, m.Role)
		}
	}
	task := rec.Task
	if strings.TrimSpace(task) == "" {
		task = firstUser(rec.Messages)
	}
	if strings.TrimSpace(task) == "" {
		return Trajectory{}, fmt.Errorf("field task: empty and no user message to take it from")
	}
	id := rec.TaskID
	if id == "" {
		// Zero-padded, so IDs sort in file order (env_000010 after
		// env_000002).
		id = fmt.Sprintf("%s_%06d", env, line)
	}
	success := true // LifeMem's training files hold successful trajectories only
	if rec.Success != nil {
		success = *rec.Success
	}
	return Trajectory{ID: id, Env: env, Task: task, Messages: rec.Messages, Success: success, Difficulty: rec.Difficulty}, nil
}

func firstUser(msgs []llm.Message) string {
	for _, m := range msgs {
		if m.Role == "user" {
			return m.Content
		}
	}
	return ""
}

// Write stores trajectories in the training format (with env, task_id and
// success, which Read accepts back).
func Write(w io.Writer, trs []Trajectory) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, t := range trs {
		if err := enc.Encode(t); err != nil {
			return fmt.Errorf("trajectories: write %s: %w", t.ID, err)
		}
	}
	return nil
}
