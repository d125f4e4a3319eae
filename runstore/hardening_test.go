package runstore

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
)

// diskFile is a log file on a disk that fills: once room bytes are used, a
// write stores what fits and fails with ENOSPC, until the test frees room.
type diskFile struct {
	logFile
	mu   *sync.Mutex
	room *int
}

func (d diskFile) Write(b []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(b) <= *d.room {
		*d.room -= len(b)
		return d.logFile.Write(b)
	}
	n, _ := d.logFile.Write(b[:*d.room])
	*d.room = 0
	return n, syscall.ENOSPC
}

func TestDiskFullMidLineThenFreed(t *testing.T) {
	dir := t.TempDir()
	var mu sync.Mutex
	room := 1 << 20
	wrap := func(f logFile) logFile { return diskFile{f, &mu, &room} }
	s, err := open(dir, wrap)
	if err != nil {
		t.Fatal(err)
	}
	rec := func(i int) runrecord.Sample {
		return runrecord.Sample{ID: fmt.Sprintf("m/%03d", i), Pred: "3", Valid: true, Raw: strings.Repeat("x", 50)}
	}
	for i := 0; i < 5; i++ {
		if err := s.Append(rec(i)); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	room = 40 // the next line is torn part-way through
	mu.Unlock()
	if err := s.Append(rec(5)); err == nil || !strings.Contains(err.Error(), "no space") {
		t.Fatalf("append on a full disk: %v", err)
	}
	if s.Err() == nil {
		t.Fatal("store not closed after a failed write")
	}
	mu.Lock()
	room = 1 << 20 // the disk frees up: the store must stay closed anyway
	mu.Unlock()
	if err := s.Append(rec(6)); err == nil {
		t.Fatal("append after a failure succeeded; the run would go on paying for samples it may not save")
	}
	s.Close()
	b, _ := os.ReadFile(filepath.Join(dir, runrecord.SamplesFile))
	if len(b) == 0 || b[len(b)-1] != '\n' || bytes.Count(b, []byte("\n")) != 5 {
		t.Fatalf("log after the failure is not 5 complete lines:\n%s", b)
	}
	s, err = Open(dir)
	if err != nil {
		t.Fatalf("resume after the disk freed up: %v", err)
	}
	defer s.Close()
	for i := 5; i < 8; i++ {
		if err := s.Append(rec(i)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := runrecord.ReadSamples(filepath.Join(dir, runrecord.SamplesFile))
	if err != nil || len(got) != 8 {
		t.Fatalf("after resume: %d samples, %v", len(got), err)
	}
}

// A disk that fills inside the chunk store leaves the call record of every
// saved sample readable, and a resume goes on recording.
func TestDiskFullInCallRecord(t *testing.T) {
	dir := t.TempDir()
	var mu sync.Mutex
	room := 1 << 30
	wrap := func(f logFile) logFile { return diskFile{f, &mu, &room} }
	s, err := open(dir, wrap)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i := 0; i < 3; i++ {
		id := fmt.Sprintf("m/%03d", i)
		ids = append(ids, id)
		if err := s.AppendWith(runrecord.Sample{ID: id, Valid: true}, recordedCalls(id, 2)); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	room = 30 // the chunk line of the next sample is torn
	mu.Unlock()
	if err := s.AppendWith(runrecord.Sample{ID: "m/full", Valid: true}, recordedCalls("m/full", 2)); err == nil {
		t.Fatal("append on a full disk succeeded")
	}
	s.Close()
	if n, _ := os.ReadFile(filepath.Join(dir, runrecord.SamplesFile)); bytes.Contains(n, []byte("m/full")) {
		t.Fatal("a sample whose calls were not recorded was saved")
	}
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AppendWith(runrecord.Sample{ID: "m/full", Valid: true}, recordedCalls("m/full", 2)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	checkRecord(t, dir, append(ids, "m/full"), 2)
}

func TestOpenRepairsDamagedLines(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, runrecord.SamplesFile)
	log := `{"id":"m/a","pred":"1","valid":true}` + "\n" +
		`{"id":"m/b","pred":"` + `{"id":"m/c","pred":"2","valid":true}` + "\n" + // a write glued onto a torn one
		"\x00\x00garbage\n" +
		`{"id":"m/d","pred":"4","valid":true}` + "\n" +
		`{"id":"m/e","pr` // torn tail
	os.WriteFile(path, []byte(log), 0o644)
	os.WriteFile(filepath.Join(dir, "."+runrecord.SamplesFile+".tmp123"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(dir, "memory", "m"), 0o755)
	os.WriteFile(filepath.Join(dir, "memory", "m", ".u1.json.tmp9"), []byte("x"), 0o644)

	s, err := Open(dir)
	if err != nil {
		t.Fatalf("open a log with damaged lines: %v", err)
	}
	defer s.Close()
	for id, want := range map[string]bool{"m/a": true, "m/b": false, "m/c": true, "m/d": true, "m/e": false} {
		if s.Done(id) != want {
			t.Errorf("Done(%s) = %v, want %v", id, !want, want)
		}
	}
	rep := strings.Join(s.Repairs(), "\n")
	for _, want := range []string{"moved 2 damaged line(s)", "kept the record of m/c", "removed 2 temp file(s)"} {
		if !strings.Contains(rep, want) {
			t.Errorf("repairs do not say %q:\n%s", want, rep)
		}
	}
	rej, _ := os.ReadFile(filepath.Join(dir, RejectedFile))
	if !bytes.Contains(rej, []byte(`{"id":"m/b","pred":"`)) || !bytes.Contains(rej, []byte("garbage")) || bytes.Contains(rej, []byte("m/c")) {
		t.Errorf("rejected file:\n%q", rej)
	}
	if err := s.Append(runrecord.Sample{ID: "m/b", Valid: true}); err != nil {
		t.Fatal(err)
	}
	if got, err := runrecord.ReadSamples(path); err != nil || len(got) != 4 {
		t.Errorf("repaired log: %d samples, %v", len(got), err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp*")); len(left) != 0 {
		t.Errorf("temp files left: %v", left)
	}
}

func TestSecondWriterIsRefusedWithHolderPID(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(dir)
	if err == nil || !strings.Contains(err.Error(), "in use by process "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("second open: %v", err)
	}
	s.Close()
	s, err = Open(dir)
	if err != nil {
		t.Fatalf("open after close: %v", err)
	}
	s.Close()
}

func TestConfigHashSurvivesManifestDeletion(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir)
	if err := s.CheckConfig("aaaa"); err != nil {
		t.Fatal(err)
	}
	s.WriteJSON(runrecord.ManifestFile, map[string]string{"config_hash": "aaaa"})
	s.Append(runrecord.Sample{ID: "m/a", Valid: true})
	s.Close()

	os.Remove(filepath.Join(dir, runrecord.ManifestFile))
	s, _ = Open(dir)
	if err := s.CheckConfig("bbbb"); err == nil || !strings.Contains(err.Error(), "different config") {
		t.Errorf("other config after deleting the manifest: %v", err)
	}
	if err := s.CheckConfig("aaaa"); err != nil {
		t.Errorf("same config: %v", err)
	}
	s.Close()
	os.Remove(filepath.Join(dir, ConfigHashFile))
	s, _ = Open(dir)
	defer s.Close()
	if err := s.CheckConfig("bbbb"); err == nil || !strings.Contains(err.Error(), "no record of the config") {
		t.Errorf("samples without any config record: %v", err)
	}
}

func calls(n int, purpose string) []llm.CallRecord {
	out := make([]llm.CallRecord, n)
	for i := range out {
		out[i] = llm.CallRecord{Purpose: purpose, Usage: llm.Usage{PromptTokens: 10}}
	}
	return out
}

// Usage journalled for work that was never saved does not count.
func TestUsageJournalDropsUnsavedWork(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir)
	s.AppendWith(runrecord.Sample{ID: "m/a", Error: "timeout"}, calls(1, "predict"))
	s.AppendWith(runrecord.Sample{ID: "m/b", Valid: true}, calls(2, "predict"))
	s.WriteJSONWith("checkpoints/u1/p.json", map[string]int{"round": 1}, calls(3, "build"))
	s.WriteJSONWith("checkpoints/u1/p.json", map[string]int{"round": 2}, calls(4, "build"))
	s.Close()
	// A process killed after journalling, before saving: a retry of m/a
	// and a third round.
	ub := encodeUsage([]usageLine{
		{Unit: samplePrefix + "m/a", Calls: calls(5, "predict")},
		{Unit: filePrefix + "checkpoints/u1/p.json", SHA256: "00", Calls: calls(6, "build")},
	})
	f, _ := os.OpenFile(filepath.Join(dir, UsageJournal), os.O_APPEND|os.O_WRONLY, 0)
	f.Write(ub)
	f.WriteString(`{"unit":"sample:m/c","ca`)
	f.Close()

	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(s.Usage()); got != 1+2+3+4 {
		t.Errorf("after the kill: %d journalled calls, want 10", got)
	}
	if rep := strings.Join(s.Repairs(), "\n"); !strings.Contains(rep, "11 model call(s) whose work was never saved") {
		t.Errorf("repairs: %s", rep)
	}
	// The retry is saved this time; compaction keeps every call.
	s.AppendWith(runrecord.Sample{ID: "m/a", Valid: true}, calls(5, "predict"))
	if err := s.Compact([]string{"m/b", "m/a"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, _ = Open(dir)
	defer s.Close()
	if got := len(s.Usage()); got != 15 {
		t.Errorf("after retry and compaction: %d journalled calls, want 15", got)
	}
	if rep := s.Repairs(); len(rep) != 0 {
		t.Errorf("clean reopen repaired: %v", rep)
	}
}

const childEnv = "MEMHARNESS_STORE_CHILD"

// TestMain lets the test binary act as a writer process that tests kill.
func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "lock":
		if _, err := Open(os.Getenv("DIR")); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println("locked")
		time.Sleep(time.Hour)
	case "append":
		groupCommitChild(os.Getenv("DIR"))
	}
	os.Exit(0)
}

// slowSync widens the window of a group commit so kills land inside one.
type slowSync struct{ logFile }

func (s slowSync) Sync() error {
	time.Sleep(3 * time.Millisecond)
	return s.logFile.Sync()
}

// groupCommitChild appends from 8 goroutines and prints each ID once
// Append has acknowledged it.
func groupCommitChild(dir string) {
	s, err := open(dir, func(f logFile) logFile { return slowSync{f} })
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(1)
	}
	var out sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				id := fmt.Sprintf("w%d/%05d", w, i)
				if err := s.AppendWith(runrecord.Sample{ID: id, Raw: strings.Repeat("r", 200)}, recordedCalls(id, 1)); err != nil {
					fmt.Println("append:", err)
					os.Exit(1)
				}
				out.Lock()
				fmt.Println("ack", id)
				out.Unlock()
			}
		}()
	}
	wg.Wait()
}

