package conversation_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// journalCall is what the send-order test reads of a journalled call.
type journalCall struct {
	Purpose            string `json:"purpose"`
	SendSeq            int64  `json:"send_seq"`
	AnsweredBeforeSend int64  `json:"answered_before_send"`
	Content            struct {
		Affinity string `json:"affinity"`
	} `json:"content"`
}

// TestSendOrderBuildsFirstAndHoldsFollowers runs LoCoMo on the sim with
// four calls in flight and reads the send order back from the call record:
// every memory is built before the first question goes out, and every
// question of a conversation waits for its group's first (full context and
// long context, whose prompts are the same, are one group; RAG and the
// Mem0-style memory are groups of their own) to be answered and judged
// before it is sent; the later groups' first questions wait for the
// conversation's first.
func TestSendOrderBuildsFirstAndHoldsFollowers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "order.yaml")
	text := "name: order\ntask: locomo\nseed: 42\nbackbone: {kind: sim, model: m, sim: {latency: 2ms}}\neval: {concurrency: 4}\n" +
		"judge: {prompt: own}\n" +
		"methods:\n  - {name: full, kind: long_context}\n  - {name: long, kind: long_context}\n" +
		"  - {name: rag, kind: rag, top_k: 3}\n  - {name: mem0, kind: mem0}\nreport: {bootstrap: 10}\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if code, log := runBench(t, context.Background(), path, out, func(string) string { return "" }); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	f, err := os.Open(filepath.Join(out, "order", "usage.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type question struct {
		method, conv string
		answer       journalCall
		last         journalCall // its last call (the last judge's)
	}
	var qs []question
	lastBuild := int64(0)
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var line struct {
			Unit  string        `json:"unit"`
			Calls []journalCall `json:"calls"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		method, _, _ := strings.Cut(strings.TrimPrefix(line.Unit, "sample:"), "/")
		q := question{method: method}
		for _, c := range line.Calls {
			if c.SendSeq == 0 {
				t.Fatalf("%s: a %s call without its send number", line.Unit, c.Purpose)
			}
			switch {
			case c.Purpose == "memqa.answer":
				q.answer, q.conv = c, c.Content.Affinity
			case strings.HasPrefix(c.Purpose, "memqa.judge"):
			default:
				lastBuild = max(lastBuild, c.SendSeq)
			}
			q.last = c
		}
		qs = append(qs, q)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lastBuild == 0 {
		t.Fatal("no construction call journalled")
	}
	group := map[string]string{"full": "context", "long": "context", "rag": "rag", "mem0": "mem0"}
	leader := map[[2]string]question{}
	first := map[string]question{}
	for _, q := range qs {
		if q.answer.SendSeq <= lastBuild {
			t.Errorf("%s answer in %s sent as call %d, before the last construction call %d", q.method, q.conv, q.answer.SendSeq, lastBuild)
		}
		k := [2]string{q.conv, group[q.method]}
		if l, ok := leader[k]; !ok || q.answer.SendSeq < l.answer.SendSeq {
			leader[k] = q
		}
		if f, ok := first[q.conv]; !ok || q.answer.SendSeq < f.answer.SendSeq {
			first[q.conv] = q
		}
	}
	held := 0
	for _, q := range qs {
		k := [2]string{q.conv, group[q.method]}
		l := leader[k]
		if l.answer.SendSeq == q.answer.SendSeq {
			l = first[q.conv] // a group's first waits for its conversation's first
		}
		if l.answer.SendSeq == q.answer.SendSeq {
			continue
		}
		held++
		// i answered before j was sent: i.answered_before_send < j.send_seq.
		if l.last.AnsweredBeforeSend >= q.answer.SendSeq {
			t.Errorf("%s's answer in %s (call %d) was sent before %s's (call %d) was answered and judged", q.method, q.conv, q.answer.SendSeq, l.method, l.answer.SendSeq)
		}
	}
	if held == 0 {
		t.Error("no question was held")
	}
}
