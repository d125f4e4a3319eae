package view

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// stepInput addresses the recorded input of one agent step: the step'th
// agent turn of the occ'th episode (0-based, in file order) of task in the
// env's cell of a lifelong method's stage.
func (l serverLinks) stepInput(method, stage, env, task string, occ, step int) string {
	return l.q("/stepinput", "method", method, "stage", stage, "env", env, "task", task,
		"occ", strconv.Itoa(occ), "step", strconv.Itoa(step))
}

// StepInputData is one agent step's model calls, as sent.
type StepInputData struct {
	Method, Stage, Env, Task string
	Step                     int
	Calls                    []StepCall
	TranscriptsURL           string
}

// stepInput serves one agent step's recorded input: a whole page, or with
// part=1 the fragment the transcripts page puts inside the opened step.
// The transcripts page carries only these links, so that a stage of long
// episodes (every step repeating its prompt) is not megabytes of HTML.
func (s *Server) stepInput(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	rel := q.Get("r")
	ri, err := s.run(rel)
	if err != nil {
		s.fail(w, http.StatusNotFound, err)
		return
	}
	d, err := stepInputData(ri, q.Get("method"), q.Get("stage"), q.Get("env"), q.Get("task"), q.Get("occ"), q.Get("step"))
	if err != nil {
		s.fail(w, http.StatusNotFound, err)
		return
	}
	l := serverLinks{rel}
	d.TranscriptsURL = l.transcripts(d.Method, d.Stage)
	if q.Get("part") == "1" {
		var buf bytes.Buffer
		if err := pages().ExecuteTemplate(&buf, "stepcalls", d.Calls); err != nil {
			s.fail(w, http.StatusInternalServerError, err)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(buf.Bytes())
		return
	}
	s.write(w, "stepinput", Page{Title: fmt.Sprintf("Model input of %s, stage %s, %s %s step %d", d.Method, d.Stage, d.Env, d.Task, d.Step),
		Nav: navOf(ri, displayName(rel, ri), l), Data: d})
}

func stepInputData(ri *runIndex, method, stage, env, task, occs, steps string) (StepInputData, error) {
	d := StepInputData{Method: method, Stage: stage, Env: env, Task: task}
	for _, v := range []string{method, stage, env} {
		if v == "" || v == "." || v == ".." || strings.ContainsAny(v, `/\`) {
			return d, fmt.Errorf("no cell %q/%q/%q", method, stage, env)
		}
	}
	occ, err1 := strconv.Atoi(occs)
	step, err2 := strconv.Atoi(steps)
	if err1 != nil || err2 != nil || occ < 0 || step < 0 {
		return d, fmt.Errorf("step input: occ %q and step %q must be counts", occs, steps)
	}
	d.Step = step
	idx, err := ri.stepCallsOf(method, stage, env)
	if err != nil {
		return d, err
	}
	groups := idx[stepKey(env, task, step)]
	if occ >= len(groups) {
		return d, fmt.Errorf("no recorded call of %s/%s step %d (episode %d) in stage %s of %s", env, task, step, occ, stage, method)
	}
	d.Calls = groups[occ]
	return d, nil
}