func startChild(t *testing.T, mode, dir string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+mode, "DIR="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, bufio.NewScanner(stdout)
}

func TestStaleLockOfKilledProcessDoesNotBlock(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	cmd, sc := startChild(t, "lock", dir)
	if !sc.Scan() || sc.Text() != "locked" {
		t.Fatalf("child: %q", sc.Text())
	}
	_, err := Open(dir)
	if err == nil || !strings.Contains(err.Error(), "in use by process "+strconv.Itoa(cmd.Process.Pid)) {
		t.Fatalf("open while the child holds the lock: %v", err)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	s, err := Open(dir)
	if err != nil {
		t.Fatalf("open after the holder was killed: %v", err)
	}
	s.Close()
}

// Every sample acknowledged before a SIGKILL that lands during group
// commits is in the log after reopening, with its usage counted once.
func TestKillDuringGroupCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	for try := 0; try < 3; try++ {
		dir := t.TempDir()
		cmd, sc := startChild(t, "append", dir)
		var acked []string
		for sc.Scan() {
			line := sc.Text()
			id, ok := strings.CutPrefix(line, "ack ")
			if !ok {
				t.Fatalf("child: %s", line)
			}
			acked = append(acked, id)
			if len(acked) == 150+100*try {
				cmd.Process.Signal(syscall.SIGKILL)
			}
		}
		cmd.Wait()
		s, err := Open(dir)
		if err != nil {
			t.Fatalf("reopen after the kill: %v", err)
		}
		for _, id := range acked {
			if _, ok := s.samples[id]; !ok {
				t.Errorf("acknowledged %s lost", id)
			}
		}
		n := len(s.Samples())
		if u := len(s.Usage()); u != n {
			t.Errorf("%d samples but %d journalled calls", n, u)
		}
		s.Close()
		// Every acknowledged sample's call reads back byte for byte.
		checkRecord(t, dir, acked, 1)
		b, _ := os.ReadFile(filepath.Join(dir, runrecord.SamplesFile))
		for i, l := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
			if !json.Valid(l) {
				t.Fatalf("line %d invalid after repair: %q", i+1, l)
			}
		}
		t.Logf("try %d: %d acknowledged, %d in the log", try, len(acked), n)
	}
}

