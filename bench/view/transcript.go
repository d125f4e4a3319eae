package view

import (
	"bufio"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/lifelong"
)

// transcriptStages lists the stages of a lifelong method with transcripts
// (stage folders such as 01..10, self, ood), in natural order.
func transcriptStages(dir, method string) []string {
	return dirsOf(dir, filepath.Join(lifelong.MethodDir(dir, method), "transcripts"))
}

// EnvEpisodes are the episodes of one environment in one stage.
type EnvEpisodes struct {
	Env      string
	Episodes []Episode
}

// Episode is one transcript with, for each agent turn, the interaction the
// model had seen when it chose that action.
type Episode struct {
	envs.Transcript
	// Inputs[i] is set for agent turn i: the task and every turn before it.
	Inputs []string
	// Calls[i] are the model calls agent turn i made, their messages as
	// sent, from the call record; Recorded says the record had them (a
	// run from before the record shows Inputs instead).
	Calls    [][]StepCall
	Recorded bool
	// CallURLs[i] addresses agent turn i's recorded input, which the page
	// then fetches when the turn's input is opened (server only).
	CallURLs []string
	// RecordNote says why the recorded inputs are not shown.
	RecordNote string
}

// episodeOf works out each agent step's input from the turns before it.
// Transcripts do not log the agent's system prompt or memory block, so the
// input shown is the interaction part of the prompt; the page says so.
func episodeOf(t envs.Transcript) Episode {
	e := Episode{Transcript: t, Inputs: make([]string, len(t.Turns)), Calls: make([][]StepCall, len(t.Turns))}
	var b strings.Builder
	for i, u := range t.Turns {
		if u.Role == "agent" {
			e.Inputs[i] = b.String()
		}
		fmt.Fprintf(&b, "[%s] %s\n", u.Role, u.Text)
	}
	return e
}

// loadStage reads every transcript of one method and stage; calls, when
// set, gives the recorded calls of each env's cell, and url addresses a
// step's input (see attachCalls).
func loadStage(dir, method, stage string, calls cellCalls, url func(env, task string, occ, step int) string) ([]EnvEpisodes, error) {
	sdir := filepath.Join(lifelong.MethodDir(dir, method), "transcripts", stage)
	ents, err := readDir(dir, sdir)
	if err != nil {
		return nil, fmt.Errorf("transcripts of %s, stage %s: %w", method, stage, err)
	}
	var out []EnvEpisodes
	for _, e := range ents {
		env, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok {
			continue
		}
		eps, err := readTranscripts(dir, filepath.Join(sdir, e.Name()))
		if err != nil {
			return nil, err
		}
		ee := EnvEpisodes{Env: env}
		for _, t := range eps {
			ee.Episodes = append(ee.Episodes, episodeOf(t))
		}
		out = append(out, ee)
	}
	if calls != nil {
		addStepCalls(out, calls, url)
	} else {
		for _, ee := range out {
			for i := range ee.Episodes {
				ee.Episodes[i].RecordNote = "A static report leaves the recorded inputs out (bench view shows them)."
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return naturalLess(out[i].Env, out[j].Env) })
	return out, nil
}

func readTranscripts(base, path string) ([]envs.Transcript, error) {
	f, err := openFile(base, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []envs.Transcript
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var t envs.Transcript
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		out = append(out, t)
	}
	return out, sc.Err()
}