// countSync counts fsyncs.
type countSync struct {
	logFile
	n *atomic.Int64
}

func (c countSync) Sync() error {
	c.n.Add(1)
	return c.logFile.Sync()
}

// BenchmarkAppendParallel reports fsyncs per append under 32 concurrent
// writers (one per append without group commit).
func BenchmarkAppendParallel(b *testing.B) {
	var syncs atomic.Int64
	s, err := open(b.TempDir(), func(f logFile) logFile { return countSync{f, &syncs} })
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var n atomic.Int64
	b.SetParallelism(32)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			id := fmt.Sprintf("m/%d", n.Add(1))
			if err := s.AppendWith(runrecord.Sample{ID: id, Raw: strings.Repeat("r", 300)}, calls(2, "predict")); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.ReportMetric(float64(syncs.Load())/2/float64(b.N), "fsyncs/append")
}

// Saving a state identical to one already saved (work redone after a kill
// between two checkpoints) does not count its calls twice.
func TestUsageJournalRedoneStateCountsOnce(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir)
	s.WriteJSONWith("checkpoints/u1/round-001.json", map[string]int{"round": 1}, calls(3, "build"))
	s.Close()
	s, _ = Open(dir)
	s.WriteJSONWith("checkpoints/u1/round-001.json", map[string]int{"round": 1}, calls(3, "build"))
	s.WriteJSONWith("checkpoints/u1/progress.json", map[string]int{"done": 1}, calls(1, "build"))
	if got := len(s.Usage()); got != 4 {
		t.Errorf("in the resumed process: %d calls, want 4", got)
	}
	s.Close()
	s, _ = Open(dir)
	defer s.Close()
	if got := len(s.Usage()); got != 4 {
		t.Errorf("after reopening: %d calls, want 4", got)
	}
}
